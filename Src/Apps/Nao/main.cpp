// The robot binary. On the robot it talks LoLA; here it can also run against the in-process stand-in body.
#include "Framework/ConfigFiles.h"
#include "Framework/Robot.h"
#include "Platform/LoLA/LolaBody.h"
#include "Platform/StandIn/StandInBody.h"
#include "Tools/Files/ConfigDirectory.h"
#include <CLI/CLI.hpp>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <iostream>

namespace
{
/// The running robot, for SIGINT/SIGTERM: stop() only sets an atomic flag (async-signal-safe); the motion thread
/// ends after its frame, then the log is closed and the tables are printed as after any run.
std::atomic<nao::Robot*> signalledRobot{nullptr};
volatile std::sig_atomic_t stopSignal = 0;
std::atomic<bool> stopping{false}; ///< a LoLA that is gone is not waited for once a stop signal came
void onStopSignal(int signal)
{
  stopSignal = signal;
  stopping = true;
  if (nao::Robot* robot = signalledRobot.load()) robot->stop();
}

/// Exit status when LoLA was lost for good (0: the body ended as planned or closed the connection in order,
/// 1: start-up or run-time error).
constexpr int lolaLostStatus = 3;

void printTimingTable(const nao::ModuleTimes& times, std::uint64_t frames)
{
  if (frames == 0)
  {
    std::printf("\nNo frame ran: no timing table.\n");
    return;
  }
  std::printf("\nPer-module timing over the last %u frames (of %llu):\n", times.windowFrames,
              static_cast<unsigned long long>(frames));
  std::printf("  %-40s %12s %12s %12s\n", "module", "last ns", "median ns", "max ns");
  for (std::size_t i = 0; i < times.count; ++i)
  {
    const auto& module = times.modules[i];
    std::printf("  %-40.*s %12u %12u %12u\n", static_cast<int>(module.name.view().size()),
                module.name.view().data(), module.lastNs, module.medianNs, module.maxNs);
  }
}
} // namespace

