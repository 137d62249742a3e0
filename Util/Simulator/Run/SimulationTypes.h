#pragma once
// What a simulated run is given and what it gives back (SimulationRun.h runs it): its options, each joint's summary,
// the samples recorded along the way and the result. Plain values, so that the parts that record, summarise and
// judge a run (RunRecorder, RunSummary, HeatFigures, Ensemble, RobotProcess, ThermalForecast) need not include the
// runner.
#include "Framework/Scenario.h"
#include "Framework/ScenarioScript.h"
#include "Platform/LoLA/LolaBody.h"
#include "Util/Simulator/Run/SensorFaults.h"
#include "Util/Simulator/Run/SimulationControl.h"

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace nao
{
/// An event a user sent into the run (serve --control, ControlEvents.h), as applied.
struct ControlRecord
{
  double time = 0;     ///< s, simulated time of the frame it was applied at
  std::string command; ///< the control line that repeats it ("push 45 0 0 for 0.1 at torso")
};

struct SimulationOptions
{
  std::filesystem::path configDirectory;
  std::string robot = "Default"; ///< Config/Robots/<robot>/ overlays of the robot software
  std::string scenario;
  double minutes = 1.0;        ///< simulated minutes
  std::uint64_t seed = 1;      ///< draws the simulated robot and seeds all its noise
  std::string preset;          ///< robots.toml preset of the simulated robot ("worn"), empty: none
  std::string variant;         ///< Sim/variants.toml plant variant of the simulated robot, empty: none
  std::string fault;           ///< Sim/faults.toml sensor fault in the frames the robot receives, empty: none
  double faultAt = 10.0;       ///< s, the fault's onset
  std::uint64_t noiseSeed = 0; ///< another draw of the robot's noise (0: its seed's own)
  /// °C: every robot in this room and started at it (NaN: each drawn robot's own room and start, robots.toml)
  double room = std::numeric_limits<double>::quiet_NaN();
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
  /// Events to apply again, each at the first frame at or after its time (--replay: events.csv's control rows)
  std::vector<ControlRecord> replay;
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
  // What the motor truly does while the scenario's posture is held, from settleAfterHold after
  // SimulationResult::holdStart on: how a stage is judged against the same robot without it ("do no harm"),
  // whatever the current reading says.
  double heldMeanCurrent = 0;  ///< A, mean of the true motor current
  double heldPeakCurrent = 0;  ///< A, the highest mean of the true motor current over peakWindow
  double briefPeakCurrent = 0; ///< A, the highest mean over one second, from the hold's start on
  double finalWinding = 0;     ///< °C, the winding's true temperature at the end
  /// A, the current one count of the board's own angle sensor drives (position gain × count / torque per ampere):
  /// a joint at rest holds a whole number of them, and which one friction locks it at after a motion, noise decides
  double countCurrent = 0;
};

/// s over which JointSummary::heldPeakCurrent averages: what heats a winding (thermal time constant 12 s,
/// Config/Sim/motors.toml) and what a team sees on a plot is a current held for seconds; one round of a search's
/// probing (250 ms) is neither (briefPeakCurrent shows those).
inline constexpr double peakWindow = 5.0;

/// s after the posture is reached from which a joint's held current counts (JointSummary::heldMeanCurrent): the
/// currents of the motion that brought the robot there decay, and a search finds its offsets (the window of the
/// issue that reported the heat adjustment's harm on an independent plant: 10-60 s).
inline constexpr double settleAfterHold = 10.0;

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
  std::array<float, 4> torsoOrientation{1, 0, 0, 0}; ///< true torso → world quaternion (w, x, y, z)
  bool upperBodyOnGround = false;                    ///< GroundTruth::upperBodyOnGround
  /// GroundTruth's fall impacts: head and arm floor contacts and speeds (m/s), and each joint's torque through its
  /// gear train (N·m, motor torque + gear friction torque)
  bool headOnGround = false, armOnGround = false;
  float headSpeed = 0, armSpeed = 0;
  std::array<float, 25> gearTorques{};
};

struct SimulationResult
{
  std::string scenario;
  std::uint64_t seed = 0;
  std::string preset;
  std::string
      variant; ///< the plant variant, with the parts a combination picked ("random: a+b"); empty: none
  std::array<JointSummary, 25> joints;
  std::vector<RunSample> samples;
  std::vector<ScriptEvent> events;          ///< the scenario's events that happened, in order
  std::optional<FaultEvent> fault;          ///< the sensor fault the run was given (SimulationOptions::fault)
  std::vector<ControlRecord> controlEvents; ///< the events a user sent and the run applied, in order
  /// s from which on every leg joint's reported current stayed below heatingCurrent to the end; −1: never.
  double legsBelowHeatingAfter = -1;
  /// s at which the script's first keyframe is reached (its duration; 0 for a speed-timed one): the posture
  /// is held from here.
  double holdStart = 0;
  double simulatedSeconds = 0, wallSeconds = 0;
  double plotSeconds = 0; ///< wall time the plots took, after the simulation (not in wallSeconds)
  double minTorsoHeight = 1e9, maxTorsoHeight = 0; ///< m, while not held by a pick-up
  std::uint64_t frames = 0, missingAnswers = 0, malformedAnswers = 0;
  std::uint64_t answers = 0;     ///< valid answers the simulator took, late ones included
  std::uint64_t lateAnswers = 0; ///< answers that came after their frame had ended (LolaServerStatistics)
  /// The robot's own count of its LoLA traffic (packets received, frames overtaken, answers sent), after it
  /// stopped: the in-process robot's LolaBody, or the line the robot binary printed (empty if it printed none).
  std::optional<LolaBodyStatistics> robotLola;
  bool stopped = false; ///< SimulationOptions::stopRequested ended the run early
  std::string
      clientLeft; ///< serve: why the run ended before its length ("the LoLA client left ..."), or empty
  /// Position values the robot sent over LoLA outside the URDF's joint limits (the motors' range) or not finite,
  /// checked here against the robot description the simulated body is built from.
  std::uint64_t positionsOutOfRange = 0;
  std::filesystem::path log, csv, summary, eventsCsv;
  std::vector<std::filesystem::path> plots;
  double speedFactor() const { return wallSeconds > 0 ? simulatedSeconds / wallSeconds : 0; }
};
} // namespace nao
