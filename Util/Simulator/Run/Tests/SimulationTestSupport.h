#pragma once
// What the simulator's tests of whole runs share: the options of a short run and of an ensemble of this checkout, the
// frames of the robot's log that hold the representations a test looks at, and the frames its logger dropped.
#include "Framework/Client/LogDecoder.h"
#include "Util/Simulator/Run/Ensemble.h"
#include "Util/Simulator/Run/LogFrames.h"
#include "Util/Simulator/Run/SimulationRun.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace nao::test
{
/// A run of `scenario` with this checkout's Config/ for `minutes` with `seed`, no plots, its output in the fresh
/// folder <temp>/`folder` (an old one is removed).
inline SimulationOptions testRunOptions(const std::string& scenario, double minutes, std::uint64_t seed,
                                        const std::string& folder)
{
  return freshRunOptions(NAO_CONFIG_DIR, scenario, minutes, seed,
                         std::filesystem::temp_directory_path() / folder);
}

/// The arguments of a quiet run of `scenario` for `minutes` (as the command line reads them) with this checkout's
/// Config/, without plots and log, with each of `providers` ("JointRequest=off") as a --provider.
inline std::vector<std::string> quietRunArguments(const std::string& scenario, const std::string& minutes,
                                                  const std::vector<std::string>& providers = {})
{
  std::vector<std::string> arguments{"run",          scenario,  "--minutes",  minutes,   "--config",
                                     NAO_CONFIG_DIR, "--quiet", "--no-plots", "--no-log"};
  for (const std::string& provider : providers)
  {
    arguments.push_back("--provider");
    arguments.push_back(provider);
  }
  return arguments;
}

/// An ensemble of `robots` robots from `seed` (the last `worn` of them worn), each `simulator` with `runArguments`
/// (quietRunArguments), its robot folders in `output`.
inline EnsembleOptions testEnsembleOptions(const std::filesystem::path& simulator,
                                           std::vector<std::string> runArguments, int robots, int worn,
                                           std::uint64_t seed, const std::filesystem::path& output)
{
  EnsembleOptions options;
  options.simulator = simulator;
  options.runArguments = std::move(runArguments);
  options.output = output;
  options.robots = robots;
  options.worn = worn;
  options.seed = seed;
  return options;
}

/// `make(const Representations&...)` of every frame of the log at `log` that holds all of `Representations`, in
/// order; frames without one of them are passed over (LogFrames.h).
template<class... Representations, class Make>
auto framesOf(const std::filesystem::path& log, Make make)
{
  return logFramesOf<Representations...>(log, make);
}

/// The frames the robot's logger dropped in the run that wrote `log`. Lock-step runs far faster than real time: on
/// a loaded machine the logger falls behind and drops frames (it never blocks the motion thread), and says how many
/// in the log itself.
inline std::uint64_t droppedLogFrames(const std::filesystem::path& log)
{
  binaryio::LogReader reader(log);
  binaryio::LogFrame frame;
  while (reader.readNextFrame(frame))
  {
  }
  std::uint64_t dropped = 0;
  for (const auto& annotation : reader.annotations())
    if (auto at = annotation.text.find("dropped (logger fell behind): "); at != std::string::npos)
      dropped = std::stoull(annotation.text.substr(at + 30));
  return dropped;
}
} // namespace nao::test