int main(int argc, char** argv)
{
  CLI::App app{"NAO V6 robot binary: runs the motion thread against a body"};
  // --help shows each option's default: the value it starts with, or where it comes from (settings.toml).
  app.option_defaults()->always_capture_default();
  std::string configDirectory; // empty: found from this executable (Tools/Files/ConfigDirectory.h)
  std::string robot, scenario, logFile, body = "lola", lolaSocket = "/tmp/robocup";
  std::vector<std::string> providers;
  std::uint32_t frames = 1000;
  std::string printGraph;
  bool realTime = false, noDebug = false, printPlan = false;
  int debugPort = -1;
  int motionPriority = 0;
  std::uint32_t logBufferFrames = 0;
  app.add_option("--config", configDirectory, "the Config/ folder")
      ->check(CLI::ExistingDirectory)
      ->default_str("Config/ or share/nao-framework/Config/ in the executable's folder or a folder above it");
  app.add_option("--robot", robot, "robot name: Config/Robots/<robot>/ overlays")
      ->default_str("robot of settings.toml");
  app.add_option("--scenario", scenario, "Config/Scenarios/<scenario>.toml")
      ->default_str("scenario of settings.toml");
  app.add_option("--body", body, "lola (the robot or the simulator) or standin (in-process, deterministic)")
      ->check(CLI::IsMember({"lola", "standin"}));
  app.add_option("--lola-socket", lolaSocket, "LoLA's Unix socket (lola body)");
  app.add_option("--provider", providers,
                 "Representation=Module (or =off), overriding the scenario; repeatable")
      ->default_str("none");
  app.add_option("--frames", frames, "stand-in body: packets before it ends");
  app.add_flag("--realtime", realTime, "stand-in body: one packet every 12 ms of wall-clock time");
  app.add_option("--log", logFile, "write the scenario's [Log] representations to this file")
      ->default_str("no log");
  app.add_flag("--no-debug", noDebug, "do not start the debug channel server");
  app.add_option("--debug-port", debugPort, "debug channel TCP port (0: any free port)")
      ->check(CLI::Range(0, 65535))
      ->default_str("debugPort of settings.toml");
  app.add_option("--motion-priority", motionPriority,
                 "run the motion thread SCHED_FIFO at this priority with memory locked (the robot's bin/run "
                 "passes it); a warning and normal priority where not permitted")
      ->check(CLI::Range(nao::minMotionPriority, nao::maxMotionPriority))
      ->default_str("normal priority");
  app.add_option(
         "--log-buffer-frames", logBufferFrames,
         "motion frames buffered between the motion thread and the log file; a lock-step simulation, far "
         "faster than real time, passes its run's length so that a busy machine drops no frame")
      ->check(CLI::Range(16u, 65536u))
      ->default_str("logBufferFrames of settings.toml");
  app.add_flag("--print-plan", printPlan, "print the resolved module order");
  app.add_option("--print-graph", printGraph,
                 "print the scenario's module graph in this format (dot: Graphviz) and exit without a body")
      ->check(CLI::IsMember({"dot"}))
      ->default_str("run the body");
  CLI11_PARSE(app, argc, argv);

  try
  {
    if (configDirectory.empty()) configDirectory = nao::files::findConfigDirectory().string();
    const nao::Settings settings =
        nao::Settings::load(std::filesystem::path(configDirectory) / "settings.toml");
    nao::RobotOptions options;
    options.config = {configDirectory, robot.empty() ? settings.robot : robot};
    try
    {
      nao::checkRobotExists(options.config);
    }
    catch (const nao::StartupError& error) // say where the name came from; neither has a file position
    {
      throw nao::StartupError(
          (robot.empty() ? (std::filesystem::path(configDirectory) / "settings.toml").string() + ": robot"
                         : std::string("command line --robot")) +
          ": " + error.what());
    }
    options.scenario = scenario.empty() ? settings.scenario : scenario;
    options.logBufferFrames = logBufferFrames > 0 ? logBufferFrames : settings.logBufferFrames;
    if (motionPriority > 0) options.motionPriority = motionPriority;
    if (!logFile.empty()) options.log = logFile;
    if (!noDebug)
    {
      options.debug = settings.debug;
      options.debug->logDirectory = settings.logDirectory;
      if (debugPort >= 0) options.debug->port = static_cast<std::uint16_t>(debugPort);
    }
    for (const std::string& provider : providers)
    {
      const auto equals = provider.find('=');
      if (equals == std::string::npos)
        throw std::runtime_error("command line --provider " + provider + ": expected Representation=Module");
      options.providerOverrides.push_back({provider.substr(0, equals),
                                           provider.substr(equals + 1),
                                           {"command line --provider " + provider, 0, 0}});
    }
    if (!printGraph.empty())
    {
      // Resolving the graph needs neither a body nor module instances: the declarations are enough.
      nao::Scenario graphScenario =
          nao::Scenario::load(options.config.directory / "Scenarios" / (options.scenario + ".toml"));
      graphScenario.override(options.providerOverrides);
      const auto fixed = nao::Controller::fixedProviders();
      const nao::ExecutionPlan plan =
          nao::resolveModuleGraph(graphScenario.motion, fixed, graphScenario.name);
      std::cout << nao::toDot(plan, fixed, graphScenario.name);
      return 0;
    }
    std::unique_ptr<nao::Body> bodyInstance;
    nao::LolaBody* lolaBody = nullptr; // the LoLA body, if that is the body: why it ended
    nao::LolaBodyOptions lolaOptions;
    if (body == "standin")
    {
      nao::StandInBody::Options bodyOptions;
      bodyOptions.frames = frames;
      bodyOptions.realTime = realTime;
      bodyInstance = std::make_unique<nao::StandInBody>(bodyOptions);
    }
    else
    {
      nao::LolaBodyOptions bodyOptions;
      bodyOptions.socketPath = lolaSocket;
      bodyOptions.giveUp = &stopping;
      auto lola = std::make_unique<nao::LolaBody>(bodyOptions);
      if (!lola->connect())
        throw std::runtime_error("LoLA at " + lolaSocket + ": " + std::string(lola->lastError()));
      lolaBody = lola.get();
      lolaOptions = bodyOptions;
      bodyInstance = std::move(lola);
    }
    nao::Body& standIn = *bodyInstance;

    nao::Robot robotProcess(standIn, options);
    std::printf(
        "robot '%s', scenario '%s', body %s%s\n", options.config.robot.c_str(), options.scenario.c_str(),
        standIn.name(),
        robotProcess.debugServer()
            ? (", debug channel on port " + std::to_string(robotProcess.debugServer()->port())).c_str()
            : "");
    std::fflush(stdout); // tools that start the binary (DebugGui --sim) read the debug port from this line
    if (printPlan) std::printf("module order:\n%s", robotProcess.controller().plan().describe().c_str());
    signalledRobot = &robotProcess;
    struct sigaction action
    {
    };
    action.sa_handler = onStopSignal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
    robotProcess.run();
    signalledRobot = nullptr;
    if (stopSignal != 0) std::fprintf(stderr, "nao: stopped by signal %d\n", static_cast<int>(stopSignal));
    printTimingTable(robotProcess.blackboard().get<nao::ModuleTimes>(), robotProcess.motion().frames());
    const nao::LogStatus log = robotProcess.logger().status();
    if (!logFile.empty())
      std::printf("log %s: %llu frames written, %llu dropped%s%s\n", logFile.c_str(),
                  static_cast<unsigned long long>(log.framesWritten),
                  static_cast<unsigned long long>(log.framesDropped),
                  log.lastError.empty() ? "" : ", error: ", log.lastError.c_str());
    // What LoLA delivered and what was answered: the simulator reads this line back to account for every frame.
    if (lolaBody) std::printf("%s\n", nao::describeLolaStatistics(lolaBody->statistics()).c_str());
    // The simulator finished its run, or LoLA shut down: the end of the stream after a complete frame.
    if (lolaBody && lolaBody->closedByServer() && stopSignal == 0)
      std::fprintf(stderr, "nao: the body closed the connection (LoLA at %s ended after a complete frame)\n",
                   lolaSocket.c_str());
    // Ctrl-C in a terminal also stops the simulator that served LoLA: that loss is part of the stop.
    if (lolaBody && lolaBody->lost() && stopSignal == 0)
    {
      std::fprintf(stderr,
                   "nao: LoLA at %s was lost (%.*s) and did not come back within %.1f s of reconnecting; "
                   "exiting with status %d\n",
                   lolaSocket.c_str(), static_cast<int>(lolaBody->lastError().size()),
                   lolaBody->lastError().data(),
                   lolaOptions.reconnectAttempts * lolaOptions.reconnectIntervalSeconds, lolaLostStatus);
      return lolaLostStatus;
    }
    return 0;
  }
  catch (const std::exception& error)
  {
    std::cerr << "nao: " << error.what() << "\n";
    return 1;
  }
}
