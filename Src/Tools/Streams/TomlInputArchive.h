#pragma once

// Loads any Boost-serializable struct from a TOML table: `archive.load(params)`. Every value is checked
// (type, C++ integer range, field range in file units, array length, enum names), every key of every table
// must be consumed by serialize(), and all problems of one load are collected into one ConfigError whose
// positions come from the TOML nodes (so values merged in from an overlay name the overlay file).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include <boost/mpl/bool.hpp>
#include <boost/serialization/serialization.hpp>
#include <boost/serialization/version.hpp>
#include <toml++/toml.h>

#include "Tools/Streams/ArchiveText.h"
#include "Tools/Streams/ClosestName.h"
#include "Tools/Streams/ConfigError.h"
#include "Tools/Streams/Field.h"
#include "Tools/Streams/SourceLocation.h"
#include "Tools/Streams/TypeTraits.h"

namespace nao::streams
{
class TomlInputArchive
{
public:
  using is_loading = boost::mpl::true_;
  using is_saving = boost::mpl::false_;

  explicit TomlInputArchive(const toml::table& root) : root_(root) {}

  /// Loads object from the root table. Values the table gets wrong keep what they had; throws ConfigError
  /// listing every problem (the fields of the error describe the first).
  template<class T>
  void load(T& object)
  {
    static_assert(SerializableStruct<T> || NamedArray<T>, "the top level of a TOML file is a table");
    issues_.clear();
    loadValue(root_, detail::locateTable(root_, {}), "", object, ValueSpec{});
    if (!issues_.empty()) throw ConfigError(issues_);
  }

  template<class T>
  TomlInputArchive& operator>>(T& item)
  {
    loadItem(item);
    return *this;
  }
  template<class T>
  TomlInputArchive& operator&(T& item)
  {
    loadItem(item);
    return *this;
  }

private:
  /// A table being filled by a serialize(): which keys it used, for the unknown-key check.
  struct Scope
  {
    const toml::table* table;
    std::string path;
    detail::Location location;
    std::vector<std::string> consumedKeys;
  };

  template<class T>
  void loadItem(T& item)
  {
    using Item = std::remove_cv_t<T>;
    if constexpr (NvpItem<Item>)
      loadMember(item.name(), item.value(), ValueSpec{});
    else if constexpr (FieldItem<Item>)
      loadMember(item.name(), item.value(), item.spec());
    else if constexpr (SerializableStruct<Item>)
      serializeStruct(const_cast<Item&>(item)); // unnamed base object: its keys live in the same table
    else
      static_assert(dependentFalse<T>, "TOML needs a name for every value: use BOOST_SERIALIZATION_NVP, "
                                       "boost::serialization::make_nvp or nao::streams::field");
  }

  template<class T>
  void loadMember(const char* name, T& value, const ValueSpec& spec)
  {
    Scope& scope = scopes_.back(); // a deque keeps this reference valid while nested tables push scopes
    const std::string path = detail::joinKey(scope.path, name);
    scope.consumedKeys.emplace_back(name);
    const auto entry = scope.table->find(name);
    if (entry == scope.table->end())
    {
      report(scope.location, path, "missing; expected " + detail::expectedText<T>());
      return;
    }
    const detail::Location keyLocation = detail::locate((*entry).first.source(), scope.location);
    loadValue((*entry).second, detail::locate((*entry).second.source(), keyLocation), path, value, spec);
  }

  template<class T>
  void loadValue(const toml::node& node, const detail::Location& location, const std::string& path, T& value,
                 const ValueSpec& spec)
  {
    if constexpr (std::is_same_v<T, bool>)
    {
      if (const auto* boolean = node.as_boolean())
        value = boolean->get();
      else
        reportWrongType<T>(node, location, path);
    }
    else if constexpr (std::is_integral_v<T>)
      loadInteger(node, location, path, value, spec);
    else if constexpr (std::is_floating_point_v<T>)
      loadFloatingPoint(node, location, path, value, spec);
    else if constexpr (std::is_same_v<T, std::string>)
    {
      if (const auto* text = node.as_string())
        value = text->get();
      else
        reportWrongType<T>(node, location, path);
    }
    else if constexpr (std::is_enum_v<T>)
      loadEnum(node, location, path, value);
    else if constexpr (NamedArray<T>)
      loadNamedArray(node, location, path, value, spec);
    else if constexpr (StdArray<T> || StdVector<T> || ArrayWrapper<T>)
      loadArray(node, location, path, value, spec);
    else
      loadStruct(node, location, path, value);
  }

  template<class T>
  void loadInteger(const toml::node& node, const detail::Location& location, const std::string& path,
                   T& value, const ValueSpec& spec)
  {
    const auto* integer = node.as_integer();
    if (!integer) return reportWrongType<T>(node, location, path);
    const std::int64_t fileValue = integer->get();
    const bool fits = std::is_signed_v<T>
                          ? fileValue >= static_cast<std::int64_t>(std::numeric_limits<T>::min()) &&
                                fileValue <= static_cast<std::int64_t>(std::numeric_limits<T>::max())
                          : fileValue >= 0 && static_cast<std::uint64_t>(fileValue) <=
                                                  static_cast<std::uint64_t>(std::numeric_limits<T>::max());
    if (!fits)
      return report(location, path,
                    "expected integer in [" + std::to_string(+std::numeric_limits<T>::min()) + ", " +
                        std::to_string(+std::numeric_limits<T>::max()) + "] (" +
                        std::string(scalarTypeName<T>()) + "), got " + std::to_string(fileValue));
    if (!spec.inRange(static_cast<double>(fileValue)))
      return reportOutOfRange(location, path, spec, static_cast<double>(fileValue));
    value = static_cast<T>(fileValue);
  }

