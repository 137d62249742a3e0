#pragma once
// A scenario file (Config/Scenarios/<name>.toml) says which module provides each representation, or `off`
// (the representation keeps its default value; a stage passes its input through), which representations the
// log records, and, for the ScenarioPlayer and the simulator, a [Script] (ScenarioScript.h):
//
//   [Motion]
//   MotionJointRequest = "StandPoseProvider"
//   EnergySavingRequest = "none"
//
//   [Log]
//   representations = ["JointSensorData", "JointRequest", "ModuleTimes"]
//
// Every scenario's [Motion] overlays Config/Scenarios/default.toml's per key: a key it names replaces the
// default's provider, "none" drops the default's entry (the representation is not in the graph), a new key
// adds one. default.toml is not a scenario of its own.
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace nao
{
/// Where something was written, for error messages: "file:line:column".
/// Where a choice came from: a file position, or (line 0) an origin without one, such as "debug channel" or
/// "command line --provider JointRequest=off", which text() gives alone rather than with an invented 1:1.
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
  std::filesystem::path file;
  std::vector<ProviderChoice> motion; ///< default.toml's order, then the scenario's additions in file order
  std::vector<std::string> logged;    ///< representation names the log records
  SourcePosition loggedWhere;

  /// Loads and checks the file's shape, with default.toml of the same folder under its [Motion] (not the
  /// module graph: that is ModuleGraph's job). Throws StartupError.
  static Scenario load(const std::filesystem::path& file);
  /// Replaces (or adds) the choices for the representations `overrides` name, e.g. from the command line.
  void override(const std::vector<ProviderChoice>& overrides);
};

/// Anything that stops start-up: the message names the files, modules and representations involved.
struct StartupError : std::runtime_error
{
  using std::runtime_error::runtime_error;
};
} // namespace nao
