#pragma once

// Flattens an object into (key path, text) pairs for CSV export, dumps and the debug client; numeric leaves
// (numbers, bools as 0/1, enums as their index) are also available as doubles. Texts read back exactly.

#include <string>
#include <utility>
#include <vector>

#include "Tools/Streams/LeafWalker.h"
#include "Tools/Streams/NumberFormat.h"

namespace nao::streams
{
/// Whether values with a file unit are given as in files (degrees, mA, ...) or as the code holds them (SI).
enum class ValueUnits
{
  file,
  code
};

class FlatValuesArchive : public detail::LeafWalker<FlatValuesArchive>
{
public:
  explicit FlatValuesArchive(ValueUnits units = ValueUnits::file) : units_(units) {}

  template<class T>
  void flatten(const T& object)
  {
    values_.clear();
    numbers_.clear();
    walkRoot(object);
  }

  /// Every leaf as text: numbers in round-trip precision, bools "true"/"false", enums by name, strings raw.
  const std::vector<std::pair<std::string, std::string>>& values() const { return values_; }
  /// Every numeric leaf (numbers, bools as 0/1, enums as their index) as a double.
  const std::vector<std::pair<std::string, double>>& numbers() const { return numbers_; }

  template<class T>
  void leaf(const std::string& path, const T& value, const ValueSpec& spec)
  {
    if constexpr (std::is_same_v<T, bool>)
      add(path, value ? "true" : "false", value ? 1.0 : 0.0);
    else if constexpr (std::is_integral_v<T>)
      add(path, std::to_string(+value), static_cast<double>(value));
    else if constexpr (std::is_floating_point_v<T>)
    {
      if (units_ == ValueUnits::file && spec.unit != Unit::none)
      {
        const double fileValue = fileValueFor(value, spec.unit);
        add(path, formatShortest(fileValue), fileValue);
      }
      else
        add(path,
            formatShortest(static_cast<std::conditional_t<std::is_same_v<T, float>, float, double>>(value)),
            static_cast<double>(value));
    }
    else if constexpr (std::is_enum_v<T>)
    {
      const auto names = namesOfEnum<T>();
      const auto index = static_cast<std::size_t>(value);
      add(path, index < names.size() ? std::string(names[index]) : std::to_string(index),
          static_cast<double>(index));
    }
    else
      values_.emplace_back(path, value);
  }

private:
  void add(const std::string& path, std::string text, double number)
  {
    values_.emplace_back(path, std::move(text));
    numbers_.emplace_back(path, number);
  }

  ValueUnits units_;
  std::vector<std::pair<std::string, std::string>> values_;
  std::vector<std::pair<std::string, double>> numbers_;
};

/// Every leaf of object as (path, text), in serialize() order.
template<class T>
std::vector<std::pair<std::string, std::string>> flattenValues(const T& object,
                                                               ValueUnits units = ValueUnits::file)
{
  FlatValuesArchive archive(units);
  archive.flatten(object);
  return archive.values();
}
} // namespace nao::streams
