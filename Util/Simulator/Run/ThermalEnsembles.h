#pragma once
// The ensembles `Simulator thermal` judges JointThermalStateProvider's forecast on, run by the command itself: the
// unadjusted stand (heat adjustment off), the adjusted stand, sitting and stepping, each on the same robots
// (seed .. seed + robots - 1, the last `worn` worn) with their robot logs kept, one process per robot. The robots log
// only what the evaluation reads (FrameInfo, JointSensorData, JointThermalState, ThermalBudget: ~22 MB per simulated
// minute), on a copy of Config/ (thermalConfig). ThermalForecast.h reads them back.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace nao
{
/// A configuration: its name (the folder under the output, the label in the tables) and how a robot runs it.
struct ThermalConfiguration
{
  std::string name;
  std::string scenario;
  std::vector<std::string> providers; ///< `--provider` choices, e.g. "JointRequest=off"
};

/// stand-unadjusted, stand-adjusted, sit, stepping; the first teaches the thresholds of the learned tables.
const std::vector<ThermalConfiguration>& thermalConfigurations();

struct ThermalEnsembleSettings
{
  int robots = 20;
  int worn = 3;                    ///< the last robots of each ensemble are the preset "worn"
  std::uint64_t seed = 100;        ///< robot i: seed + i
  double minutes = 10;             ///< simulated
  std::string variant;             ///< plant variant of Config/Sim/variants.toml (every robot); empty: none
  int jobs = 0;                    ///< processes at a time; 0: one per core
  std::filesystem::path simulator; ///< the Simulator executable that runs one robot
  std::filesystem::path config;    ///< Config/ as thermalConfig wrote it
  std::filesystem::path output;    ///< <configuration>/robot-<seed>/ go here (earlier ones removed)
  std::function<bool()> stopRequested;
};

/// Config/ copied to <output>/config, its stand, sit and stepping logging what the evaluation reads. Returns the copy.
std::filesystem::path thermalConfig(const std::filesystem::path& config, const std::filesystem::path& output);

/// Runs one configuration's ensemble; returns its folder. `progress` gets the fraction done. Throws as runProcesses
/// does, and std::runtime_error("stopped") when stopRequested stopped the runs.
std::filesystem::path runThermalEnsemble(const ThermalEnsembleSettings& settings,
                                         const ThermalConfiguration& configuration,
                                         const std::function<void(double)>& progress);

/// Removes the robot logs (robot-*/*.log) of an ensemble folder once they are evaluated.
void removeRobotLogs(const std::filesystem::path& folder);
} // namespace nao