  template<class T>
  void loadFloatingPoint(const toml::node& node, const detail::Location& location, const std::string& path,
                         T& value, const ValueSpec& spec)
  {
    double fileValue = 0.0;
    if (const auto* floating = node.as_floating_point())
      fileValue = floating->get();
    else if (const auto* integer = node.as_integer())
      fileValue = static_cast<double>(integer->get());
    else
      return reportWrongType<T>(node, location, path);
    if (!spec.inRange(fileValue)) return reportOutOfRange(location, path, spec, fileValue);
    const double codeValue = fileToCode(fileValue, spec.unit);
    if (std::isfinite(codeValue) && std::abs(codeValue) > static_cast<double>(std::numeric_limits<T>::max()))
      return report(location, path,
                    "expected number within the range of " + std::string(scalarTypeName<T>()) + ", got " +
                        detail::withUnit(fileValue, spec.unit));
    value = static_cast<T>(codeValue);
  }

  template<class T>
  void loadEnum(const toml::node& node, const detail::Location& location, const std::string& path, T& value)
  {
    const auto names = namesOfEnum<T>();
    const auto* text = node.as_string();
    if (!text) return reportWrongType<T>(node, location, path);
    const auto found = std::find(names.begin(), names.end(), std::string_view(text->get()));
    if (found == names.end())
      return report(location, path, "expected " + detail::expectedText<T>() + ", got '" + text->get() + "'");
    value = static_cast<T>(found - names.begin());
  }

  template<class T>
  void loadNamedArray(const toml::node& node, const detail::Location& location, const std::string& path,
                      T& value, const ValueSpec& spec)
  {
    const auto* table = node.as_table();
    if (!table) return reportWrongType<T>(node, location, path);
    const std::vector<std::string_view> names = detail::namedArrayNames<T>();
    checkNamedArraySize(names.size(), namedArraySize(value), path);
    const detail::Location tableLocation = detail::locateTable(*table, location);
    for (std::size_t index = 0; index < names.size(); ++index)
    {
      const std::string elementPath = detail::joinKey(path, names[index]);
      const auto entry = table->find(names[index]);
      auto& element = value[index];
      if (entry == table->end())
      {
        report(tableLocation, elementPath,
               "missing; expected " + detail::expectedText<std::remove_cvref_t<decltype(element)>>());
        continue;
      }
      const detail::Location keyLocation = detail::locate((*entry).first.source(), tableLocation);
      loadValue((*entry).second, detail::locate((*entry).second.source(), keyLocation), elementPath, element,
                spec);
    }
    reportUnknownKeys(*table, path, tableLocation, names);
  }

  template<class T>
  void loadArray(const toml::node& node, const detail::Location& location, const std::string& path, T& value,
                 const ValueSpec& spec)
  {
    const auto* array = node.as_array();
    if (!array) return reportWrongType<T>(node, location, path);
    if constexpr (StdVector<T>)
      value.resize(array->size());
    else if (array->size() != elementCount(value))
      return report(location, path,
                    "expected array of " + std::to_string(elementCount(value)) + " elements, got " +
                        std::to_string(array->size()));
    for (std::size_t index = 0; index < array->size(); ++index)
    {
      const toml::node& elementNode = (*array)[index];
      const detail::Location elementLocation = detail::locate(elementNode.source(), location);
      if constexpr (std::is_same_v<T, std::vector<bool>>) // elements are proxies, not bools
      {
        bool element = value[index];
        loadValue(elementNode, elementLocation, detail::joinIndex(path, index), element, spec);
        value[index] = element;
      }
      else
        loadValue(elementNode, elementLocation, detail::joinIndex(path, index), elementAt(value, index),
                  spec);
    }
  }

  template<class T>
  void loadStruct(const toml::node& node, const detail::Location& location, const std::string& path, T& value)
  {
    const auto* table = node.as_table();
    if (!table) return reportWrongType<T>(node, location, path);
    scopes_.push_back(Scope{table, path, detail::locateTable(*table, location), {}});
    serializeStruct(value);
    const Scope& scope = scopes_.back();
    reportUnknownKeys(*scope.table, scope.path, scope.location, scope.consumedKeys);
    scopes_.pop_back();
  }

  template<class T>
  void serializeStruct(T& value)
  {
    boost::serialization::serialize_adl(*this, value, boost::serialization::version<T>::value);
  }

  template<class T>
  void reportWrongType(const toml::node& node, const detail::Location& location, const std::string& path)
  {
    report(location, path,
           "expected " + detail::expectedText<T>() + ", got " + std::string(detail::tomlTypeName(node)));
  }

  template<class Names>
  void reportUnknownKeys(const toml::table& table, const std::string& path,
                         const detail::Location& tableLocation, const Names& knownKeys)
  {
    for (auto&& [key, node] : table)
    {
      if (std::find(knownKeys.begin(), knownKeys.end(), key.str()) != knownKeys.end()) continue;
      const std::string expected = knownKeys.empty()
                                       ? "this table takes no keys"
                                       : "expected one of " + detail::listNames(knownKeys, false);
      const auto closest = closestName(key.str(), knownKeys);
      report(detail::locate(key.source(), tableLocation), detail::joinKey(path, key.str()),
             "unknown key; " + (closest ? "did you mean '" + *closest + "'? " : std::string()) + expected);
    }
  }

  void reportOutOfRange(const detail::Location& location, const std::string& path, const ValueSpec& spec,
                        double fileValue);
  void report(const detail::Location& location, const std::string& path, std::string message);
  static void checkNamedArraySize(std::size_t nameCount, std::size_t size, const std::string& path);

  const toml::table& root_;
  std::deque<Scope> scopes_;
  std::vector<ConfigIssue> issues_;
};
} // namespace nao::streams
