#pragma once
// Config/settings.toml: which robot this is, the default scenario, the debug channel and where logs go.
// The command line may override any of them.
#include "Framework/DebugServer.h"
#include <filesystem>
#include <string>

namespace nao
{
struct Settings
{
  std::string robot = "Default";    ///< Config/Robots/<robot>/ overlays apply
  std::string scenario = "standin"; ///< Config/Scenarios/<scenario>.toml
  DebugSettings debug;
  std::string logDirectory = "Logs";    ///< relative paths are relative to the working directory
  std::uint32_t logBufferFrames = 1024; ///< motion frames buffered for the logger (1024 = 12 s at 83 Hz)

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& streams::field("robot", robot) & streams::field("scenario", scenario);
    ar& streams::field("debugBind", debug.bind) & streams::field("debugPort", debug.port) &
        streams::field("debugToken", debug.token) & streams::field("logDirectory", logDirectory);
    ar& streams::field("logBufferFrames", logBufferFrames).range(16, 65536);
  }

  /// Loads `file` (throws StartupError naming file:line:column and key on any problem).
  static Settings load(const std::filesystem::path& file);
};
} // namespace nao
