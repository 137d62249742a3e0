#pragma once

// Internal helpers shared by the archives and file functions: positions of TOML nodes and keys, key paths.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include <toml++/toml.h>

#include "Tools/Streams/ConfigError.h"

namespace nao::streams::detail
{
/// A position in a TOML source; line 0 means unknown (nodes built in code, or copied: toml++ drops node
/// positions on copy, keys keep theirs).
struct Location
{
  std::shared_ptr<const std::string> file;
  int line = 0;
  int column = 0;
};

/// Whether a region points into a real source (not built in code, not an order-only key of a saved table).
bool hasPosition(const toml::source_region& region);
/// The region's position, or fallback when it has none.
Location locate(const toml::source_region& region, const Location& fallback);
/// A table's own position; for tables without one, the file of any of its keys (line 0).
Location locateTable(const toml::table& table, const Location& fallback);

/// A key region that carries only the position of the key in serialize() order, so that toTomlString writes
/// saved tables in declaration order; it names no file and hasPosition() is false for it.
toml::source_region orderOnlyRegion(std::uint32_t order);
/// Sort rank of a key when writing: line and column of parsed keys, the order of saved keys.
std::uint64_t writeRank(const toml::key& key);

ConfigIssue makeIssue(const Location& location, std::string keyPath, std::string message);
/// "walk" + "maxSpeed" -> "walk.maxSpeed"; keys that are not bare TOML keys are quoted.
std::string joinKey(std::string_view path, std::string_view key);
/// "poses" + 2 -> "poses[2]".
std::string joinIndex(std::string_view path, std::size_t index);
/// A key as TOML writes it: bare when possible, else a quoted basic string.
std::string tomlKey(std::string_view key);
/// A TOML basic string literal with escapes.
std::string quoteTomlString(std::string_view text);
/// "table", "array", "string", "integer", "float", "boolean", "date", "time", "date-time".
std::string_view tomlTypeName(const toml::node& node);
} // namespace nao::streams::detail
