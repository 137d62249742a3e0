#include "Util/Simulator/Run/SimulationSteps.h"

#include "Framework/RobotDescription.h"
#include "Util/Simulator/Physics/Encoder.h"
#include "Util/Simulator/Run/RunRecorder.h"
#include "Util/Simulator/Run/RunSummary.h"
#include "Util/Simulator/Run/SimulationRun.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <unistd.h>

namespace nao
{
namespace
{
constexpr double nominalBatteryVoltage = 21.6; ///< V, NAO6 datasheet (Li-ion 21.6 V / 2.9 Ah)

/// s a robot has to connect: the served client's wait, or 30 s for a robot this run starts.
double connectSeconds(const SimulationOptions& options)
{
  return options.serveSocket.has_value() ? options.serveWaitSeconds : 30.0;
}

/// The error for a robot that did not connect: the robot binary's exit, or the timeout. The in-process robot's own
/// error is rethrown first.
[[noreturn]] void throwNotConnected(RobotConnection& robot, const SimulationOptions& options)
{
  if (robot.inProcess)
  {
    robot.inProcess->join();
    robot.inProcess->rethrow();
  }
  if (robot.child && robot.child->exited())
    throw std::runtime_error("the robot binary " + options.robotBinary->string() + " exited with status " +
                             std::to_string(robot.child->exitStatus()) +
                             " before connecting to the simulated LoLA");
  throw std::runtime_error("the robot did not connect to the simulated LoLA at " + robot.socketPath +
                           " within " + std::to_string(static_cast<int>(connectSeconds(options))) + " s");
}
} // namespace

bool runStopRequested(const SimulationOptions& options)
{
  return options.stopRequested && options.stopRequested();
}

sim::RobotVariation drawSimulatedRobot(const SimulationOptions& options, sim::SimConfig& config,
                                       sim::VariantEffect& variant)
{
  sim::RobotVariation robot = sim::drawRobot(config.robots, sim::encoderStep(config.sensors.position.bits),
                                             options.seed, options.preset);
  if (!options.variant.empty()) variant = sim::applyVariant(config.variants, options.variant, config, robot);
  robot.noiseSeed = options.noiseSeed;
  if (!std::isnan(options.room))
  {
    robot.roomTemperature = options.room;
    robot.startRise = 0.0;
  }
  return robot;
}

MotorRange motorRange(const std::filesystem::path& configDirectory)
{
  const RobotDescription description = RobotDescription::load(ConfigFiles{{configDirectory, "Default"}, {}});
  MotorRange range;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const kinematics::JointLimits& limits = description.limits(j);
    range.lower[j] =
        limits.bounded ? static_cast<float>(limits.lower) : -std::numeric_limits<float>::infinity();
    range.upper[j] =
        limits.bounded ? static_cast<float>(limits.upper) : std::numeric_limits<float>::infinity();
  }
  return range;
}

SimulationResult startResult(const SimulationOptions& options, const ScenarioScript& script,
                             const sim::VariantEffect& variant,
                             const std::optional<SensorFaultInjector>& fault)
{
  SimulationResult result;
  result.scenario = options.scenario;
  result.seed = options.seed;
  result.preset = options.preset;
  result.variant = variant.description;
  if (fault) result.fault = fault->event();
  if (!script.keyframes.empty() && script.keyframes.front().speed <= 0)
    result.holdStart = script.keyframes.front().duration;
  if (!options.outputDirectory.empty())
  {
    std::filesystem::create_directories(options.outputDirectory);
    if (options.writeLog) result.log = options.outputDirectory / (options.scenario + ".log");
  }
  return result;
}

RobotConnection startRobot(const SimulationOptions& options, const std::filesystem::path& log)
{
  RobotConnection robot;
  robot.serving = options.serveSocket.has_value();
  robot.socketPath =
      robot.serving
          ? options.serveSocket->string()
          : (std::filesystem::temp_directory_path() / ("nao-sim-" + std::to_string(getpid()) + "-" +
                                                       options.scenario + "-" + std::to_string(options.seed)))
                .string();
  robot.server =
      std::make_unique<LolaServer>(LolaServerOptions{robot.socketPath, runAnswerTimeoutSeconds, 1.0});
  if (robot.serving)
    std::fprintf(stderr, "simulated NAO (%s) waiting for a LoLA client at %s\n", options.scenario.c_str(),
                 robot.socketPath.c_str());
  else if (options.robotBinary)
    robot.child = std::make_unique<ChildRobot>(options, robot.socketPath, log);
  else
    robot.inProcess = std::make_unique<InProcessRobot>(options, robot.socketPath, log);
  return robot;
}

void waitForRobot(RobotConnection& robot, const SimulationOptions& options)
{
  // The robot connects within moments; a robot that fails to start (a wrong provider, a bad binary) is
  // reported as soon as it gives up, not after the timeout.
  const auto connectDeadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(connectSeconds(options));
  while (!robot.server->waitForClient(0.05))
  {
    if (runStopRequested(options))
    {
      if (robot.child) robot.child->stop();
      robot.server.reset();
      throw std::runtime_error("stopped before the robot connected: nothing was simulated");
    }
    const bool gaveUp =
        (robot.inProcess && robot.inProcess->done()) || (robot.child && robot.child->exited());
    if (!gaveUp && std::chrono::steady_clock::now() < connectDeadline) continue;
    robot.server.reset();
    throwNotConnected(robot, options);
  }
}

