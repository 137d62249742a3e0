#pragma once
// One simulated run of a scenario: MuJoCo physics with the motor model, the LoLA server, and the robot
// talking LoLA to it — the unchanged robot code, either in this process (its own threads, a LolaBody) or the
// robot binary as a child process. Lock-step (the simulator advances as soon as the robot has answered: far
// faster than real time) or real time. The scenario's [Script] gives the start posture and the events (pick
// up, put down, push).
#include "Framework/Scenario.h"
#include <array>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace nao
{
struct SimulationOptions
{
  std::filesystem::path configDirectory;
  std::string robot = "Default";
  std::string scenario;
  double minutes = 1.0;                  ///< simulated minutes
  bool realTime = false;                 ///< pace frames in wall-clock time (GUI); false: lock-step, flat out
  std::filesystem::path outputDirectory; ///< log, CSV and plots go here; empty: nothing is written
  bool writeLog = true;                  ///< the robot's log of the scenario's [Log] representations
  double recordPeriod = 0.12;            ///< s of simulated time between CSV rows
  std::optional<std::filesystem::path> robotBinary; ///< run this robot binary instead of the in-process robot
  std::vector<ProviderChoice> providerOverrides;    ///< e.g. {"JointRequest", "off"} for a comparison run
  std::function<void(double fraction)> progress;    ///< called about once per simulated second
};

struct JointSummary
{
  double meanCurrent = 0;      ///< A, mean |current| over the run
  double finalCurrent = 0;     ///< A, mean |current| over the last 10 s
  double finalTemperature = 0; ///< °C
  double maxTemperature = 0;   ///< °C
  int maxStatus = 0;           ///< highest temperature status seen
  double energy = 0;           ///< J, electrical: integral of battery voltage (21.6 V nominal) x |current|
};

/// A sample of the run, recorded every SimulationOptions::recordPeriod.
struct RunSample
{
  double time = 0;                           ///< s
  std::array<float, 25> currents{};          ///< A
  std::array<float, 25> temperatures{};      ///< °C
  std::array<int, 25> status{};              ///< 0..3
  std::array<float, 25> stiffnessCommands{}; ///< 0..1, as the robot sent them
  std::array<float, 25> angleErrors{};       ///< rad, commanded - measured
  float torsoHeight = 0;                     ///< m above the floor
  float fsrTotal = 0;                        ///< kg
};

struct SimulationResult
{
  std::array<JointSummary, 25> joints;
  std::vector<RunSample> samples;
  double simulatedSeconds = 0, wallSeconds = 0;
  double minTorsoHeight = 1e9, maxTorsoHeight = 0; ///< m, while not held by a pick-up
  std::uint64_t frames = 0, missingAnswers = 0, malformedAnswers = 0;
  std::filesystem::path log, csv;
  std::vector<std::filesystem::path> plots;
  double speedFactor() const { return wallSeconds > 0 ? simulatedSeconds / wallSeconds : 0; }
};

/// Runs the scenario. Throws std::runtime_error (or StartupError) naming what failed.
SimulationResult runSimulation(const SimulationOptions& options);

/// The per-joint table (mean and final current, temperatures, status, energy) as text.
std::string summaryTable(const SimulationResult& result);
} // namespace nao
