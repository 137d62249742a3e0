#include "Tools/Streams/ConfigError.h"

#include <utility>

namespace nao::streams
{
namespace
{
std::string describeAll(const std::vector<ConfigIssue>& issues)
{
  if (issues.empty()) return "configuration error";
  std::string text = issues.front().toString();
  if (issues.size() > 1)
  {
    text +=
        "\n(" + std::to_string(issues.size() - 1) + " more problem" + (issues.size() > 2 ? "s" : "") + ")";
    for (std::size_t i = 1; i < issues.size(); ++i)
      text += "\n" + issues[i].toString();
  }
  return text;
}
} // namespace

std::string ConfigIssue::toString() const
{
  std::string text;
  if (!file.empty()) text += file + ":";
  if (line > 0) text += std::to_string(line) + ":" + std::to_string(column) + ":";
  if (!text.empty()) text += " ";
  if (!keyPath.empty()) text += "key '" + keyPath + "': ";
  return text + message;
}

ConfigError::ConfigError(ConfigIssue issue) : ConfigError(std::vector<ConfigIssue>{std::move(issue)}) {}

ConfigError::ConfigError(std::vector<ConfigIssue> issues)
    : std::runtime_error(describeAll(issues)), issues_(std::move(issues))
{
  if (issues_.empty()) issues_.push_back(ConfigIssue{.message = "configuration error"});
  const ConfigIssue& first = issues_.front();
  file = first.file;
  line = first.line;
  column = first.column;
  keyPath = first.keyPath;
  message = first.message;
}
} // namespace nao::streams