void collectAnswers(RobotConnection& robot, SimulationResult& result)
{
  // The answers to the last frames may still be on their way (real time; in lock-step only after a frame whose
  // answer missed its deadline): every answer the robot sent is counted. Waits only while frames lack an answer:
  // up to the lock-step timeout, for a robot that skipped frames.
  if (!result.stopped) robot.server->drainAnswers(runAnswerTimeoutSeconds);
  result.missingAnswers = robot.server->statistics().missingAnswers;
  result.malformedAnswers = robot.server->statistics().malformedAnswers;
  result.answers = robot.server->statistics().answers;
  result.lateAnswers = robot.server->statistics().lateAnswers;
}

void stopRobot(RobotConnection& robot, SimulationResult& result)
{
  // The run is over: the robot binary stops on SIGTERM as on Ctrl-C (log closed, status 0), whatever frame LoLA
  // was in (closing the server after a complete frame would end it too, also with status 0).
  if (robot.child) robot.child->stop();
  robot.server.reset(); // the robot's LoLA connection ends: it stops (and closes its log)
  if (robot.inProcess)
  {
    robot.inProcess->join();
    robot.inProcess->rethrow();
    result.robotLola = robot.inProcess->bodyStatistics();
  }
  if (robot.child)
  {
    robot.child->join();
    result.robotLola = robot.child->lolaStatistics();
  }
}

RunStatistics::RunStatistics(double frameTime)
    : frameTime_(frameTime), tenSecondsFrames_(static_cast<std::size_t>(10.0 / frameTime)),
      lastCurrents_(tenSecondsFrames_), lastErrors_(tenSecondsFrames_),
      framesPerSecond_(static_cast<std::uint64_t>(std::llround(1.0 / frameTime))),
      peakFrames_(static_cast<std::uint64_t>(std::llround(peakWindow / frameTime))),
      briefWindow_(framesPerSecond_), peakWindowRing_(peakFrames_)
{
}

void RunStatistics::addHeldCurrents(const sim::SimulatedRobot& simulation, SimulationResult& result)
{
  const sim::GroundTruth& truth = simulation.groundTruth();
  const bool settled = simulation.time() > result.holdStart + settleAfterHold + 1e-9;
  std::array<double, 25>& brief = briefWindow_[windowFrames_ % framesPerSecond_];
  std::array<double, 25>& peak = peakWindowRing_[heldFrames_ % peakFrames_];
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    JointSummary& joint = result.joints[j];
    briefSum_[j] += truth.currents[j] - brief[j];
    brief[j] = truth.currents[j];
    if (windowFrames_ + 1 >= framesPerSecond_)
      joint.briefPeakCurrent =
          std::max(joint.briefPeakCurrent, briefSum_[j] / static_cast<double>(framesPerSecond_));
    if (!settled) continue;
    heldSum_[j] += truth.currents[j];
    peakSum_[j] += truth.currents[j] - peak[j];
    peak[j] = truth.currents[j];
    if (heldFrames_ + 1 >= peakFrames_)
      joint.heldPeakCurrent = std::max(joint.heldPeakCurrent, peakSum_[j] / static_cast<double>(peakFrames_));
  }
  ++windowFrames_;
  heldFrames_ += settled;
}

void RunStatistics::addFrame(std::uint64_t frame, const sim::SimulatedRobot& simulation,
                             const LolaActuatorFrame& command, SimulationResult& result)
{
  const sim::SimSensors& sensors = simulation.sensors();
  const sim::GroundTruth& truth = simulation.groundTruth();
  if (simulation.time() > result.holdStart + 1e-9) addHeldCurrents(simulation, result);
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const double current = std::abs(sensors.currents[j]);
    currentSum_[j] += current;
    lastCurrents_[frame % tenSecondsFrames_][j] = static_cast<float>(current);
    lastErrors_[frame % tenSecondsFrames_][j] = std::abs(command.position[j] - sensors.positions[j]);
    JointSummary& joint = result.joints[j];
    joint.maxCurrent = std::max(joint.maxCurrent, current);
    joint.energy += nominalBatteryVoltage * truth.currents[j] * frameTime_;
    joint.maxTemperature = std::max(joint.maxTemperature, static_cast<double>(sensors.temperatures[j]));
    joint.maxStatus = std::max(joint.maxStatus, sensors.status[j]);
    if (joint.hotAfter < 0 && sensors.status[j] >= 1) joint.hotAfter = simulation.time();
    if (isLegJoint(jointAt(j)) && current >= heatingCurrent) lastLegAboveHeating_ = simulation.time();
  }
}

double RunStatistics::legsBelowHeatingAfter(double endTime) const
{
  // Still above at the very end: never settled below.
  return lastLegAboveHeating_ < endTime - 0.5 * frameTime_ ? lastLegAboveHeating_ : -1;
}

