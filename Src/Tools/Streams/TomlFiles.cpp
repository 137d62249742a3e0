#include "Tools/Streams/TomlFiles.h"
#include "Tools/Files/BoundedFile.h"
#include "Tools/Streams/ClosestName.h"

#include <optional>
#include <system_error>
#include <utility>
#include <variant>
#include <vector>

#include "Tools/Streams/SourceLocation.h"

namespace nao::streams
{
namespace
{
/// The text of an edit is parsed as the document `value = <text>`; columns are corrected by the prefix
/// length.
constexpr std::string_view editKey = "value";
constexpr std::string_view editPrefix = "value = ";

ConfigError fromParseError(const toml::parse_error& error, std::string_view fallbackPath)
{
  const toml::source_region& region = error.source();
  return ConfigError(ConfigIssue{region.path ? *region.path : std::string(fallbackPath),
                                 static_cast<int>(region.begin.line), static_cast<int>(region.begin.column),
                                 "", "TOML parse error: " + std::string(error.description())});
}

// Moving (not copying) keeps a node's position: toml++ drops positions on copy.
void placeInTable(toml::table& table, std::string_view key, toml::node& node)
{
  node.visit([&](auto& concrete) { table.insert_or_assign(key, std::move(concrete)); });
}

void placeInArray(toml::array& array, std::size_t index, toml::node& node)
{
  node.visit([&](auto& concrete)
             { array.replace(array.cbegin() + static_cast<std::ptrdiff_t>(index), std::move(concrete)); });
}

std::string_view kindName(const toml::node& node)
{
  return node.is_table() ? "table" : node.is_array() ? "array" : "single value";
}

bool sameKind(const toml::node& a, const toml::node& b)
{
  return a.is_table() == b.is_table() && a.is_array() == b.is_array();
}

void checkOverlay(const toml::table& base, const toml::table& overlay, const std::string& path,
                  const std::string& baseName, const detail::Location& overlayLocation,
                  std::vector<ConfigIssue>& issues)
{
  for (auto&& [key, node] : overlay)
  {
    const std::string keyPath = detail::joinKey(path, key.str());
    const detail::Location keyLocation = detail::locate(key.source(), overlayLocation);
    const toml::node* target = base.get(key.str());
    if (!target)
    {
      std::vector<std::string> baseKeys;
      for (auto&& [baseKey, baseNode] : base)
        baseKeys.emplace_back(baseKey.str());
      const auto closest = closestName(key.str(), baseKeys);
      issues.push_back(detail::makeIssue(keyLocation, keyPath,
                                         "unknown key; " +
                                             (closest ? "did you mean '" + *closest + "'? " : std::string()) +
                                             "not in " + baseName));
    }
    else if (!sameKind(*target, node))
      issues.push_back(detail::makeIssue(detail::locate(node.source(), keyLocation), keyPath,
                                         "expected " + std::string(kindName(*target)) + " as in " + baseName +
                                             ", got " + std::string(detail::tomlTypeName(node))));
    else if (node.is_table())
      checkOverlay(*target->as_table(), *node.as_table(), keyPath, baseName,
                   detail::locateTable(*node.as_table(), keyLocation), issues);
  }
}

template<class Overlay> // toml::table (values are moved) or const toml::table (values are copied)
void applyOverlay(toml::table& base, Overlay& overlay)
{
  for (auto&& [key, node] : overlay)
  {
    toml::node& target = *base.get(key.str());
    if (node.is_table())
      applyOverlay(*target.as_table(), *node.as_table());
    else if constexpr (std::is_const_v<Overlay>)
    {
      base.erase(key.str());
      const toml::key& name = key; // clang before 16 cannot capture a structured binding
      node.visit([&](const auto& concrete) { base.insert(name, concrete); });
    }
    else
      placeInTable(base, key.str(), node);
  }
}

template<class Overlay>
void overlayChecked(toml::table& base, Overlay& overlay, std::string_view givenBaseName)
{
  const detail::Location baseLocation = detail::locateTable(base, {});
  const std::string baseName = !givenBaseName.empty() ? std::string(givenBaseName)
                               : baseLocation.file    ? *baseLocation.file
                                                      : std::string("the base table");
  std::vector<ConfigIssue> issues;
  checkOverlay(base, overlay, "", baseName, detail::locateTable(overlay, {}), issues);
  if (!issues.empty()) throw ConfigError(std::move(issues));
  applyOverlay(base, overlay);
}

using PathStep = std::variant<std::string, std::size_t>;

/// "poses[2].time" -> {"poses", 2, "time"}; keys may be quoted ("\"a b\".c"). Empty on syntax errors.
std::optional<std::vector<PathStep>> parseKeyPath(std::string_view path)
{
  std::vector<PathStep> steps;
  std::size_t i = 0;
  bool expectKey = true;
  while (i < path.size())
  {
    if (path[i] == '[')
    {
      const std::size_t close = path.find(']', i);
      if (close == std::string_view::npos || close == i + 1) return std::nullopt;
      std::size_t index = 0;
      for (std::size_t d = i + 1; d < close; ++d)
      {
        if (path[d] < '0' || path[d] > '9') return std::nullopt;
        index = index * 10 + static_cast<std::size_t>(path[d] - '0');
      }
      steps.emplace_back(index);
      i = close + 1;
      expectKey = false;
      continue;
    }
    if (!expectKey && path[i] != '.') return std::nullopt;
    if (!expectKey) ++i;
    std::string key;
    if (i < path.size() && path[i] == '"')
    {
      for (++i; i < path.size() && path[i] != '"'; ++i)
        key += (path[i] == '\\' && i + 1 < path.size()) ? path[++i] : path[i];
      if (i++ >= path.size()) return std::nullopt;
    }
    else
      for (; i < path.size() && path[i] != '.' && path[i] != '['; ++i)
        key += path[i];
    if (key.empty()) return std::nullopt;
    steps.emplace_back(std::move(key));
    expectKey = false;
  }
  if (steps.empty()) return std::nullopt;
  return steps;
}
} // namespace

toml::table parseToml(std::string_view text, std::string_view sourcePath)
{
  try
  {
    return toml::parse(text, sourcePath);
  }
  catch (const toml::parse_error& error)
  {
    throw fromParseError(error, sourcePath);
  }
}

toml::table loadTomlFile(const std::filesystem::path& path)
{
  std::string text;
  try
  {
    text = files::readBoundedFile(path);
  }
  catch (const files::FileError& error)
  {
    const std::string message = error.what();
    const std::string prefix = path.string() + ":1:1: ";
    throw ConfigError(
        ConfigIssue{.file = path.string(),
                    .line = 1,
                    .column = 1,
                    .message = message.starts_with(prefix) ? message.substr(prefix.size()) : message});
  }
  try
  {
    return toml::parse(text, path.string());
  }
  catch (const toml::parse_error& parseError)
  {
    throw fromParseError(parseError, path.string());
  }
}

void overlayPerKey(toml::table& base, toml::table&& overlay, std::string_view baseName)
{
  overlayChecked(base, overlay, baseName);
}

void overlayPerKey(toml::table& base, const toml::table& overlay, std::string_view baseName)
{
  overlayChecked(base, overlay, baseName);
}

namespace detail
{
EditSlot::EditSlot(toml::table& root, std::string_view keyPath, std::string_view valueToml)
{
  toml::table parsed;
  try
  {
    parsed = parseToml(std::string(editPrefix) + std::string(valueToml), editSourceName);
  }
  catch (const ConfigError& error)
  {
    throw editError(error);
  }
  toml::node* newNode = parsed.get(editKey);
  if (parsed.size() != 1 || !newNode)
    throw ConfigError(ConfigIssue{std::string(editSourceName), 1, 1, std::string(keyPath),
                                  "expected a single TOML value, got '" + std::string(valueToml) + "'"});

  const auto steps = parseKeyPath(keyPath);
  if (!steps)
    throw ConfigError(ConfigIssue{.keyPath = std::string(keyPath), .message = "malformed key path"});
  toml::node* parent = &root;
  toml::node* slot = nullptr;
  std::string walked;
  for (const PathStep& step : *steps)
  {
    if (slot) parent = slot;
    parentTable_ = nullptr;
    parentArray_ = nullptr;
    if (const auto* key = std::get_if<std::string>(&step))
    {
      walked = joinKey(walked, *key);
      parentTable_ = parent->as_table();
      slot = parentTable_ ? parentTable_->get(*key) : nullptr;
      key_ = *key;
    }
    else
    {
      index_ = std::get<std::size_t>(step);
      walked = joinIndex(walked, index_);
      parentArray_ = parent->as_array();
      slot = parentArray_ && index_ < parentArray_->size() ? parentArray_->get(index_) : nullptr;
    }
    if (!slot)
      throw ConfigError(makeIssue(locate(parent->source(), locateTable(root, {})), std::string(keyPath),
                                  "unknown key path; '" + walked + "' does not exist"));
  }
  slot->visit([&](auto& concrete) { oldNode_.push_back(std::move(concrete)); });
  if (parentTable_)
    placeInTable(*parentTable_, key_, *newNode);
  else
    placeInArray(*parentArray_, index_, *newNode);
}

void EditSlot::revert()
{
  if (oldNode_.empty()) return;
  if (parentTable_)
    placeInTable(*parentTable_, key_, *oldNode_.get(0));
  else
    placeInArray(*parentArray_, index_, *oldNode_.get(0));
  oldNode_.clear();
}

ConfigError editError(const ConfigError& error)
{
  std::vector<ConfigIssue> issues = error.issues();
  for (ConfigIssue& issue : issues)
    if (issue.file == editSourceName && issue.line == 1 && issue.column > static_cast<int>(editPrefix.size()))
      issue.column -= static_cast<int>(editPrefix.size());
  return ConfigError(std::move(issues));
}
} // namespace detail
} // namespace nao::streams
