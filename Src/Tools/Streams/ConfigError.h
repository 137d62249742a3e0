#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace nao::streams
{
/// One problem in a configuration: where (file, 1-based line and column; 0 when unknown), which key
/// ("walk.maxSpeed", "thresholds.LKneePitch", "poses[2].time") and what ("expected number, got string").
struct ConfigIssue
{
  std::string file{};
  int line = 0;
  int column = 0;
  std::string keyPath{};
  std::string message{};

  /// "file:line:column: key 'path': message", leaving out what is unknown.
  std::string toString() const;
};

/// Thrown for every configuration problem. The public fields describe the first issue; issues() holds all
/// issues found in one load (what() lists them all).
class ConfigError : public std::runtime_error
{
public:
  explicit ConfigError(ConfigIssue issue);
  /// issues must not be empty.
  explicit ConfigError(std::vector<ConfigIssue> issues);

  const std::vector<ConfigIssue>& issues() const { return issues_; }

  std::string file;
  int line = 0;
  int column = 0;
  std::string keyPath;
  std::string message;

private:
  std::vector<ConfigIssue> issues_;
};
} // namespace nao::streams
