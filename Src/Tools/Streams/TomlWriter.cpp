// toTomlString: our own writer because toml++ 3.3 built with GCC prints every double with 17 digits
// ("0.10000000000000001") and every table in alphabetical order; people edit these files by hand.

#include <algorithm>
#include <sstream>
#include <utility>
#include <vector>

#include "Tools/Streams/NumberFormat.h"
#include "Tools/Streams/SourceLocation.h"
#include "Tools/Streams/TomlFiles.h"

namespace nao::streams
{
namespace
{
using Entry = std::pair<const toml::key*, const toml::node*>;

std::vector<Entry> orderedEntries(const toml::table& table)
{
  std::vector<Entry> entries;
  for (auto&& [key, node] : table)
    entries.emplace_back(&key, &node);
  std::stable_sort(entries.begin(), entries.end(),
                   [](const Entry& a, const Entry& b)
                   { return detail::writeRank(*a.first) < detail::writeRank(*b.first); });
  return entries;
}

bool isArrayOfTables(const toml::node& node)
{
  const auto* array = node.as_array();
  return array && !array->empty() &&
         std::all_of(array->begin(), array->end(),
                     [](const toml::node& element)
                     { return element.is_table() && !element.as_table()->is_inline(); });
}

/// Written under its own [header] or [[header]] rather than as key = value.
bool isSection(const toml::node& node)
{
  if (const auto* table = node.as_table()) return !table->is_inline();
  return isArrayOfTables(node);
}

std::string floatText(double value)
{
  std::string text = formatShortest(value);
  if (text.find_first_of(".eEn") == std::string::npos) // "n": inf and nan
    text += ".0";
  return text;
}

template<class T>
std::string streamed(const T& value)
{
  std::ostringstream stream;
  stream << value;
  return stream.str();
}

std::string inlineValue(const toml::node& node)
{
  switch (node.type())
  {
  case toml::node_type::string:
    return detail::quoteTomlString(node.as_string()->get());
  case toml::node_type::integer:
    return std::to_string(node.as_integer()->get());
  case toml::node_type::floating_point:
    return floatText(node.as_floating_point()->get());
  case toml::node_type::boolean:
    return node.as_boolean()->get() ? "true" : "false";
  case toml::node_type::date:
    return streamed(node.as_date()->get());
  case toml::node_type::time:
    return streamed(node.as_time()->get());
  case toml::node_type::date_time:
    return streamed(node.as_date_time()->get());
  case toml::node_type::array:
  {
    std::string text = "[";
    for (const toml::node& element : *node.as_array())
      text += (text.size() > 1 ? ", " : "") + inlineValue(element);
    return text + "]";
  }
  case toml::node_type::table:
  {
    const auto entries = orderedEntries(*node.as_table());
    if (entries.empty()) return "{}";
    std::string text = "{ ";
    for (std::size_t i = 0; i < entries.size(); ++i)
      text += (i > 0 ? ", " : "") + detail::tomlKey(entries[i].first->str()) + " = " +
              inlineValue(*entries[i].second);
    return text + " }";
  }
  case toml::node_type::none:
    break;
  }
  return "";
}

void writeKeyValues(std::string& out, const std::vector<Entry>& entries)
{
  for (const auto& [key, node] : entries)
    if (!isSection(*node)) out += detail::tomlKey(key->str()) + " = " + inlineValue(*node) + "\n";
}

void writeHeader(std::string& out, const std::string& header)
{
  if (!out.empty()) out += "\n";
  out += header + "\n";
}

void writeSections(std::string& out, const std::vector<Entry>& entries, const std::string& parentPath)
{
  for (const auto& [key, node] : entries)
  {
    if (!isSection(*node)) continue;
    const std::string path =
        parentPath.empty() ? detail::tomlKey(key->str()) : parentPath + "." + detail::tomlKey(key->str());
    if (const auto* table = node->as_table())
    {
      const auto children = orderedEntries(*table);
      const bool hasValues =
          children.empty() || std::any_of(children.begin(), children.end(),
                                          [](const Entry& child) { return !isSection(*child.second); });
      if (hasValues) // a table holding only sub-tables needs no header of its own
        writeHeader(out, "[" + path + "]");
      writeKeyValues(out, children);
      writeSections(out, children, path);
      continue;
    }
    for (const toml::node& element : *node->as_array())
    {
      const auto children = orderedEntries(*element.as_table());
      writeHeader(out, "[[" + path + "]]");
      writeKeyValues(out, children);
      writeSections(out, children, path);
    }
  }
}
} // namespace

std::string toTomlString(const toml::table& table)
{
  std::string out;
  const auto entries = orderedEntries(table);
  writeKeyValues(out, entries);
  writeSections(out, entries, "");
  return out;
}
} // namespace nao::streams
