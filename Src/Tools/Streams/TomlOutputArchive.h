#pragma once

// Saves any Boost-serializable struct into a TOML table: `archive.save(params); archive.table()`. Units are
// converted back to file units; floating-point values are written with the fewest digits that load back
// bit-exactly; keys remember their serialize() order so that toTomlString writes them in that order.

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <toml++/toml.h>

#include "Tools/Streams/ArchiveText.h"
#include "Tools/Streams/ConfigError.h"
#include "Tools/Streams/Field.h"
#include "Tools/Streams/NumberFormat.h"
#include "Tools/Streams/SavingArchive.h"
#include "Tools/Streams/SourceLocation.h"
#include "Tools/Streams/TypeTraits.h"

namespace nao::streams
{
class TomlOutputArchive : public detail::SavingArchive<TomlOutputArchive>
{
public:
  /// Replaces table() by object's table. Throws ConfigError for values TOML cannot hold (uint64 above
  /// 2^63 - 1, enum values without a name).
  template<class T>
  void save(const T& object)
  {
    static_assert(SerializableStruct<T> || NamedArray<T>, "the top level of a TOML file is a table");
    saveValue(object, ValueSpec{}, "",
              [this](auto&& node)
              {
                if constexpr (std::is_same_v<std::remove_cvref_t<decltype(node)>, toml::table>)
                  table_ = std::move(node);
              });
  }

  const toml::table& table() const& { return table_; }
  toml::table table() && { return std::move(table_); }

private:
  friend class detail::SavingArchive<TomlOutputArchive>;

  struct Scope
  {
    toml::table* table;
    std::string path;
    std::uint32_t nextOrder = 1;
  };

  /// A named item of a serialize(): a key of the current table, in serialize() order.
  template<class T>
  void member(const char* name, const T& value, const ValueSpec& spec)
  {
    Scope& scope = scopes_.back();
    toml::table& table = *scope.table;
    toml::key key(std::string_view(name), detail::orderOnlyRegion(scope.nextOrder++));
    saveValue(value, spec, detail::joinKey(scope.path, name),
              [&](auto&& node) { table.insert_or_assign(key, std::forward<decltype(node)>(node)); });
  }

  /// Makes the TOML node for value and hands it to sink (which inserts it into a table or an array).
  template<class T, class Sink>
  void saveValue(const T& value, const ValueSpec& spec, const std::string& path, Sink&& sink)
  {
    if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::string>)
      sink(T(value));
    else if constexpr (std::is_integral_v<T>)
    {
      if constexpr (std::is_unsigned_v<T> && sizeof(T) >= sizeof(std::int64_t))
        if (value > static_cast<T>(std::numeric_limits<std::int64_t>::max()))
          throw ConfigError(ConfigIssue{.keyPath = path,
                                        .message = "value " + std::to_string(value) +
                                                   " does not fit a TOML integer (64-bit signed)"});
      sink(static_cast<std::int64_t>(value));
    }
    else if constexpr (std::is_floating_point_v<T>)
      sink(fileValueFor(value, spec.unit));
    else if constexpr (std::is_enum_v<T>)
    {
      const auto names = namesOfEnum<T>();
      const auto index = static_cast<std::size_t>(value);
      if (index >= names.size())
        throw ConfigError(ConfigIssue{.keyPath = path,
                                      .message = "enum value " + std::to_string(index) +
                                                 " has no name (names: " + detail::listNames(names, false) +
                                                 ")"});
      sink(std::string(names[index]));
    }
    else if constexpr (NamedArray<T>)
    {
      const std::vector<std::string_view> names = detail::namedArrayNames<T>();
      toml::table table;
      for (std::size_t index = 0; index < names.size() && index < namedArraySize(value); ++index)
      {
        toml::key key(names[index], detail::orderOnlyRegion(static_cast<std::uint32_t>(index + 1)));
        saveValue(value[index], spec, detail::joinKey(path, names[index]),
                  [&](auto&& node) { table.insert_or_assign(key, std::forward<decltype(node)>(node)); });
      }
      sink(std::move(table));
    }
    else if constexpr (StdArray<T> || StdVector<T> || ArrayWrapper<T>)
    {
      toml::array array;
      for (std::size_t index = 0; index < elementCount(value); ++index)
      {
        const auto& element = elementAt(value, index); // binds a bool for std::vector<bool>
        saveValue(element, spec, detail::joinIndex(path, index),
                  [&](auto&& node) { array.push_back(std::forward<decltype(node)>(node)); });
      }
      sink(std::move(array));
    }
    else
    {
      toml::table table;
      scopes_.push_back(Scope{&table, path});
      serializeStruct(value);
      scopes_.pop_back();
      sink(std::move(table));
    }
  }

  std::vector<Scope> scopes_;
  toml::table table_;
};
} // namespace nao::streams
