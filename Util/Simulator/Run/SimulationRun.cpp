#include "Util/Simulator/Run/SimulationRun.h"

#include "Framework/RobotDescription.h"
#include "Framework/ScenarioScript.h"
#include "Util/Simulator/Lola/LolaServer.h"
#include "Util/Simulator/Physics/SimConfig.h"
#include "Util/Simulator/Physics/SimulatedRobot.h"
#include "Util/Simulator/Run/ControlEventRunner.h"
#include "Util/Simulator/Run/SimulationSteps.h"
#include "Util/Simulator/Run/TextTable.h"
#include "Util/Simulator/Run/TruthLine.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <thread>

namespace nao
{
namespace
{
sim::JointValues toJointValues(const JointArray<float>& angles)
{
  sim::JointValues values{};
  for (std::size_t j = 0; j < numOfJoints; ++j)
    values[j] = angles[j];
  return values;
}

/// The run's frames, one LoLA exchange and one frame of physics each, until the run's length, a stop or the end of
/// a served client. Holds what a frame reads and changes by reference.
struct FrameLoop
{
  const SimulationOptions& options;
  const ScenarioScript& script;
  sim::VariantEffect& variant;
  std::optional<SensorFaultInjector>& fault;
  const MotorRange& range;
  sim::SimulatedRobot& simulation;
  RobotConnection& robot;
  RunStatistics& statistics;
  SimulationResult& result;
  std::chrono::steady_clock::time_point wallStart;
  ControlEventRunner* controlEvents = nullptr; ///< serve --control's events; null: none
  std::uint64_t framesRun = 0;
  std::size_t nextEvent = 0;
  double scriptStart = 0; ///< s, simulated time the script's times count from (a restart moves it)
  bool torsoHeld = false;
  std::vector<ControlEvent> eventsTaken{}; ///< reused frame by frame

  /// The events a user sent since the last frame, applied and answered.
  void applyControlEvents(std::uint64_t frame);

  /// Runs up to `frames` frames; framesRun counts those completed.
  void run(std::uint64_t frames);
  /// A variant that holds the torso takes it once the posture is held, and keeps it (no pick-up, no put-down).
  void holdTorsoOnceHeld();
  /// The script's events that are due by now, in order, recorded in the result.
  void applyDueEvents();
  /// Sends the robot this frame's sensors (with the fault), paces a real-time run and takes the answer.
  LolaAnswerStatus exchange(std::uint64_t frame, SimulationControl::Frame kind);
  /// For an answer that says the client is gone: true where that ends the run (served, or stopped); otherwise
  /// throws what ended the robot.
  bool clientGone(LolaAnswerStatus answer);
  /// Gives the plant the robot's command and counts the answered Positions outside the motors' range.
  void applyCommand(const LolaActuatorFrame& command, LolaAnswerStatus answer);
};

void FrameLoop::run(std::uint64_t frames)
{
  const double frameTime = simulation.frameTime();
  const auto recordEvery =
      std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::llround(options.recordPeriod / frameTime)));
  const auto stopRequested = [&] { return runStopRequested(options); };
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
    applyControlEvents(frame);
    holdTorsoOnceHeld();
    applyDueEvents();
    const LolaAnswerStatus answer = exchange(frame, kind);
    if (options.control && options.control->truthDue(frame))
      options.control->sendTruth(truthLine(frame, simulation));
    if (answer == LolaAnswerStatus::noClient || answer == LolaAnswerStatus::disconnected)
      if (clientGone(answer)) break; // the client left: the run is over
    const LolaActuatorFrame& command = robot.server->command();
    applyCommand(command, answer);
    simulation.advance(frameTime);
    statistics.addFrame(frame, simulation, command, result);
    if (!simulation.isHeld())
    {
      result.minTorsoHeight = std::min(result.minTorsoHeight, simulation.groundTruth().torsoHeight);
      result.maxTorsoHeight = std::max(result.maxTorsoHeight, simulation.groundTruth().torsoHeight);
    }
    if (frame % recordEvery == 0) result.samples.push_back(recordSample(simulation, command));
    if (options.progress && frame % statistics.framesPerSecond() == 0)
      options.progress(static_cast<double>(frame) / static_cast<double>(frames));
    ++framesRun;
  }
}

void FrameLoop::applyControlEvents(std::uint64_t frame)
{
  if (!controlEvents) return;
  ControlledRun run{simulation, fault, variant, nextEvent, scriptStart, torsoHeld, result};
  const auto answer = [&](const std::string& reply)
  {
    if (options.control)
      options.control->report(reply);
    else if (reply.starts_with("error")) // a replayed event the run cannot apply (another Config/)
      throw std::runtime_error("--replay: " + reply);
  };
  controlEvents->applyReplay(run, frame, answer);
  if (!options.control) return;
  options.control->takeEvents(eventsTaken);
  for (ControlEvent& event : eventsTaken)
    answer(controlEvents->apply(std::move(event), run, frame));
}

void FrameLoop::holdTorsoOnceHeld()
{
  if (variant.torsoHeldRaise >= 0 && !torsoHeld && simulation.time() >= scriptStart + result.holdStart - 1e-9)
  {
    simulation.holdTorso(variant.torsoHeldRaise);
    torsoHeld = true;
  }
}