void RunStatistics::summariseJoints(std::uint64_t framesRun, const sim::SimulatedRobot& simulation,
                                    const sim::SimConfig& config, SimulationResult& result) const
{
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    result.joints[j].meanCurrent =
        currentSum_[j] / static_cast<double>(std::max<std::uint64_t>(framesRun, 1));
    const std::size_t held = std::min<std::size_t>(framesRun, tenSecondsFrames_);
    double finalCurrent = 0, finalError = 0;
    for (std::size_t i = 0; i < held; ++i)
    {
      finalCurrent += lastCurrents_[i][j];
      finalError += lastErrors_[i][j];
    }
    result.joints[j].finalCurrent = finalCurrent / static_cast<double>(std::max<std::size_t>(held, 1));
    result.joints[j].finalError = finalError / static_cast<double>(std::max<std::size_t>(held, 1));
    result.joints[j].finalTemperature = simulation.sensors().temperatures[j];
    result.joints[j].heldMeanCurrent =
        heldSum_[j] / static_cast<double>(std::max<std::uint64_t>(heldFrames_, 1));
    result.joints[j].finalWinding = simulation.groundTruth().windingTemperatures[j];
    const sim::Drive& drive = simulation.drive(jointAt(j));
    result.joints[j].countCurrent =
        drive.positionGain * sim::encoderStep(config.motors.board.positionBits) / drive.torquePerAmpere;
  }
}

RunSample recordSample(const sim::SimulatedRobot& simulation, const LolaActuatorFrame& command)
{
  const sim::SimSensors& sensors = simulation.sensors();
  const sim::GroundTruth& truth = simulation.groundTruth();
  RunSample sample;
  sample.time = simulation.time();
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    sample.currents[j] = sensors.currents[j];
    sample.temperatures[j] = sensors.temperatures[j];
    sample.status[j] = sensors.status[j];
    sample.stiffnessCommands[j] = simulation.stiffnesses()[j]; // what the plant applies (NaN: 0, clamped)
    sample.angles[j] = sensors.positions[j];
    sample.angleErrors[j] = command.position[j] - sensors.positions[j];
  }
  sample.torsoHeight = static_cast<float>(truth.torsoHeight);
  sample.fsrTotal = static_cast<float>(truth.fsrTotal);
  sample.footForces = {static_cast<float>(truth.footForces[0]), static_cast<float>(truth.footForces[1])};
  const Eigen::Quaterniond& torso = truth.torsoOrientation;
  sample.torsoOrientation = {static_cast<float>(torso.w()), static_cast<float>(torso.x()),
                             static_cast<float>(torso.y()), static_cast<float>(torso.z())};
  sample.upperBodyOnGround = truth.upperBodyOnGround;
  sample.headOnGround = truth.headOnGround;
  sample.armOnGround = truth.armOnGround;
  sample.headSpeed = static_cast<float>(truth.headSpeed);
  sample.armSpeed = static_cast<float>(truth.armSpeed);
  for (std::size_t j = 0; j < numOfJoints; ++j)
    sample.gearTorques[j] = static_cast<float>(truth.motorTorques[j] + truth.frictionTorques[j]);
  return sample;
}

void writeRunFiles(const SimulationOptions& options, SimulationResult& result)
{
  if (options.outputDirectory.empty()) return;
  result.csv = options.outputDirectory / (options.scenario + ".csv");
  writeCsv(result.csv, result.samples);
  result.eventsCsv = options.outputDirectory / "events.csv";
  // The fault among the events once it began (a run may end before its onset).
  const bool faultBegan = result.fault && result.fault->onset <= result.simulatedSeconds + 1e-9;
  const std::optional<FaultEvent> faultEvent = faultBegan ? result.fault : std::nullopt;
  writeEvents(result.eventsCsv, result.events, faultEvent, result.controlEvents);
  result.summary = options.outputDirectory / "summary.csv";
  writeSummary(result.summary, result);
  if (options.writePlots)
  {
    const auto plotStart = std::chrono::steady_clock::now();
    result.plots = plotCsv(result.csv, plotTitle(result, options.providerOverrides), result.events,
                           faultEvent, result.controlEvents);
    result.plotSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - plotStart).count();
  }
}
LolaSensorFrame toLola(const sim::SimSensors& sensors)
{
  LolaSensorFrame frame;
  frame.stiffness = sensors.stiffnesses;
  frame.position = sensors.positions;
  frame.temperature = sensors.temperatures;
  frame.current = sensors.currents;
  for (std::size_t j = 0; j < numOfJoints; ++j)
    frame.status[j] = sensors.status[j];
  frame.battery = {static_cast<float>(sensors.battery.charge), 0.f,
                   static_cast<float>(sensors.battery.current),
                   static_cast<float>(sensors.battery.temperature)};
  frame.accelerometer = lolaAccelerometerFromSpecificForce(sensors.accelerometer);
  frame.gyroscope = sensors.gyroscope;
  frame.angles = sensors.angles;
  frame.fsr = sensors.fsr;
  frame.sonar = {2.55f, 2.55f}; // m: nothing in front
  frame.touch = sensors.touch;
  return frame;
}
} // namespace nao
