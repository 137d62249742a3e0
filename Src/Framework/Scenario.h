#pragma once
// A scenario file (Config/Scenarios/<name>.toml) says, per thread, which module provides each representation,
// or `off` (the representation keeps its default value), and which representations the log records:
//
//   [Motion]
//   JointRequest = "StandPoseProvider"
//   RobotModel = "off"
//
//   [Log]
//   representations = ["JointSensorData", "JointRequest", "ModuleTimes"]
#include <filesystem>
#include <string>
#include <vector>

namespace nao
{
/// Where something was written, for error messages: "file:line:column".
struct SourcePosition
{
  std::string file;
  int line = 0, column = 0;
  std::string text() const;
};

struct ProviderChoice
{
  std::string representation;
  std::string provider; ///< a module name, or "off"
  SourcePosition where;
  bool isOff() const { return provider == "off"; }
};

struct Scenario
{
  std::string name;
  std::vector<ProviderChoice> motion; ///< in file order
  std::vector<std::string> logged;    ///< representation names the log records
  SourcePosition loggedWhere;

  /// Loads and checks the file's shape (not the module graph: that is ModuleGraph's job). Throws
  /// StartupError.
  static Scenario load(const std::filesystem::path& file);
};

/// Anything that stops start-up: the message names the files, modules and representations involved.
struct StartupError : std::runtime_error
{
  using std::runtime_error::runtime_error;
};
} // namespace nao
