#include "Util/Simulator/Run/SimulationRun.h"

#include "Framework/RobotDescription.h"
#include "Framework/ScenarioScript.h"
#include "Util/Simulator/Lola/LolaServer.h"
#include "Util/Simulator/Physics/Encoder.h"
#include "Util/Simulator/Physics/SimConfig.h"
#include "Util/Simulator/Physics/SimulatedRobot.h"
#include "Util/Simulator/Run/RobotProcess.h"
#include "Util/Simulator/Run/RunRecorder.h"
#include "Util/Simulator/Run/RunSummary.h"
#include "Util/Simulator/Run/TextTable.h"
#include <limits>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <thread>
#include <unistd.h>

namespace nao
{
namespace
{
constexpr double nominalBatteryVoltage = 21.6; ///< V, NAO6 datasheet (Li-ion 21.6 V / 2.9 Ah)

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

sim::JointValues toJointValues(const JointArray<float>& angles)
{
  sim::JointValues values{};
  for (std::size_t j = 0; j < numOfJoints; ++j)
    values[j] = angles[j];
  return values;
}
} // namespace

double defaultMinutes(const std::filesystem::path& configDirectory, const std::string& robot,
                      const std::string& scenario)
{
  ConfigFiles files{{configDirectory, robot}, configDirectory / "Scenarios" / (scenario + ".toml")};
  const ScenarioScript script = ScenarioScript::load(files.scenarioFile);
  const RobotDescription description = RobotDescription::load(files);
  JointArray<double> velocityLimits{};
  for (std::size_t j = 0; j < numOfJoints; ++j)
    velocityLimits[j] = description.limits(j).velocity;
  const double end = script.scriptedEnd(script.transitionTimes(velocityLimits));
  return std::max(1.0, (end + scriptMarginSeconds) / 60.0);
}

std::string plotTitle(const SimulationResult& result, const std::vector<ProviderChoice>& providerOverrides)
{
  char title[300];
  std::string overrides;
  for (const ProviderChoice& choice : providerOverrides)
    overrides += (overrides.empty() ? " (" : ", ") + choice.representation + " = " + choice.provider;
  char fault[120] = "";
  if (result.fault)
    std::snprintf(fault, sizeof(fault), ", sensor fault %s at %.1f s", result.fault->name.c_str(),
                  result.fault->onset);
  std::snprintf(title, sizeof(title), "%s, %.1f simulated min, robot seed %llu%s%s%s%s%s%s",
                result.scenario.c_str(), result.simulatedSeconds / 60.0,
                static_cast<unsigned long long>(result.seed), result.preset.empty() ? "" : " ",
                result.preset.c_str(), result.variant.empty() ? "" : ", variant ", result.variant.c_str(),
                fault, overrides.empty() ? "" : (overrides + ")").c_str());
  return title;
}

SimulationResult runSimulation(const SimulationOptions& options)
{
  const auto scenarioFile = options.configDirectory / "Scenarios" / (options.scenario + ".toml");
  const ScenarioScript script = ScenarioScript::load(scenarioFile);
  sim::SimConfig config = sim::loadSimConfig(options.configDirectory);
  if (script.batteryCharge >= 0) config.motors.battery.initialCharge = script.batteryCharge;
  std::optional<SensorFaultInjector> fault;
  if (!options.fault.empty())
    fault.emplace(findFault(loadSensorFaults(options.configDirectory), options.fault), options.faultAt,
                  config.physics.frameTime);
  sim::RobotVariation robot = sim::drawRobot(config.robots, sim::encoderStep(config.sensors.position.bits),
                                             options.seed, options.preset);
  sim::VariantEffect variant;
  if (!options.variant.empty()) variant = sim::applyVariant(config.variants, options.variant, config, robot);
  robot.noiseSeed = options.noiseSeed;
  if (!std::isnan(options.room))
  {
    robot.roomTemperature = options.room;
    robot.startRise = 0.0;
  }
  sim::SimulatedRobot simulation(config, robot);
  simulation.resetToPosture(toJointValues(script.pose(script.start).angles));
  // The motors' range, as the URDF gives it: every Position the robot sends is checked against it.
  const RobotDescription description =
      RobotDescription::load(ConfigFiles{{options.configDirectory, "Default"}, {}});
  JointArray<float> lowerLimits, upperLimits;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const kinematics::JointLimits& limits = description.limits(j);
    lowerLimits[j] =
        limits.bounded ? static_cast<float>(limits.lower) : -std::numeric_limits<float>::infinity();
    upperLimits[j] =
        limits.bounded ? static_cast<float>(limits.upper) : std::numeric_limits<float>::infinity();
  }

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
  const bool serving = options.serveSocket.has_value();
  const std::string socketPath =
      serving
          ? options.serveSocket->string()
          : (std::filesystem::temp_directory_path() / ("nao-sim-" + std::to_string(getpid()) + "-" +
                                                       options.scenario + "-" + std::to_string(options.seed)))
                .string();
  constexpr double answerTimeoutSeconds = 5.0; // wall time a lock-step frame waits for the robot's answer
  auto server = std::make_unique<LolaServer>(LolaServerOptions{socketPath, answerTimeoutSeconds, 1.0});
  std::unique_ptr<InProcessRobot> inProcess;
  std::unique_ptr<ChildRobot> child;
  if (serving)
    std::fprintf(stderr, "simulated NAO (%s) waiting for a LoLA client at %s\n", options.scenario.c_str(),
                 socketPath.c_str());
  else if (options.robotBinary)
    child = std::make_unique<ChildRobot>(options, socketPath, result.log);
  else
    inProcess = std::make_unique<InProcessRobot>(options, socketPath, result.log);
  // The robot connects within moments; a robot that fails to start (a wrong provider, a bad binary) is
  // reported as soon as it gives up, not after the timeout.
  const auto connectDeadline = std::chrono::steady_clock::now() +
                               std::chrono::duration<double>(serving ? options.serveWaitSeconds : 30.0);
  const auto stopRequested = [&] { return options.stopRequested && options.stopRequested(); };
  while (!server->waitForClient(0.05))
  {
    if (stopRequested())
    {
      if (child) child->stop();
      server.reset();
      throw std::runtime_error("stopped before the robot connected: nothing was simulated");
    }
    const bool gaveUp = (inProcess && inProcess->done()) || (child && child->exited());
    if (!gaveUp && std::chrono::steady_clock::now() < connectDeadline) continue;
    server.reset();
    if (inProcess)
    {
      inProcess->join();
      inProcess->rethrow();
    }
    if (child && child->exited())
      throw std::runtime_error("the robot binary " + options.robotBinary->string() + " exited with status " +
                               std::to_string(child->exitStatus()) +
                               " before connecting to the simulated LoLA");
    throw std::runtime_error("the robot did not connect to the simulated LoLA at " + socketPath + " within " +
                             std::to_string(static_cast<int>(serving ? options.serveWaitSeconds : 30.0)) +
                             " s");
  }

