#include "Util/Simulator/Run/SimulationRun.h"
#include "Framework/Robot.h"
#include "Modules/MotionControl/ScenarioPlayer/ScenarioScript.h"
#include "Platform/LoLA/LolaBody.h"
#include "Util/Simulator/Lola/LolaServer.h"
#include "Util/Simulator/Physics/SimConfig.h"
#include "Util/Simulator/Physics/SimulatedRobot.h"
#include "Util/Simulator/Run/RunRecorder.h"
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <sys/wait.h>
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
  return frame;
}

/// The robot, running on its own threads in this process, exactly as the robot binary would with a LolaBody.
class InProcessRobot
{
public:
  InProcessRobot(const SimulationOptions& options, const std::string& socketPath,
                 const std::filesystem::path& log)
  {
    thread_ = std::thread(
        [=, this]
        {
          try
          {
            LolaBodyOptions bodyOptions;
            bodyOptions.socketPath = socketPath;
            bodyOptions.countWallClockGaps = options.realTime; // lock-step: wall-clock gaps say nothing
            bodyOptions.reconnectAttempts = 2;                 // when the simulator closes, end promptly
            bodyOptions.reconnectIntervalSeconds = 0.01;
            LolaBody body(bodyOptions);
            RobotOptions robotOptions;
            robotOptions.config = {options.configDirectory, options.robot};
            robotOptions.scenario = options.scenario;
            if (!log.empty()) robotOptions.log = log;
            robotOptions.providerOverrides = options.providerOverrides;
            Robot robot(body, robotOptions);
            robot.run();
          }
          catch (...)
          {
            error_ = std::current_exception();
          }
          done_ = true;
        });
  }
  ~InProcessRobot() { join(); }
  void join()
  {
    if (thread_.joinable()) thread_.join();
  }
  bool done() const { return done_; }
  void rethrow() const
  {
    if (error_) std::rethrow_exception(error_);
  }

private:
  std::thread thread_;
  std::exception_ptr error_;
  std::atomic<bool> done_{false};
};

/// The robot binary as a child process.
class ChildRobot
{
public:
  ChildRobot(const SimulationOptions& options, const std::string& socketPath,
             const std::filesystem::path& log)
  {
    std::vector<std::string> arguments = {options.robotBinary->string(),
                                          "--body",
                                          "lola",
                                          "--lola-socket",
                                          socketPath,
                                          "--config",
                                          options.configDirectory.string(),
                                          "--robot",
                                          options.robot,
                                          "--scenario",
                                          options.scenario,
                                          "--no-debug"};
    if (!log.empty()) arguments.insert(arguments.end(), {"--log", log.string()});
    for (const ProviderChoice& choice : options.providerOverrides)
      arguments.insert(arguments.end(), {"--provider", choice.representation + "=" + choice.provider});
    pid_ = fork();
    if (pid_ < 0) throw std::runtime_error("cannot start " + options.robotBinary->string());
    if (pid_ == 0)
    {
      std::vector<char*> argv;
      for (auto& argument : arguments)
        argv.push_back(argument.data());
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      std::perror(argv[0]);
      _exit(127);
    }
  }
  ~ChildRobot() { join(); }
  void join()
  {
    if (pid_ > 0)
    {
      int status = 0;
      waitpid(pid_, &status, 0);
      exitStatus_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      pid_ = -1;
    }
  }
  int exitStatus() const { return exitStatus_; }

private:
  pid_t pid_ = -1;
  int exitStatus_ = 0;
};

sim::JointValues toJointValues(const JointArray<float>& angles)
{
  sim::JointValues values{};
  for (std::size_t j = 0; j < numOfJoints; ++j)
    values[j] = angles[j];
  return values;
}
} // namespace

