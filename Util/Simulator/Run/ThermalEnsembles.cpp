#include "Util/Simulator/Run/ThermalEnsembles.h"
#include "Util/Simulator/Run/Ensemble.h"
#include "Util/Simulator/Run/ScenarioLog.h"

#include <sstream>
#include <stdexcept>

namespace nao
{
namespace
{
std::string number(double value)
{
  std::ostringstream text;
  text.precision(10);
  text << value;
  return text.str();
}

/// One configuration's ensemble as `Simulator run <scenario> --robots N --worn W --robot-logs` would start it.
EnsembleOptions ensembleOf(const ThermalEnsembleSettings& settings, const ThermalConfiguration& configuration)
{
  EnsembleOptions ensemble;
  ensemble.simulator = settings.simulator;
  ensemble.output = std::filesystem::absolute(settings.output / configuration.name);
  ensemble.robots = settings.robots;
  ensemble.worn = settings.worn;
  ensemble.seed = settings.seed;
  ensemble.runArguments = {"run",       configuration.scenario,
                           "--minutes", number(settings.minutes),
                           "--config",  std::filesystem::absolute(settings.config).string(),
                           "--robot",   "Default",
                           "--quiet",   "--no-plots"};
  if (!settings.variant.empty())
    ensemble.runArguments.insert(ensemble.runArguments.end(), {"--variant", settings.variant});
  for (const std::string& provider : configuration.providers)
    ensemble.runArguments.insert(ensemble.runArguments.end(), {"--provider", provider});
  return ensemble;
}
} // namespace

const std::vector<ThermalConfiguration>& thermalConfigurations()
{
  static const std::vector<ThermalConfiguration> configurations = {
      {"stand-unadjusted", "stand", {"JointRequest=off", "EnergySaving=off"}},
      {"stand-adjusted", "stand", {}},
      {"sit", "sit", {}},
      {"stepping", "stepping", {}}};
  return configurations;
}

std::filesystem::path thermalConfig(const std::filesystem::path& config, const std::filesystem::path& output)
{
  return configLogging(config, output / "config", {"stand", "sit", "stepping"},
                       {"FrameInfo", "JointSensorData", "JointThermalState", "ThermalBudget"});
}

std::filesystem::path runThermalEnsemble(const ThermalEnsembleSettings& settings,
                                         const ThermalConfiguration& configuration,
                                         const std::function<void(double)>& progress)
{
  const EnsembleOptions ensemble = ensembleOf(settings, configuration);
  std::filesystem::remove_all(ensemble.output); // no robot of an earlier, larger run is read back
  std::vector<ProcessJob> processes;
  for (int robot = 0; robot < settings.robots; ++robot)
  {
    const std::uint64_t seed = settings.seed + static_cast<std::uint64_t>(robot);
    processes.push_back({robotCommand(ensemble, robot), robotFolder(ensemble.output, seed),
                         configuration.name + ", seed " + std::to_string(seed)});
  }
  runProcesses(processes, {settings.jobs, "thermal runs", settings.stopRequested}, progress);
  if (settings.stopRequested && settings.stopRequested()) throw std::runtime_error("stopped");
  return ensemble.output;
}

void removeRobotLogs(const std::filesystem::path& folder)
{
  for (const auto& robot : std::filesystem::directory_iterator(folder))
    if (robot.is_directory() && robot.path().filename().string().starts_with("robot-"))
      for (const auto& file : std::filesystem::directory_iterator(robot.path()))
        if (file.path().extension() == ".log") std::filesystem::remove(file.path());
}
} // namespace nao
