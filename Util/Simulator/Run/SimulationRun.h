#pragma once
// One simulated run of a scenario with one simulated robot: MuJoCo physics with the motor model, the LoLA
// server, and the robot talking LoLA to it — the unchanged robot code, either in this process (its own
// threads, a LolaBody) or the robot binary as a child process (RobotProcess.h). Lock-step (the simulator
// advances as soon as the robot has answered: far faster than real time) or real time. The scenario's
// [Script] gives the start posture and the events (pick up, put down, push); the seed and preset draw the
// robot (Config/Sim/robots.toml).
#include "Framework/Scenario.h"
#include "Framework/ScenarioScript.h"
#include "Platform/LoLA/LolaBody.h"
#include "Util/Simulator/Run/SimulationControl.h"

#include <array>
#include <cstdint>
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
  std::string robot = "Default"; ///< Config/Robots/<robot>/ overlays of the robot software
  std::string scenario;
  double minutes = 1.0;                  ///< simulated minutes
  std::uint64_t seed = 1;                ///< draws the simulated robot and seeds all its noise
  std::string preset;                    ///< robots.toml preset of the simulated robot ("worn"), empty: none
  bool realTime = false;                 ///< pace frames in wall-clock time (GUI); false: lock-step, flat out
  std::filesystem::path outputDirectory; ///< log, CSV, summary and plots go here; empty: nothing is written
  bool writeLog = true;                  ///< the robot's log of the scenario's [Log] representations
  bool writePlots = true;                ///< PNG plots of the CSV (gnuplot)
  double recordPeriod = 0.12;            ///< s of simulated time between CSV rows
  std::optional<std::filesystem::path> robotBinary; ///< run this robot binary instead of the in-process robot
  /// Serve: start no robot; wait at this socket for any LoLA client (ours or another team's binary) and run
  /// until it leaves or `minutes` have passed.
  std::optional<std::filesystem::path> serveSocket;
  double serveWaitSeconds = 600;                 ///< s serve waits for its client
  std::vector<ProviderChoice> providerOverrides; ///< e.g. {"JointRequest", "off"} for a comparison run
  std::function<void(double fraction)> progress; ///< called about once per simulated second
  /// Asked before every frame (e.g. whether Ctrl-C came): true ends the run there as if `minutes` had passed:
  /// the robot stops (the robot binary gets SIGTERM) and closes its log, and the CSV, summary and plots cover
  /// the time simulated.
  std::function<bool()> stopRequested;
  /// Pause, single step and speed from another thread (serve --control); null: none. Not owned.
  SimulationControl* control = nullptr;
};

/// What a leg joint's current has to stay below for "all legs below" (B-Human, after Berlin United: currents
/// above 300 mA heat the motors; NaoFacts.md BHDOC).
inline constexpr double heatingCurrent = 0.3; ///< A

struct JointSummary
{
  double meanCurrent = 0;      ///< A, mean of the reported current over the run
  double finalCurrent = 0;     ///< A, mean of the reported current over the last 10 s
  double finalError = 0;       ///< rad, mean |request − reading| over the last 10 s: what the robot sees
  double maxCurrent = 0;       ///< A, highest reported current (one LoLA frame)
  double finalTemperature = 0; ///< °C, reported
  double maxTemperature = 0;   ///< °C, reported
  int maxStatus = 0;           ///< highest temperature status seen
  double hotAfter = -1;        ///< s until the status first was 1 or more; −1: never
  double energy = 0; ///< J, electrical: battery voltage (21.6 V nominal) × true motor current, integrated
};

/// A sample of the run, recorded every SimulationOptions::recordPeriod.
struct RunSample
{
  double time = 0;                           ///< s
  std::array<float, 25> currents{};          ///< A, reported
  std::array<float, 25> temperatures{};      ///< °C, reported
  std::array<int, 25> status{};              ///< 0..3
  std::array<float, 25> stiffnessCommands{}; ///< 0..1, as the robot sent them
  std::array<float, 25> angles{};            ///< rad, LoLA's reading (Position)
  std::array<float, 25> angleErrors{};       ///< rad, tracking error: the robot's request − LoLA's reading
  float torsoHeight = 0;                     ///< m above the floor
  float fsrTotal = 0;                        ///< kg
  std::array<float, 2> footForces{};         ///< N, ground force on the left and right sole
};

struct SimulationResult
{
  std::string scenario;
  std::uint64_t seed = 0;
  std::string preset;
  std::array<JointSummary, 25> joints;
  std::vector<RunSample> samples;
  std::vector<ScriptEvent> events; ///< the scenario's events that happened, in order
  /// s from which on every leg joint's reported current stayed below heatingCurrent to the end; −1: never.
  double legsBelowHeatingAfter = -1;
  /// s at which the script's first keyframe is reached (its duration; 0 for a speed-timed one): the posture
  /// is held from here.
  double holdStart = 0;
  double simulatedSeconds = 0, wallSeconds = 0;
  double minTorsoHeight = 1e9, maxTorsoHeight = 0; ///< m, while not held by a pick-up
  std::uint64_t frames = 0, missingAnswers = 0, malformedAnswers = 0;
  std::uint64_t answers = 0;     ///< valid answers the simulator took, late ones included
  std::uint64_t lateAnswers = 0; ///< answers that came after their frame had ended (LolaServerStatistics)
  /// The robot's own count of its LoLA traffic (packets received, frames overtaken, answers sent), after it
  /// stopped: the in-process robot's LolaBody, or the line the robot binary printed (empty if it printed none).
  std::optional<LolaBodyStatistics> robotLola;
  bool stopped = false; ///< SimulationOptions::stopRequested ended the run early
  /// Position values the robot sent over LoLA outside the URDF's joint limits (the motors' range) or not finite,
  /// checked here against the robot description the simulated body is built from.
  std::uint64_t positionsOutOfRange = 0;
  std::filesystem::path log, csv, summary, eventsCsv;
  std::vector<std::filesystem::path> plots;
  double speedFactor() const { return wallSeconds > 0 ? simulatedSeconds / wallSeconds : 0; }
};

/// s a default run goes on after the script's last scripted moment (ScenarioScript::scriptedEnd): what the last
/// event started settles (after a put-down every leg joint is below 300 mA 7 s later on seed 1) and the summary's
/// last-10-s figures come from the settled robot.
inline constexpr double scriptMarginSeconds = 30.0;

/// Simulated minutes a run of the scenario lasts unless --minutes says otherwise: one, or the script's end plus
/// scriptMarginSeconds if that is later, so that the defaults show the whole script.
double defaultMinutes(const std::filesystem::path& configDirectory, const std::string& robot,
                      const std::string& scenario);

/// Runs the scenario. Throws std::runtime_error (or StartupError) naming what failed.
SimulationResult runSimulation(const SimulationOptions& options);

/// The per-joint table (mean, final and highest current, temperatures, status, energy) as text.
std::string summaryTable(const SimulationResult& result);
} // namespace nao