SimulationResult runSimulation(const SimulationOptions& options)
{
  const auto scenarioFile = options.configDirectory / "Scenarios" / (options.scenario + ".toml");
  const ScenarioScript script = ScenarioScript::load(scenarioFile);
  sim::SimulatedRobot simulation(sim::loadSimConfig(options.configDirectory));
  simulation.resetToPosture(toJointValues(script.pose(script.start).angles));

  SimulationResult result;
  if (!options.outputDirectory.empty())
  {
    std::filesystem::create_directories(options.outputDirectory);
    if (options.writeLog) result.log = options.outputDirectory / (options.scenario + ".log");
  }
  const std::string socketPath = (std::filesystem::temp_directory_path() /
                                  ("nao-sim-" + std::to_string(getpid()) + "-" + options.scenario))
                                     .string();
  auto server = std::make_unique<LolaServer>(LolaServerOptions{socketPath, 5.0, 1.0});
  std::unique_ptr<InProcessRobot> inProcess;
  std::unique_ptr<ChildRobot> child;
  if (options.robotBinary)
    child = std::make_unique<ChildRobot>(options, socketPath, result.log);
  else
    inProcess = std::make_unique<InProcessRobot>(options, socketPath, result.log);
  if (!server->waitForClient(30.0))
  {
    server.reset();
    if (inProcess)
    {
      inProcess->join();
      inProcess->rethrow();
    }
    throw std::runtime_error("the robot did not connect to the simulated LoLA at " + socketPath);
  }

  const double frameTime = simulation.frameTime();
  const auto frames = static_cast<std::uint64_t>(std::llround(options.minutes * 60.0 / frameTime));
  const auto recordEvery =
      std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::llround(options.recordPeriod / frameTime)));
  const auto lastTenSeconds = frames > static_cast<std::uint64_t>(10.0 / frameTime)
                                  ? frames - static_cast<std::uint64_t>(10.0 / frameTime)
                                  : 0;
  const auto framesPerSecond = static_cast<std::uint64_t>(std::llround(1.0 / frameTime));
  std::array<double, 25> currentSum{}, finalCurrentSum{};
  std::size_t nextEvent = 0;
  const auto wallStart = std::chrono::steady_clock::now();
  const LolaAnswerMode mode = options.realTime ? LolaAnswerMode::realTime : LolaAnswerMode::lockStep;

  for (std::uint64_t frame = 0; frame < frames; ++frame)
  {
    while (nextEvent < script.events.size() && script.events[nextEvent].time <= simulation.time() + 1e-9)
    {
      const ScriptEvent& event = script.events[nextEvent++];
      if (event.kind == ScriptEventKind::pickUp)
        simulation.pickUp();
      else if (event.kind == ScriptEventKind::putDown)
        simulation.putDown();
      else
        simulation.push(Eigen::Vector3d(event.force[0], event.force[1], event.force[2]), event.duration);
    }
    server->sendSensors(toLola(simulation.sensors()));
    // Real time: the robot has the whole frame to answer, as with LoLA, whose next cycle takes what has arrived.
    // Lock-step: wait for the answer, then go on at once.
    if (options.realTime)
      std::this_thread::sleep_until(wallStart + std::chrono::duration<double>((frame + 1) * frameTime));
    const LolaAnswerStatus answer = server->receiveAnswer(mode);
    if (answer == LolaAnswerStatus::noClient || answer == LolaAnswerStatus::disconnected)
    {
      if (inProcess && inProcess->done()) inProcess->rethrow();
      throw std::runtime_error(std::string("the robot left the simulation at ") +
                               std::to_string(simulation.time()) + " s: " + describe(answer));
    }
    const LolaActuatorFrame& command = server->command();
    if (command.presentKeys) simulation.setCommand(command.position, command.stiffness);
    simulation.advance(frameTime);

    const sim::SimSensors& sensors = simulation.sensors();
    const sim::GroundTruth& truth = simulation.groundTruth();
    for (std::size_t j = 0; j < numOfJoints; ++j)
    {
      const double current = std::abs(sensors.currents[j]);
      currentSum[j] += current;
      if (frame >= lastTenSeconds) finalCurrentSum[j] += current;
      JointSummary& joint = result.joints[j];
      joint.energy += nominalBatteryVoltage * current * frameTime;
      joint.maxTemperature = std::max(joint.maxTemperature, static_cast<double>(sensors.temperatures[j]));
      joint.maxStatus = std::max(joint.maxStatus, sensors.status[j]);
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
        sample.stiffnessCommands[j] = command.stiffness[j];
        sample.angleErrors[j] = static_cast<float>(command.position[j] - truth.angles[j]);
      }
      sample.torsoHeight = static_cast<float>(truth.torsoHeight);
      sample.fsrTotal = static_cast<float>(truth.fsrTotal);
      result.samples.push_back(sample);
    }
    if (options.progress && frame % framesPerSecond == 0)
      options.progress(static_cast<double>(frame) / static_cast<double>(frames));
  }
  result.frames = frames;
  result.simulatedSeconds = simulation.time();
  result.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
  result.missingAnswers = server->statistics().missingAnswers;
  result.malformedAnswers = server->statistics().malformedAnswers;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    result.joints[j].meanCurrent = currentSum[j] / static_cast<double>(std::max<std::uint64_t>(frames, 1));
    result.joints[j].finalCurrent =
        finalCurrentSum[j] / static_cast<double>(std::max<std::uint64_t>(frames - lastTenSeconds, 1));
    result.joints[j].finalTemperature = simulation.sensors().temperatures[j];
  }
  if (options.progress) options.progress(1.0);

  server.reset(); // the robot's LoLA connection ends: it stops (and closes its log)
  if (inProcess)
  {
    inProcess->join();
    inProcess->rethrow();
  }
  if (child) child->join();

  if (!options.outputDirectory.empty())
  {
    result.csv = options.outputDirectory / (options.scenario + ".csv");
    writeCsv(result.csv, result.samples);
    char title[200];
    std::string overrides;
    for (const ProviderChoice& choice : options.providerOverrides)
      overrides += (overrides.empty() ? " (" : ", ") + choice.representation + " = " + choice.provider;
    std::snprintf(title, sizeof(title), "%s, %.1f simulated min%s", options.scenario.c_str(), options.minutes,
                  overrides.empty() ? "" : (overrides + ")").c_str());
    result.plots = plotCsv(result.csv, title);
  }
  return result;
}

std::string summaryTable(const SimulationResult& result)
{
  std::string text;
  char line[200];
  std::snprintf(line, sizeof(line), "%-16s %10s %12s %10s %10s %7s %10s\n", "joint", "mean mA",
                "last 10 s mA", "final °C", "max °C", "status", "energy J");
  text += line;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const JointSummary& joint = result.joints[j];
    std::snprintf(line, sizeof(line), "%-16s %10.0f %12.0f %10.1f %10.1f %7d %10.0f\n",
                  std::string(jointNames[j]).c_str(), joint.meanCurrent * 1000, joint.finalCurrent * 1000,
                  joint.finalTemperature, joint.maxTemperature, joint.maxStatus, joint.energy);
    text += line;
  }
  std::snprintf(
      line, sizeof(line),
      "%.0f s simulated in %.1f s wall time: %.0fx real time; torso height %.3f..%.3f m; %llu missing, "
      "%llu malformed answers\n",
      result.simulatedSeconds, result.wallSeconds, result.speedFactor(), result.minTorsoHeight,
      result.maxTorsoHeight, static_cast<unsigned long long>(result.missingAnswers),
      static_cast<unsigned long long>(result.malformedAnswers));
  text += line;
  return text;
}
} // namespace nao