  const double frameTime = simulation.frameTime();
  const auto frames = static_cast<std::uint64_t>(std::llround(options.minutes * 60.0 / frameTime));
  const auto recordEvery =
      std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::llround(options.recordPeriod / frameTime)));
  // The last 10 s of currents and errors, as a ring: a served run ends when its client leaves.
  const auto tenSecondsFrames = static_cast<std::size_t>(10.0 / frameTime);
  std::vector<std::array<float, 25>> lastCurrents(tenSecondsFrames), lastErrors(tenSecondsFrames);
  const auto framesPerSecond = static_cast<std::uint64_t>(std::llround(1.0 / frameTime));
  std::array<double, 25> currentSum{};
  // The true currents while the posture is held: their sum from settleAfterHold on, and windows of one second and
  // of peakWindow for the peaks.
  std::array<double, 25> heldSum{}, briefSum{}, peakSum{};
  const auto peakFrames = static_cast<std::uint64_t>(std::llround(peakWindow / frameTime));
  std::vector<std::array<double, 25>> briefWindow(framesPerSecond), peakWindowRing(peakFrames);
  std::uint64_t heldFrames = 0, windowFrames = 0;
  std::uint64_t framesRun = 0;
  double lastLegAboveHeating =
      0.0; ///< s, end of the last frame in which a leg joint drew heatingCurrent or more
  std::size_t nextEvent = 0;
  bool torsoHeld = false;
  const auto wallStart = std::chrono::steady_clock::now();
  const LolaAnswerMode mode = options.realTime ? LolaAnswerMode::realTime : LolaAnswerMode::lockStep;

  for (std::uint64_t frame = 0; frame < frames; ++frame)
  {
    if (stopRequested())
    {
      result.stopped = true;
      break;
    }
    // Paused: no packet goes out, so the robot's motion thread waits in LolaBody::waitForSensors() as well.
    const SimulationControl::Frame kind =
        options.control ? options.control->awaitFrame(frame, simulation.time(), stopRequested)
                        : SimulationControl::Frame::run;
    if (kind == SimulationControl::Frame::stop)
    {
      result.stopped = true;
      break;
    }
    // A variant that holds the torso takes it once the posture is held, and keeps it (no pick-up, no put-down).
    if (variant.torsoHeldRaise >= 0 && !torsoHeld && simulation.time() >= result.holdStart - 1e-9)
    {
      simulation.holdTorso(variant.torsoHeldRaise);
      torsoHeld = true;
    }
    while (nextEvent < script.events.size() && script.events[nextEvent].time <= simulation.time() + 1e-9)
    {
      const ScriptEvent& event = script.events[nextEvent++];
      result.events.push_back(event);
      if (event.kind == ScriptEventKind::pickUp)
        simulation.pickUp();
      else if (event.kind == ScriptEventKind::putDown)
        simulation.putDown();
      else if (event.kind == ScriptEventKind::pressButton)
        simulation.pressChestButton(event.duration);
      else if (event.kind == ScriptEventKind::drainBattery)
        simulation.drainBattery(event.duration);
      else
        simulation.push(Eigen::Vector3d(event.force[0], event.force[1], event.force[2]), event.duration);
    }
    LolaSensorFrame lola = toLola(simulation.sensors());
    if (fault)
      fault->apply(simulation.time(), lola); // what the robot receives; the plant's readings stay true
    server->sendSensors(lola);
    // Real time: the robot has the whole frame to answer, as with LoLA, whose next cycle takes what has
    // arrived. Lock-step: wait for the answer, then go on at once.
    // A single step waits for the robot's answer as lock-step does, so that it is one whole robot frame.
    if (options.realTime && kind != SimulationControl::Frame::step)
    {
      if (options.control)
        options.control->pace(frame, frameTime);
      else
        std::this_thread::sleep_until(wallStart + std::chrono::duration<double>((frame + 1) * frameTime));
    }
    const LolaAnswerStatus answer =
        server->receiveAnswer(kind == SimulationControl::Frame::step ? LolaAnswerMode::lockStep : mode);
    if (answer == LolaAnswerStatus::noClient || answer == LolaAnswerStatus::disconnected)
    {
      // Ctrl-C in a terminal reaches the robot binary too: it stops and leaves as the simulator stops.
      result.stopped = stopRequested();
      if (serving && !result.stopped)
      {
        char when[32];
        std::snprintf(when, sizeof when, "%.2f s", simulation.time());
        result.clientLeft = std::string("the LoLA client left (") + describe(answer) + ") at " + when;
      }
      if (serving || result.stopped) break; // the client left: the run is over
    }
    if (answer == LolaAnswerStatus::noClient || answer == LolaAnswerStatus::disconnected)
    {
      if (inProcess && inProcess->done()) inProcess->rethrow();
      throw std::runtime_error(std::string("the robot left the simulation at ") +
                               std::to_string(simulation.time()) + " s: " + describe(answer));
    }
    const LolaActuatorFrame& command = server->command();
    if (command.presentKeys) simulation.setCommand(command.position, command.stiffness);
    if (answer == LolaAnswerStatus::answered)
      for (std::size_t j = 0; j < numOfJoints; ++j)
        result.positionsOutOfRange +=
            !(command.position[j] >= lowerLimits[j] && command.position[j] <= upperLimits[j]);
    simulation.advance(frameTime);

    const sim::SimSensors& sensors = simulation.sensors();
    const sim::GroundTruth& truth = simulation.groundTruth();
    if (simulation.time() > result.holdStart + 1e-9)
    {
      const bool settled = simulation.time() > result.holdStart + settleAfterHold + 1e-9;
      std::array<double, 25>& brief = briefWindow[windowFrames % framesPerSecond];
      std::array<double, 25>& peak = peakWindowRing[heldFrames % peakFrames];
      for (std::size_t j = 0; j < numOfJoints; ++j)
      {
        JointSummary& joint = result.joints[j];
        briefSum[j] += truth.currents[j] - brief[j];
        brief[j] = truth.currents[j];
        if (windowFrames + 1 >= framesPerSecond)
          joint.briefPeakCurrent =
              std::max(joint.briefPeakCurrent, briefSum[j] / static_cast<double>(framesPerSecond));
        if (!settled) continue;
        heldSum[j] += truth.currents[j];
        peakSum[j] += truth.currents[j] - peak[j];
        peak[j] = truth.currents[j];
        if (heldFrames + 1 >= peakFrames)
          joint.heldPeakCurrent =
              std::max(joint.heldPeakCurrent, peakSum[j] / static_cast<double>(peakFrames));
      }
      ++windowFrames;
      heldFrames += settled;
    }
    for (std::size_t j = 0; j < numOfJoints; ++j)
    {
      const double current = std::abs(sensors.currents[j]);
      currentSum[j] += current;
      lastCurrents[frame % tenSecondsFrames][j] = static_cast<float>(current);
      lastErrors[frame % tenSecondsFrames][j] = std::abs(command.position[j] - sensors.positions[j]);
      JointSummary& joint = result.joints[j];
      joint.maxCurrent = std::max(joint.maxCurrent, current);
      joint.energy += nominalBatteryVoltage * truth.currents[j] * frameTime;
      joint.maxTemperature = std::max(joint.maxTemperature, static_cast<double>(sensors.temperatures[j]));
      joint.maxStatus = std::max(joint.maxStatus, sensors.status[j]);
      if (joint.hotAfter < 0 && sensors.status[j] >= 1) joint.hotAfter = simulation.time();
      if (isLegJoint(jointAt(j)) && current >= heatingCurrent) lastLegAboveHeating = simulation.time();
    }
    if (!simulation.isHeld())
    {
      result.minTorsoHeight = std::min(result.minTorsoHeight, truth.torsoHeight);
      result.maxTorsoHeight = std::max(result.maxTorsoHeight, truth.torsoHeight);
    }
    if (frame % recordEvery == 0)
    {
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
      result.samples.push_back(sample);
    }
    if (options.progress && frame % framesPerSecond == 0)
      options.progress(static_cast<double>(frame) / static_cast<double>(frames));
    ++framesRun;
  }
  result.frames = framesRun;
  result.simulatedSeconds = simulation.time();
  // Still above at the very end: never settled below.
  result.legsBelowHeatingAfter =
      lastLegAboveHeating < simulation.time() - 0.5 * frameTime ? lastLegAboveHeating : -1;
  result.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
  // The answers to the last frames may still be on their way (real time; in lock-step only after a frame whose
  // answer missed its deadline): every answer the robot sent is counted. Waits only while frames lack an answer:
  // up to the lock-step timeout, for a robot that skipped frames.
  if (!result.stopped) server->drainAnswers(answerTimeoutSeconds);
  result.missingAnswers = server->statistics().missingAnswers;
  result.malformedAnswers = server->statistics().malformedAnswers;
  result.answers = server->statistics().answers;
  result.lateAnswers = server->statistics().lateAnswers;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    result.joints[j].meanCurrent = currentSum[j] / static_cast<double>(std::max<std::uint64_t>(framesRun, 1));
    const std::size_t held = std::min<std::size_t>(framesRun, tenSecondsFrames);
    double finalCurrent = 0, finalError = 0;
    for (std::size_t i = 0; i < held; ++i)
    {
      finalCurrent += lastCurrents[i][j];
      finalError += lastErrors[i][j];
    }
    result.joints[j].finalCurrent = finalCurrent / static_cast<double>(std::max<std::size_t>(held, 1));
    result.joints[j].finalError = finalError / static_cast<double>(std::max<std::size_t>(held, 1));
    result.joints[j].finalTemperature = simulation.sensors().temperatures[j];
    result.joints[j].heldMeanCurrent =
        heldSum[j] / static_cast<double>(std::max<std::uint64_t>(heldFrames, 1));
    result.joints[j].finalWinding = simulation.groundTruth().windingTemperatures[j];
    const sim::Drive& drive = simulation.drive(jointAt(j));
    result.joints[j].countCurrent =
        drive.positionGain * sim::encoderStep(config.motors.board.positionBits) / drive.torquePerAmpere;
  }
  if (options.progress && !result.stopped) options.progress(1.0);

  // The run is over: the robot binary stops on SIGTERM as on Ctrl-C (log closed, status 0), whatever frame LoLA
  // was in (closing the server after a complete frame would end it too, also with status 0).
  if (child) child->stop();
  server.reset(); // the robot's LoLA connection ends: it stops (and closes its log)
  if (inProcess)
  {
    inProcess->join();
    inProcess->rethrow();
    result.robotLola = inProcess->bodyStatistics();
  }
  if (child)
  {
    child->join();
    result.robotLola = child->lolaStatistics();
  }

  if (!options.outputDirectory.empty())
  {
    result.csv = options.outputDirectory / (options.scenario + ".csv");
    writeCsv(result.csv, result.samples);
    result.eventsCsv = options.outputDirectory / "events.csv";
    // The fault among the events once it began (a run may end before its onset).
    const bool faultBegan = result.fault && result.fault->onset <= result.simulatedSeconds + 1e-9;
    const std::optional<FaultEvent> faultEvent = faultBegan ? result.fault : std::nullopt;
    writeEvents(result.eventsCsv, result.events, faultEvent);
    result.summary = options.outputDirectory / "summary.csv";
    writeSummary(result.summary, result);
    if (options.writePlots)
    {
      const auto plotStart = std::chrono::steady_clock::now();
      result.plots =
          plotCsv(result.csv, plotTitle(result, options.providerOverrides), result.events, faultEvent);
      result.plotSeconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - plotStart).count();
    }
  }
  return result;
}

