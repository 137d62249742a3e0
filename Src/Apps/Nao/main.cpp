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

/// What the command line gives, before settings.toml fills in what it leaves out.
struct CommandLine
{
  std::string configDirectory; // empty: found from this executable (Tools/Files/ConfigDirectory.h)
  std::string robot, scenario, logFile, body = "lola", lolaSocket = "/tmp/robocup";
  std::vector<std::string> providers;
  std::uint32_t frames = 1000;
  std::string printGraph;
  bool realTime = false, noDebug = false, printPlan = false;
  int debugPort = -1;
  int motionPriority = 0;
  std::uint32_t logBufferFrames = 0;
};

/// The binary's options, each writing into `line`.
void addOptions(CLI::App& app, CommandLine& line)
{
  // --help shows each option's default: the value it starts with, or where it comes from (settings.toml).
  app.option_defaults()->always_capture_default();
  app.add_option("--config", line.configDirectory, "the Config/ folder")
      ->check(CLI::ExistingDirectory)
      ->default_str("Config/ or share/nao-framework/Config/ in the executable's folder or a folder above it");
  app.add_option("--robot", line.robot, "robot name: Config/Robots/<robot>/ overlays")
      ->default_str("robot of settings.toml");
  app.add_option("--scenario", line.scenario, "Config/Scenarios/<scenario>.toml")
      ->default_str("scenario of settings.toml");
  app.add_option("--body", line.body,
                 "lola (the robot or the simulator) or standin (in-process, deterministic)")
      ->check(CLI::IsMember({"lola", "standin"}));
  app.add_option("--lola-socket", line.lolaSocket, "LoLA's Unix socket (lola body)");
  app.add_option("--provider", line.providers,
                 "Representation=Module (or =off), overriding the scenario; repeatable")
      ->default_str("none");
  app.add_option("--frames", line.frames, "stand-in body: packets before it ends");
  app.add_flag("--realtime", line.realTime, "stand-in body: one packet every 12 ms of wall-clock time");
  app.add_option("--log", line.logFile, "write the scenario's [Log] representations to this file")
      ->default_str("no log");
  app.add_flag("--no-debug", line.noDebug, "do not start the debug channel server");
  app.add_option("--debug-port", line.debugPort, "debug channel TCP port (0: any free port)")
      ->check(CLI::Range(0, 65535))
      ->default_str("debugPort of settings.toml");
  app.add_option("--motion-priority", line.motionPriority,
                 "run the motion thread SCHED_FIFO at this priority with memory locked (the robot's bin/run "
                 "passes it); a warning and normal priority where not permitted")
      ->check(CLI::Range(nao::minMotionPriority, nao::maxMotionPriority))
      ->default_str("normal priority");
  app.add_option(
         "--log-buffer-frames", line.logBufferFrames,
         "motion frames buffered between the motion thread and the log file; a lock-step simulation, far "
         "faster than real time, passes its run's length so that a busy machine drops no frame")
      ->check(CLI::Range(16u, 65536u))
      ->default_str("logBufferFrames of settings.toml");
  app.add_flag("--print-plan", line.printPlan, "print the resolved module order");
  app.add_option("--print-graph", line.printGraph,
                 "print the scenario's module graph in this format (dot: Graphviz) and exit without a body")
      ->check(CLI::IsMember({"dot"}))
      ->default_str("run the body");
}

/// The robot's options: the command line over settings.toml (whose folder is found first where --config is not
/// given). Throws naming the option or the file a bad value came from.
nao::RobotOptions robotOptions(CommandLine& line)
{
  if (line.configDirectory.empty()) line.configDirectory = nao::files::findConfigDirectory().string();
  const nao::Settings settings =
      nao::Settings::load(std::filesystem::path(line.configDirectory) / "settings.toml");
  nao::RobotOptions options;
  options.config = {line.configDirectory, line.robot.empty() ? settings.robot : line.robot};
  try
  {
    nao::checkRobotExists(options.config);
  }
  catch (const nao::StartupError& error) // say where the name came from; neither has a file position
  {
    throw nao::StartupError(
        (line.robot.empty()
             ? (std::filesystem::path(line.configDirectory) / "settings.toml").string() + ": robot"
             : std::string("command line --robot")) +
        ": " + error.what());
  }
  options.scenario = line.scenario.empty() ? settings.scenario : line.scenario;
  options.logBufferFrames = line.logBufferFrames > 0 ? line.logBufferFrames : settings.logBufferFrames;
  if (line.motionPriority > 0) options.motionPriority = line.motionPriority;
  if (!line.logFile.empty()) options.log = line.logFile;
  if (!line.noDebug)
  {
    options.debug = settings.debug;
    options.debug->logDirectory = settings.logDirectory;
    if (line.debugPort >= 0) options.debug->port = static_cast<std::uint16_t>(line.debugPort);
  }
  for (const std::string& provider : line.providers)
  {
    const auto equals = provider.find('=');
    if (equals == std::string::npos)
      throw std::runtime_error("command line --provider " + provider + ": expected Representation=Module");
    options.providerOverrides.push_back({provider.substr(0, equals),
                                         provider.substr(equals + 1),
                                         {"command line --provider " + provider, 0, 0}});
  }
  return options;
}

