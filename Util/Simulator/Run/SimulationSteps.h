#pragma once
// The steps of one simulated run that runSimulation (SimulationRun.cpp) takes in turn: the simulated robot drawn, the
// motors' range and the result's first fields, the robot side started, connected over LoLA and stopped again, the statistics and samples gathered frame by frame, and the files written
// at the end.
#include "Util/Simulator/Lola/LolaServer.h"
#include "Util/Simulator/Physics/SimConfig.h"
#include "Util/Simulator/Physics/SimulatedRobot.h"
#include "Util/Simulator/Run/RobotProcess.h"
#include "Util/Simulator/Run/SimulationTypes.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace nao
{
/// s of wall time a lock-step frame waits for the robot's answer
inline constexpr double runAnswerTimeoutSeconds = 5.0;

/// Whether SimulationOptions::stopRequested asks the run to end (false where it is not set).
bool runStopRequested(const SimulationOptions& options);

/// The simulated robot of the options' seed and preset, with their noise seed, room and plant variant (which may
/// change `config` as well; what it did goes to `variant`).
sim::RobotVariation drawSimulatedRobot(const SimulationOptions& options, sim::SimConfig& config,
                                       sim::VariantEffect& variant);

/// rad, the motors' range as the URDF gives it (±infinity where a joint is unbounded).
struct MotorRange
{
  JointArray<float> lower, upper;
};

/// The motors' range, as the URDF gives it: every Position the robot sends is checked against it.
MotorRange motorRange(const std::filesystem::path& configDirectory);

/// The result before the first frame: what the run is, when its posture is held, and where its log goes (the
/// output folder made).
SimulationResult startResult(const SimulationOptions& options, const ScenarioScript& script,
                             const sim::VariantEffect& variant,
                             const std::optional<SensorFaultInjector>& fault);

/// The simulated LoLA and what talks to it: the robot in this process, the robot binary, or (serving) whichever
/// client connects. Declared in the order they are made, so that the robot side goes before the server.
struct RobotConnection
{
  bool serving = false;
  std::string socketPath;
  std::unique_ptr<LolaServer> server;
  std::unique_ptr<InProcessRobot> inProcess;
  std::unique_ptr<ChildRobot> child;
};

/// Opens the simulated LoLA and starts the robot side that options ask for (none when serving: then says where it
/// waits); the robot writes its log to `log`.
RobotConnection startRobot(const SimulationOptions& options, const std::filesystem::path& log);

/// Waits until the robot has connected. Throws std::runtime_error (or what the in-process robot threw) when it is
/// stopped, gives up or does not come in time, the LoLA closed first.
void waitForRobot(RobotConnection& robot, const SimulationOptions& options);

/// After the last frame: takes the answers still on their way (unless the run was stopped) and the server's counts.
void collectAnswers(RobotConnection& robot, SimulationResult& result);

/// Ends the robot side (SIGTERM to the robot binary, the LoLA closed) and takes the robot's own LoLA counts.
void stopRobot(RobotConnection& robot, SimulationResult& result);

/// What a run gathers frame by frame for its summary: each joint's currents, errors, temperatures and energy, the
/// true currents while the posture is held, and when a leg joint last drew heatingCurrent. Sized once, before the
/// first frame.
class RunStatistics
{
public:
  /// Windows for frames of `frameTime` s: the last 10 s, one second, peakWindow.
  explicit RunStatistics(double frameTime);

  /// Adds frame `frame` (counted from 0) after its physics: the robot's readings, the truth and `command`.
  void addFrame(std::uint64_t frame, const sim::SimulatedRobot& simulation, const LolaActuatorFrame& command,
                SimulationResult& result);
  /// s from which on every leg joint stayed below heatingCurrent, for a run that ended at `endTime`; −1: never.
  double legsBelowHeatingAfter(double endTime) const;
  /// Each joint's means, final values and the current of one count, after `framesRun` frames.
  void summariseJoints(std::uint64_t framesRun, const sim::SimulatedRobot& simulation,
                       const sim::SimConfig& config, SimulationResult& result) const;
  std::uint64_t framesPerSecond() const { return framesPerSecond_; }

private:
  /// The true currents from the hold's start on: one-second means, and the held sum and peakWindow means once
  /// settled.
  void addHeldCurrents(const sim::SimulatedRobot& simulation, SimulationResult& result);

  double frameTime_;
  // The last 10 s of currents and errors, as a ring: a served run ends when its client leaves.
  std::size_t tenSecondsFrames_;
  std::vector<std::array<float, 25>> lastCurrents_, lastErrors_;
  std::uint64_t framesPerSecond_;
  std::array<double, 25> currentSum_{};
  // The true currents while the posture is held: their sum from settleAfterHold on, and windows of one second and
  // of peakWindow for the peaks.
  std::array<double, 25> heldSum_{}, briefSum_{}, peakSum_{};
  std::uint64_t peakFrames_;
  std::vector<std::array<double, 25>> briefWindow_, peakWindowRing_;
  std::uint64_t heldFrames_ = 0, windowFrames_ = 0;
  double lastLegAboveHeating_ =
      0.0; ///< s, end of the last frame in which a leg joint drew heatingCurrent or more
};

/// The sample of the frame just simulated: the robot's readings, what the plant applies and the truth.
RunSample recordSample(const sim::SimulatedRobot& simulation, const LolaActuatorFrame& command);

/// Writes the CSV, the events, the summary and (if asked) the plots into options.outputDirectory; nothing without
/// one.
void writeRunFiles(const SimulationOptions& options, SimulationResult& result);
/// The LoLA sensor frame of the simulated sensors (sonar: nothing in front).
LolaSensorFrame toLola(const sim::SimSensors& sensors);
} // namespace nao