std::string jointTable(const SimulationResult& result)
{
  using streams::labelWithUnit, streams::unitSymbol, streams::Unit;
  const std::string mA(unitSymbol(Unit::milliamperes)), celsius(unitSymbol(Unit::degreesCelsius));
  const std::vector<TextColumn> columns = {{"joint", true},
                                           {labelWithUnit("mean current", mA)},
                                           {labelWithUnit("mean current, last 10 s", mA)},
                                           {labelWithUnit("highest current", mA)},
                                           {labelWithUnit("final temperature", celsius)},
                                           {labelWithUnit("highest temperature", celsius)},
                                           {"highest status"},
                                           {labelWithUnit("first status 1 at", unitSymbol(Unit::seconds))},
                                           {labelWithUnit("motor energy", unitSymbol(Unit::joules))}};
  const auto number = [](const char* format, double value)
  {
    char text[32];
    std::snprintf(text, sizeof(text), format, value);
    return std::string(text);
  };
  std::vector<std::vector<std::string>> rows;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const JointSummary& joint = result.joints[j];
    rows.push_back({std::string(jointNames[j]), number("%.0f", joint.meanCurrent * 1000),
                    number("%.0f", joint.finalCurrent * 1000), number("%.0f", joint.maxCurrent * 1000),
                    number("%.1f", joint.finalTemperature), number("%.1f", joint.maxTemperature),
                    std::to_string(joint.maxStatus),
                    joint.hotAfter < 0 ? "never" : number("%.0f", joint.hotAfter),
                    number("%.0f", joint.energy)});
  }
  std::string text = textTable(columns, rows);
  char line[200];
  if (result.legsBelowHeatingAfter >= 0)
    std::snprintf(line, sizeof(line), "every leg joint below %.0f mA from %.1f s on\n", heatingCurrent * 1000,
                  result.legsBelowHeatingAfter);
  else
    std::snprintf(line, sizeof(line), "some leg joint still at %.0f mA or more at the end\n",
                  heatingCurrent * 1000);
  return text + line;
}

