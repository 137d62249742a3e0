#include "Util/DebugGui/TomlSplice.h"
#include "Tools/Streams/NumberFormat.h"
#include <sstream>
#include <stdexcept>
#include <toml++/toml.h>

namespace nao::gui
{
namespace
{
toml::table parse(const std::string& text, const std::string& sourceName)
{
  try
  {
    return toml::parse(text, sourceName);
  }
  catch (const toml::parse_error& error)
  {
    std::ostringstream message;
    message << sourceName << ":" << error.source().begin.line << ":" << error.source().begin.column << ": "
            << error.description();
    throw std::runtime_error(message.str());
  }
}

/// Offset of a 1-based line and column (columns count characters; the files are ASCII or UTF-8).
std::size_t offsetOf(const std::string& text, std::uint32_t line, std::uint32_t column)
{
  std::size_t offset = 0;
  for (std::uint32_t l = 1; l < line; ++l)
  {
    offset = text.find('\n', offset);
    if (offset == std::string::npos) return text.size();
    ++offset;
  }
  // toml++ counts code points; step over UTF-8 continuation bytes.
  for (std::uint32_t c = 1; c < column && offset < text.size(); ++c)
  {
    ++offset;
    while (offset < text.size() && (static_cast<unsigned char>(text[offset]) & 0xC0) == 0x80)
      ++offset;
  }
  return offset;
}

void checkValue(const std::string& valueToml, const std::string& keyPath)
{
  try
  {
    (void)toml::parse("value = " + valueToml);
  }
  catch (const toml::parse_error& error)
  {
    throw std::runtime_error(keyPath + " = " + valueToml + ": not a TOML value (" +
                             std::string(error.description()) + ")");
  }
}

std::string leafText(const toml::node& node)
{
  if (const auto* value = node.as_floating_point()) return streams::formatShortest(value->get());
  if (const auto* value = node.as_string()) return "\"" + value->get() + "\"";
  std::ostringstream out;
  node.visit([&](const auto& leaf) { out << leaf; });
  return out.str();
}

void flatten(const toml::node& node, const std::string& path,
             std::vector<std::pair<std::string, std::string>>& out)
{
  if (const auto* table = node.as_table())
  {
    for (const auto& [key, child] : *table)
      flatten(child, path.empty() ? std::string(key.str()) : path + "." + std::string(key.str()), out);
    return;
  }
  if (const auto* array = node.as_array(); array && array->is_array_of_tables())
  {
    for (std::size_t i = 0; i < array->size(); ++i)
      flatten(*array->get(i), path + "[" + std::to_string(i) + "]", out);
    return;
  }
  out.emplace_back(path, leafText(node));
}
} // namespace

std::string replaceTomlValue(const std::string& text, const std::string& keyPath,
                             const std::string& valueToml, const std::string& sourceName)
{
  checkValue(valueToml, keyPath);
  const toml::table table = parse(text, sourceName);
  const toml::node_view<const toml::node> node = table.at_path(keyPath);
  if (!node) throw std::runtime_error(sourceName + ": has no key " + keyPath);
  if (node.is_table()) throw std::runtime_error(sourceName + ": " + keyPath + " is a table, not a value");
  const toml::source_region& region = node.node()->source();
  const std::size_t begin = offsetOf(text, region.begin.line, region.begin.column);
  const std::size_t end = offsetOf(text, region.end.line, region.end.column); // one past the value
  std::string result = text.substr(0, begin) + valueToml + text.substr(end);
  // The result must read back with the new value and nothing else changed; a splice that broke the file is
  // never written.
  const toml::table check = parse(result, sourceName + " (edited)");
  if (!check.at_path(keyPath))
    throw std::runtime_error(sourceName + ": rewriting " + keyPath + " did not keep the key");
  return result;
}

std::string setTomlValue(const std::string& text, const std::string& keyPath, const std::string& valueToml,
                         const std::string& sourceName)
{
  checkValue(valueToml, keyPath);
  const toml::table table = parse(text, sourceName);
  if (table.at_path(keyPath)) return replaceTomlValue(text, keyPath, valueToml, sourceName);
  // The deepest table of the key path that the file already has, and whether a header defines it.
  std::string prefix = keyPath, rest;
  std::size_t insertAt = std::string::npos;
  for (std::size_t dot = keyPath.rfind('.'); dot != std::string::npos; dot = keyPath.rfind('.', dot - 1))
  {
    prefix = keyPath.substr(0, dot);
    const auto parent = table.at_path(prefix);
    if (parent && parent.is_table())
    {
      const auto& region = parent.node()->source();
      if (region.begin.line > 0 && text.find('[', offsetOf(text, region.begin.line, 1)) ==
                                       offsetOf(text, region.begin.line, region.begin.column))
      {
        // After the header line.
        insertAt = text.find('\n', offsetOf(text, region.begin.line, region.begin.column));
        insertAt = insertAt == std::string::npos ? text.size() : insertAt + 1;
        rest = keyPath.substr(dot + 1);
      }
      break;
    }
    if (dot == 0) break;
  }
  if (insertAt == std::string::npos)
  {
    rest = keyPath;
    // Before the first table header, so that the dotted key belongs to the root table.
    std::size_t lineStart = 0;
    insertAt = text.size();
    while (lineStart < text.size())
    {
      const std::size_t first = text.find_first_not_of(" \t", lineStart);
      if (first != std::string::npos && text[first] == '[')
      {
        insertAt = lineStart;
        break;
      }
      const std::size_t next = text.find('\n', lineStart);
      if (next == std::string::npos) break;
      lineStart = next + 1;
    }
  }
  std::string line = rest + " = " + valueToml + "\n";
  std::string result = text;
  if (insertAt == text.size() && !text.empty() && text.back() != '\n') line = "\n" + line;
  result.insert(insertAt, line);
  const toml::table check = parse(result, sourceName + " (edited)");
  if (!check.at_path(keyPath)) throw std::runtime_error(sourceName + ": adding " + keyPath + " failed");
  return result;
}

std::vector<std::pair<std::string, std::string>> flattenToml(const std::string& text,
                                                             const std::string& sourceName)
{
  std::vector<std::pair<std::string, std::string>> out;
  flatten(parse(text, sourceName), "", out);
  return out;
}
} // namespace nao::gui
