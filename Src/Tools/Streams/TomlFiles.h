#pragma once

// Files, overlays, whole-object load/save and live edits on top of the TOML archives.

#include <filesystem>
#include <string>
#include <string_view>

#include <toml++/toml.h>

#include "Tools/Streams/ConfigError.h"
#include "Tools/Streams/TomlInputArchive.h"
#include "Tools/Streams/TomlOutputArchive.h"

namespace nao::streams
{
/// The source name positions in a live edit's new value refer to.
inline constexpr std::string_view editSourceName = "<edit>";

/// Parses TOML text; sourcePath names the text in positions. Parse errors become ConfigError.
toml::table parseToml(std::string_view text, std::string_view sourcePath);
/// Parses a file; a missing or unreadable file and parse errors become ConfigError naming the path.
toml::table loadTomlFile(const std::filesystem::path& path);

/// Overlays per key: every leaf value (and every array, whole) of overlay replaces the base's value,
/// tables are merged recursively. A key the base does not have, or a table where the base has a value (or
/// the other way round, or an array against a single value), is a ConfigError at the overlay's position; then
/// base is left unchanged. Moved-in values keep their overlay positions, so later load errors name the
/// overlay file. Errors name the base as baseName, or else as its file.
void overlayPerKey(toml::table& base, toml::table&& overlay, std::string_view baseName = {});
/// As above for an overlay that must stay intact. toml++ drops node positions on copy, so an overridden
/// entry takes the overlay's key (whose position survives) and later errors point at that key.
void overlayPerKey(toml::table& base, const toml::table& overlay, std::string_view baseName = {});

/// TOML text of a table. Keys keep their file order (parsed tables) or serialize() order (saved tables);
/// floats are written with the fewest digits that read back exactly.
std::string toTomlString(const toml::table& table);

/// Loads target from table; on any problem throws ConfigError and target keeps its old value.
template<class T>
void loadFromTable(const toml::table& table, T& target)
{
  T loaded = target;
  TomlInputArchive(table).load(loaded);
  target = std::move(loaded);
}

template<class T>
toml::table saveToTable(const T& object)
{
  TomlOutputArchive archive;
  archive.save(object);
  return std::move(archive).table();
}

namespace detail
{
/// Puts a parsed edit value in place of the node at a key path and can put the old node back; moves
/// nodes so that every position survives.
class EditSlot
{
public:
  /// Throws ConfigError when valueToml does not parse or keyPath names no existing node.
  EditSlot(toml::table& root, std::string_view keyPath, std::string_view valueToml);
  void revert();

private:
  toml::table* parentTable_ = nullptr;
  toml::array* parentArray_ = nullptr;
  std::string key_;
  std::size_t index_ = 0;
  toml::array oldNode_; // one element: the node that was replaced
};

/// The error with positions in the edit text counted from the start of the value, not of the parse wrapper.
ConfigError editError(const ConfigError& error);
} // namespace detail

/// Live edit: replaces the node at keyPath ("walk.maxSpeed", "thresholds.LKneePitch", "poses[2].time") by
/// valueToml (TOML value syntax: `0.3`, `"text"`, `[1, 2]`, `{ a = 1 }`) and loads params from the result
/// with every check of a file load. Only on success both shadow and params change; otherwise throws
/// ConfigError (positions of the new value refer to "<edit>") and changes nothing.
template<class T>
void applyEdit(toml::table& shadow, std::string_view keyPath, std::string_view valueToml, T& params)
{
  detail::EditSlot slot(shadow, keyPath, valueToml);
  try
  {
    loadFromTable(shadow, params);
  }
  catch (const ConfigError& error)
  {
    slot.revert();
    throw detail::editError(error);
  }
  catch (...)
  {
    slot.revert();
    throw;
  }
}
} // namespace nao::streams
