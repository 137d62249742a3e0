#include "Tools/Streams/SourceLocation.h"

#include <algorithm>
#include <array>
#include <cstdio>

namespace nao::streams::detail
{
namespace
{
/// Identifies order-only key regions by pointer; its text never appears in a message.
const std::shared_ptr<const std::string>& orderOnlyMarker()
{
  static const auto marker = std::make_shared<const std::string>("<serialize order>");
  return marker;
}

bool isBareKey(std::string_view key)
{
  return !key.empty() && std::all_of(key.begin(), key.end(),
                                     [](char c)
                                     {
                                       return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                                              (c >= '0' && c <= '9') || c == '_' || c == '-';
                                     });
}
} // namespace

bool hasPosition(const toml::source_region& region)
{
  return region.begin.line > 0 && region.path != orderOnlyMarker();
}

Location locate(const toml::source_region& region, const Location& fallback)
{
  if (!hasPosition(region)) return fallback;
  return Location{region.path, static_cast<int>(region.begin.line), static_cast<int>(region.begin.column)};
}

Location locateTable(const toml::table& table, const Location& fallback)
{
  if (hasPosition(table.source())) return locate(table.source(), fallback);
  if (fallback.file) return fallback;
  for (auto&& [key, node] : table)
    if (hasPosition(key.source())) return Location{key.source().path, 0, 0};
  return fallback;
}

toml::source_region orderOnlyRegion(std::uint32_t order)
{
  toml::source_region region;
  region.begin = toml::source_position{order, 1};
  region.end = region.begin;
  region.path = orderOnlyMarker();
  return region;
}

std::uint64_t writeRank(const toml::key& key)
{
  const toml::source_region& region = key.source();
  if (region.begin.line == 0) return ~std::uint64_t{0};
  return (std::uint64_t{region.begin.line} << 32) | region.begin.column;
}

ConfigIssue makeIssue(const Location& location, std::string keyPath, std::string message)
{
  return ConfigIssue{location.file ? *location.file : std::string(), location.line, location.column,
                     std::move(keyPath), std::move(message)};
}

std::string tomlKey(std::string_view key)
{
  return isBareKey(key) ? std::string(key) : quoteTomlString(key);
}

std::string joinKey(std::string_view path, std::string_view key)
{
  std::string joined(path);
  if (!joined.empty()) joined += '.';
  return joined + tomlKey(key);
}

std::string joinIndex(std::string_view path, std::size_t index)
{
  return std::string(path) + "[" + std::to_string(index) + "]";
}

std::string quoteTomlString(std::string_view text)
{
  std::string quoted = "\"";
  for (const char c : text)
  {
    switch (c)
    {
    case '"':
      quoted += "\\\"";
      break;
    case '\\':
      quoted += "\\\\";
      break;
    case '\b':
      quoted += "\\b";
      break;
    case '\t':
      quoted += "\\t";
      break;
    case '\n':
      quoted += "\\n";
      break;
    case '\f':
      quoted += "\\f";
      break;
    case '\r':
      quoted += "\\r";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      {
        std::array<char, 8> escape{};
        std::snprintf(escape.data(), escape.size(), "\\u%04X",
                      static_cast<unsigned>(static_cast<unsigned char>(c)));
        quoted += escape.data();
      }
      else
        quoted += c;
    }
  }
  return quoted + "\"";
}

std::string_view tomlTypeName(const toml::node& node)
{
  switch (node.type())
  {
  case toml::node_type::table:
    return "table";
  case toml::node_type::array:
    return "array";
  case toml::node_type::string:
    return "string";
  case toml::node_type::integer:
    return "integer";
  case toml::node_type::floating_point:
    return "float";
  case toml::node_type::boolean:
    return "boolean";
  case toml::node_type::date:
    return "date";
  case toml::node_type::time:
    return "time";
  case toml::node_type::date_time:
    return "date-time";
  case toml::node_type::none:
    break;
  }
  return "nothing";
}
} // namespace nao::streams::detail
