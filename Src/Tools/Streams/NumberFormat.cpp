#include "Tools/Streams/NumberFormat.h"

#include <array>
#include <charconv>
#include <system_error>

namespace nao::streams
{
namespace
{
template<class T>
std::string toShortestChars(T value)
{
  std::array<char, 64> buffer{};
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  return std::string(buffer.data(), result.ptr);
}
} // namespace

std::string formatShortest(double value)
{
  return toShortestChars(value);
}

std::string formatShortest(float value)
{
  return toShortestChars(value);
}

double roundToSignificantDigits(double value, int digits)
{
  if (!std::isfinite(value)) return value;
  std::array<char, 64> buffer{};
  const auto written = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
                                     std::chars_format::scientific, digits - 1);
  double rounded = value;
  const auto parsed = std::from_chars(buffer.data(), written.ptr, rounded);
  return parsed.ec == std::errc{} ? rounded : value;
}
} // namespace nao::streams