std::string summaryTable(const SimulationResult& result)
{
  std::string text = jointTable(result);
  char line[300];
  // The simulation's speed and the plots' time apart: the plots of a long run can take longer than simulating it.
  std::snprintf(line, sizeof(line), "%.0f s simulated in %.1f s wall time: %.0fx real time",
                result.simulatedSeconds, result.wallSeconds, result.speedFactor());
  text += line;
  if (result.plotSeconds > 0)
  {
    std::snprintf(line, sizeof(line), "; plots written in %.1f s", result.plotSeconds);
    text += line;
  }
  std::snprintf(line, sizeof(line), "\ntorso height %.3f..%.3f m; %llu missing, %llu malformed answers\n",
                result.minTorsoHeight, result.maxTorsoHeight,
                static_cast<unsigned long long>(result.missingAnswers),
                static_cast<unsigned long long>(result.malformedAnswers));
  text += line;
  if (result.fault)
  {
    char end[32] = "the end";
    if (result.fault->end >= 0) std::snprintf(end, sizeof(end), "%.3f s", result.fault->end);
    std::snprintf(line, sizeof(line), "sensor fault %s in the frames the robot received, %.3f s to %s\n",
                  result.fault->name.c_str(), result.fault->onset, end);
    text += line;
  }
  if (!result.clientLeft.empty()) text += "run ended early: " + result.clientLeft + "\n";
  if (result.positionsOutOfRange > 0)
  {
    std::snprintf(
        line, sizeof(line),
        "%llu Positions outside the joints' ranges or not finite (clamped; a non-finite one keeps the "
        "previous target)\n",
        static_cast<unsigned long long>(result.positionsOutOfRange));
    text += line;
  }
  if (result.stopped)
  {
    std::snprintf(line, sizeof(line), "stopped (Ctrl-C or SIGTERM) after %.1f s simulated\n",
                  result.simulatedSeconds);
    text += line;
  }
  return text;
}
} // namespace nao