void FrameLoop::applyDueEvents()
{
  while (nextEvent < script.events.size() &&
         scriptStart + script.events[nextEvent].time <= simulation.time() + 1e-9)
  {
    const ScriptEvent& event = script.events[nextEvent++];
    result.events.push_back(event);
    result.events.back().time += static_cast<float>(scriptStart);
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
}

LolaAnswerStatus FrameLoop::exchange(std::uint64_t frame, SimulationControl::Frame kind)
{
  const double frameTime = simulation.frameTime();
  LolaSensorFrame lola = toLola(simulation.sensors());
  if (fault) fault->apply(simulation.time(), lola); // what the robot receives; the plant's readings stay true
  robot.server->sendSensors(lola);
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
  const LolaAnswerMode mode = options.realTime ? LolaAnswerMode::realTime : LolaAnswerMode::lockStep;
  return robot.server->receiveAnswer(kind == SimulationControl::Frame::step ? LolaAnswerMode::lockStep
                                                                            : mode);
}

bool FrameLoop::clientGone(LolaAnswerStatus answer)
{
  // Ctrl-C in a terminal reaches the robot binary too: it stops and leaves as the simulator stops.
  result.stopped = runStopRequested(options);
  if (robot.serving && !result.stopped)
  {
    char when[32];
    std::snprintf(when, sizeof when, "%.2f s", simulation.time());
    result.clientLeft = std::string("the LoLA client left (") + describe(answer) + ") at " + when;
  }
  if (robot.serving || result.stopped) return true;
  if (robot.inProcess && robot.inProcess->done()) robot.inProcess->rethrow();
  throw std::runtime_error(std::string("the robot left the simulation at ") +
                           std::to_string(simulation.time()) + " s: " + describe(answer));
}

void FrameLoop::applyCommand(const LolaActuatorFrame& command, LolaAnswerStatus answer)
{
  if (command.presentKeys) simulation.setCommand(command.position, command.stiffness);
  if (answer == LolaAnswerStatus::answered)
    for (std::size_t j = 0; j < numOfJoints; ++j)
      result.positionsOutOfRange +=
          !(command.position[j] >= range.lower[j] && command.position[j] <= range.upper[j]);
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

SimulationOptions freshRunOptions(const std::filesystem::path& configDirectory, const std::string& scenario,
                                  double minutes, std::uint64_t seed,
                                  const std::filesystem::path& outputDirectory)
{
  SimulationOptions options;
  options.configDirectory = configDirectory;
  options.scenario = scenario;
  options.minutes = minutes;
  options.seed = seed;
  options.writePlots = false;
  options.outputDirectory = outputDirectory;
  std::filesystem::remove_all(outputDirectory);
  return options;
}

SimulationResult runSimulation(const SimulationOptions& given)
{
  const auto scenarioFile = given.configDirectory / "Scenarios" / (given.scenario + ".toml");
  const ScenarioScript script = ScenarioScript::load(scenarioFile);
  SimulationOptions options = given; // with the script's control events among the replayed ones
  options.replay = withScriptControls(given.replay, script, scenarioFile);
  sim::SimConfig config = sim::loadSimConfig(options.configDirectory);
  if (script.batteryCharge >= 0) config.motors.battery.initialCharge = script.batteryCharge;
  const sim::JointValues start = toJointValues(script.pose(script.start).angles);
  std::optional<ControlEventRunner> controlEvents; // before the variant changes config
  if (options.control || !options.replay.empty())
    controlEvents.emplace(options, config, start, config.motors.battery.initialCharge);
  std::optional<SensorFaultInjector> fault;
  if (!options.fault.empty())
    fault.emplace(findFault(loadSensorFaults(options.configDirectory), options.fault), options.faultAt,
                  config.physics.frameTime);
  sim::VariantEffect variant;
  const sim::RobotVariation drawnRobot = drawSimulatedRobot(options, config, variant);
  sim::SimulatedRobot simulation(config, drawnRobot);
  simulation.resetToPosture(start);
  const MotorRange range = motorRange(options.configDirectory);

  SimulationResult result = startResult(options, script, variant, fault);
  RobotConnection robot = startRobot(options, result.log);
  waitForRobot(robot, options);

  const double frameTime = simulation.frameTime();
  const auto frames = static_cast<std::uint64_t>(std::llround(options.minutes * 60.0 / frameTime));
  RunStatistics statistics(frameTime);
  const auto wallStart = std::chrono::steady_clock::now();
  FrameLoop loop{options,
                 script,
                 variant,
                 fault,
                 range,
                 simulation,
                 robot,
                 statistics,
                 result,
                 wallStart,
                 controlEvents ? &*controlEvents : nullptr};
  loop.run(frames);
  result.frames = loop.framesRun;
  result.simulatedSeconds = simulation.time();
  result.legsBelowHeatingAfter = statistics.legsBelowHeatingAfter(simulation.time());
  result.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
  collectAnswers(robot, result);
  statistics.summariseJoints(loop.framesRun, simulation, config, result);
  if (options.progress && !result.stopped) options.progress(1.0);
  stopRobot(robot, result);
  writeRunFiles(options, result);
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
