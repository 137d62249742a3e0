#include "Tools/Streams/ArchiveText.h"

#include "Tools/Streams/NumberFormat.h"

namespace nao::streams::detail
{
std::string withUnit(double fileValue, Unit unit)
{
  const std::string number = formatShortest(fileValue);
  return unit == Unit::none ? number : number + " " + std::string(unitSymbol(unit));
}

std::string rangeText(const ValueSpec& spec)
{
  std::string text = "[" + formatShortest(spec.min) + ", " + formatShortest(spec.max) + "]";
  return spec.unit == Unit::none ? text : text + " " + std::string(unitSymbol(spec.unit));
}
} // namespace nao::streams::detail
