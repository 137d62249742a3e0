#pragma once

// Internal: how messages and field lists describe C++ types and ranges.

#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "Tools/Streams/Field.h"
#include "Tools/Streams/TypeTraits.h"

namespace nao::streams::detail
{
/// The names of a named array type, in index order.
template<NamedArray A>
std::vector<std::string_view> namedArrayNames()
{
  std::vector<std::string_view> names;
  for (auto&& name : A::names())
    names.emplace_back(name);
  return names;
}

/// "a, b, c" or, quoted, "'a', 'b', 'c'".
template<class Names>
std::string listNames(const Names& names, bool quoted)
{
  std::string text;
  for (auto&& name : names)
  {
    if (!text.empty()) text += ", ";
    text += quoted ? "'" + std::string(name) + "'" : std::string(name);
  }
  return text;
}

/// A file value with its unit: "7 deg", "30 %", "0.5".
std::string withUnit(double fileValue, Unit unit);
/// The allowed range of a spec: "[0, 5] deg".
std::string rangeText(const ValueSpec& spec);

/// What a C++ type expects to find in a file, for messages: "number", "one of 'stand', 'walk'", "table".
template<class T>
std::string expectedText()
{
  if constexpr (std::is_same_v<T, bool>)
    return "boolean";
  else if constexpr (std::is_integral_v<T>)
    return "integer";
  else if constexpr (std::is_floating_point_v<T>)
    return "number";
  else if constexpr (std::is_same_v<T, std::string>)
    return "string";
  else if constexpr (std::is_enum_v<T>)
    return "one of " + listNames(namesOfEnum<T>(), true);
  else if constexpr (NamedArray<T>)
    return "table with keys " + listNames(namedArrayNames<T>(), false);
  else if constexpr (StdArray<T>)
    return "array of " + std::to_string(std::tuple_size_v<T>) + " elements";
  else if constexpr (StdVector<T> || ArrayWrapper<T>)
    return "array";
  else
    return "table";
}
} // namespace nao::streams::detail