/// Prints the scenario's module graph (--print-graph). Resolving the graph needs neither a body nor module
/// instances: the declarations are enough.
void printModuleGraph(const nao::RobotOptions& options)
{
  nao::Scenario graphScenario =
      nao::Scenario::load(options.config.directory / "Scenarios" / (options.scenario + ".toml"));
  graphScenario.override(options.providerOverrides);
  const auto fixed = nao::Controller::fixedProviders();
  const nao::ExecutionPlan plan = nao::resolveModuleGraph(graphScenario.motion, fixed, graphScenario.name);
  std::cout << nao::toDot(plan, fixed, graphScenario.name);
}

/// The body the motion thread runs against, and the LoLA body's own view of it where that is the body.
struct OpenedBody
{
  std::unique_ptr<nao::Body> body;
  nao::LolaBody* lola = nullptr; // the LoLA body, if that is the body: why it ended
  nao::LolaBodyOptions lolaOptions;
};

/// The stand-in body, or the LoLA body connected to its socket (throws where it cannot connect).
OpenedBody openBody(const CommandLine& line)
{
  OpenedBody opened;
  if (line.body == "standin")
  {
    nao::StandInBody::Options bodyOptions;
    bodyOptions.frames = line.frames;
    bodyOptions.realTime = line.realTime;
    opened.body = std::make_unique<nao::StandInBody>(bodyOptions);
  }
  else
  {
    nao::LolaBodyOptions bodyOptions;
    bodyOptions.socketPath = line.lolaSocket;
    bodyOptions.giveUp = &stopping;
    auto lola = std::make_unique<nao::LolaBody>(bodyOptions);
    if (!lola->connect())
      throw std::runtime_error("LoLA at " + line.lolaSocket + ": " + std::string(lola->lastError()));
    opened.lola = lola.get();
    opened.lolaOptions = bodyOptions;
    opened.body = std::move(lola);
  }
  return opened;
}

/// SIGINT and SIGTERM stop the robot (onStopSignal).
void installStopHandlers()
{
  struct sigaction action
  {
  };
  action.sa_handler = onStopSignal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

/// After the run: the stop signal, the timing table, the log's counts and how LoLA ended; the exit status
/// (lolaLostStatus where LoLA was lost for good without a stop signal).
int reportEnd(nao::Robot& robotProcess, const CommandLine& line, const OpenedBody& opened)
{
  if (stopSignal != 0) std::fprintf(stderr, "nao: stopped by signal %d\n", static_cast<int>(stopSignal));
  printTimingTable(robotProcess.blackboard().get<nao::ModuleTimes>(), robotProcess.motion().frames());
  const nao::LogStatus log = robotProcess.logger().status();
  if (!line.logFile.empty())
    std::printf("log %s: %llu frames written, %llu dropped%s%s\n", line.logFile.c_str(),
                static_cast<unsigned long long>(log.framesWritten),
                static_cast<unsigned long long>(log.framesDropped),
                log.lastError.empty() ? "" : ", error: ", log.lastError.c_str());
  const nao::LolaBody* lolaBody = opened.lola;
  // What LoLA delivered and what was answered: the simulator reads this line back to account for every frame.
  if (lolaBody) std::printf("%s\n", nao::describeLolaStatistics(lolaBody->statistics()).c_str());
  // The simulator finished its run, or LoLA shut down: the end of the stream after a complete frame.
  if (lolaBody && lolaBody->closedByServer() && stopSignal == 0)
    std::fprintf(stderr, "nao: the body closed the connection (LoLA at %s ended after a complete frame)\n",
                 line.lolaSocket.c_str());
  // Ctrl-C in a terminal also stops the simulator that served LoLA: that loss is part of the stop.
  if (lolaBody && lolaBody->lost() && stopSignal == 0)
  {
    std::fprintf(
        stderr,
        "nao: LoLA at %s was lost (%.*s) and did not come back within %.1f s of reconnecting; "
        "exiting with status %d\n",
        line.lolaSocket.c_str(), static_cast<int>(lolaBody->lastError().size()), lolaBody->lastError().data(),
        opened.lolaOptions.reconnectAttempts * opened.lolaOptions.reconnectIntervalSeconds, lolaLostStatus);
    return lolaLostStatus;
  }
  return 0;
}

/// Runs the robot on the opened body until it ends or a stop signal comes; the exit status (reportEnd).
int runRobot(const nao::RobotOptions& options, const CommandLine& line, const OpenedBody& opened)
{
  nao::Body& standIn = *opened.body;
  nao::Robot robotProcess(standIn, options);
  std::printf("robot '%s', scenario '%s', body %s%s\n", options.config.robot.c_str(),
              options.scenario.c_str(), standIn.name(),
              robotProcess.debugServer()
                  ? (", debug channel on port " + std::to_string(robotProcess.debugServer()->port())).c_str()
                  : "");
  std::fflush(stdout); // tools that start the binary (DebugGui --sim) read the debug port from this line
  if (line.printPlan) std::printf("module order:\n%s", robotProcess.controller().plan().describe().c_str());
  signalledRobot = &robotProcess;
  installStopHandlers();
  robotProcess.run();
  signalledRobot = nullptr;
  return reportEnd(robotProcess, line, opened);
}
} // namespace

int main(int argc, char** argv)
{
  CLI::App app{"NAO V6 robot binary: runs the motion thread against a body"};
  CommandLine line;
  addOptions(app, line);
  CLI11_PARSE(app, argc, argv);

  try
  {
    const nao::RobotOptions options = robotOptions(line);
    if (!line.printGraph.empty())
    {
      printModuleGraph(options);
      return 0;
    }
    const OpenedBody opened = openBody(line);
    return runRobot(options, line, opened);
  }
  catch (const std::exception& error)
  {
    std::cerr << "nao: " << error.what() << "\n";
    return 1;
  }
}
