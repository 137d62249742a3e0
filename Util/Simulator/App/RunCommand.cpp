#include "Util/Simulator/App/RunCommand.h"
#include "Framework/ConfigFiles.h"
#include "Util/Simulator/App/CommandLine.h"
#include "Util/Simulator/App/Commands.h"
#include "Util/Simulator/Run/Ensemble.h"
#include "Util/Simulator/Run/RunRecorder.h"
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <optional>
#include <unistd.h>

namespace nao::simcli
{
namespace
{
/// After a failed run: a folder the run made and left empty is removed (the error is on the terminal, and an empty
/// folder only says that something ran); a folder with anything in it (the robot's log of the time it ran, an
/// ensemble's run.out) gets error.txt with the error and the command, so that nobody takes what is there for a
/// finished run and `report` names the failure.
void markFailedOutput(const std::filesystem::path& folder, bool existedBefore, const std::string& error,
                      int argc, char** argv)
{
  std::error_code ignored;
  if (!std::filesystem::is_directory(folder, ignored)) return;
  if (std::filesystem::is_empty(folder, ignored))
  {
    if (!existedBefore) std::filesystem::remove(folder, ignored);
    return;
  }
  std::ofstream out(folder / "error.txt");
  const std::size_t lineEnd = error.find('\n');
  out << error.substr(0, lineEnd) << "\nthe run failed; its command:";
  for (int k = 0; k < argc; ++k)
    out << " " << quoted(argv[k]);
  out << "\n";
  if (lineEnd != std::string::npos) out << "the whole error:\n" << error << "\n";
}

/// Moves an earlier run's folder aside, to <folder>-<its time>[-n], and says so.
void keepEarlierRun(const std::filesystem::path& folder)
{
  const auto written = std::chrono::file_clock::to_sys(std::filesystem::last_write_time(folder));
  const std::time_t time = std::chrono::system_clock::to_time_t(written);
  std::tm utc{};
  gmtime_r(&time, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &utc);
  std::filesystem::path kept = folder;
  kept += std::string("-") + stamp;
  for (int n = 2; std::filesystem::exists(kept); ++n)
  {
    kept = folder;
    kept += std::string("-") + stamp + "-" + std::to_string(n);
  }
  std::filesystem::rename(folder, kept);
  std::cerr << "Simulator: the earlier run in " << folder.string() << " is kept in " << kept.string() << "\n";
}
} // namespace

void RunCommand::applyServeDefaults()
{
  options.serveSocket = serveSocket;
  options.realTime = !lockStep;
  if (!minutesGiven) options.minutes = 60;
  if (output.empty()) output = "Build/Simulation/serve-" + options.scenario;
  noLog = true; // the client writes its own logs
  quiet = true;
}

int RunCommand::checkCommandLine() const
{
  if (const std::string missing = missingScenario(configDirectory, options.scenario); !missing.empty())
  {
    std::cerr << "Simulator: " << missing << "\n";
    return 2;
  }
  try
  {
    checkRobotExists({configDirectory, options.robot});
  }
  catch (const std::exception& error) // at once, not after the robot failed to start
  {
    std::cerr << "Simulator: command line --robot: " << error.what() << "\n";
    return 2;
  }
  if (const std::string unknown = unknownVariant(configDirectory, options.variant); !unknown.empty())
  {
    std::cerr << "Simulator: command line --variant: " << unknown << "\n";
    return 2;
  }
  if (!options.fault.empty()) try
    {
      findFault(loadSensorFaults(configDirectory), options.fault);
    }
    catch (const std::exception& error)
    {
      std::cerr << "Simulator: command line --fault: " << error.what() << "\n";
      return 2;
    }
  return 0;
}

bool RunCommand::readReplay()
{
  if (replay.empty()) return true;
  try
  {
    options.replay.clear();
    readEvents(replay, nullptr, &options.replay);
  }
  catch (const std::exception& error)
  {
    std::cerr << "Simulator: command line --replay: " << error.what() << "\n";
    return false;
  }
  return true;
}

bool RunCommand::prepareOutput()
{
  if (!serve && !minutesGiven)
    options.minutes = defaultMinutes(configDirectory, options.robot, options.scenario);
  options.outputDirectory = output.empty() ? std::filesystem::path("Build/Simulation") / options.scenario
                                           : std::filesystem::path(output);
  // The default folder is reused by every run of the scenario: an earlier run in it is kept under its time
  // instead of being overwritten (an explicit --output is the user's choice, e.g. for an ensemble's robots).
  if (output.empty() && !printJobs && std::filesystem::exists(options.outputDirectory) &&
      !std::filesystem::is_empty(options.outputDirectory))
  {
    keepEarlierRun(options.outputDirectory);
  }
  return std::filesystem::exists(options.outputDirectory);
}

bool RunCommand::addProviderOverrides()
{
  for (const std::string& provider : providers)
  {
    const auto equals = provider.find('=');
    if (equals == std::string::npos)
    {
      std::cerr << "Simulator: command line --provider " << provider << ": expected Representation=Module\n";
      return false;
    }
    options.providerOverrides.push_back({provider.substr(0, equals),
                                         provider.substr(equals + 1),
                                         {"command line --provider " + provider, 0, 0}});
  }
  return true;
}

int RunCommand::execute(int argc, char** argv)
{
  if (serve) applyServeDefaults();
  options.configDirectory = configDirectory;
  if (const int status = checkCommandLine(); status != 0) return status;
  if (!readReplay()) return 2;
  const bool outputExisted = prepareOutput();
  installStopHandlers();
  options.stopRequested = [] { return stopRequested(); };
  options.writeLog = !noLog;
  options.writePlots = !noPlots;
  if (!robotBinary.empty()) options.robotBinary = robotBinary;
  if (!addProviderOverrides()) return 2;

  if (robots > 1 || worn > 0 || printJobs) return executeEnsemble(commandLine(argc, argv));
  if (!markdown.empty())
  {
    std::cerr << "Simulator: --markdown writes an ensemble's table: give --robots (2 or more)\n";
    return 2;
  }
  return executeOne(argc, argv, outputExisted);
}

int RunCommand::executeOne(int argc, char** argv, bool outputExisted)
{
  if (progressFd >= 0)
    options.progress = [fd = progressFd](double fraction) { dprintf(fd, "%.4f\n", fraction); };
  else if (!quiet && isatty(fileno(stderr)))
    options.progress = [&](double fraction) { drawProgress(options.scenario, fraction); };
  std::mutex replyMutex;
  const auto reply = [&replyMutex](const std::string& line)
  {
    std::lock_guard lock(replyMutex);
    std::cout << "control: " << line << std::endl; // at once: a GUI waits for it
  };
  std::optional<SimulationControl> simulationControl;
  std::optional<ControlInput> controlInput;
  if (control)
  {
    simulationControl.emplace(reply, options.realTime);
    simulationControl->setTruthOutput(
        [&replyMutex](const std::string& line)
        {
          std::lock_guard lock(replyMutex);
          std::cout << "truth: " << line << std::endl;
        });
    options.control = &*simulationControl;
    controlInput.emplace(STDIN_FILENO, *simulationControl, reply);
  }
  std::error_code ignored; // an earlier failed run's error.txt in an --output given again: not this run's
  std::filesystem::remove(options.outputDirectory / "error.txt", ignored);
  SimulationResult result;
  try
  {
    result = runSimulation(options);
  }
  catch (const std::exception& error)
  {
    controlInput.reset();
    markFailedOutput(options.outputDirectory, outputExisted, error.what(), argc, argv);
    throw;
  }
  controlInput.reset();
  if (result.stopped && options.progress) std::fprintf(stderr, "\n"); // after the progress bar
  std::cout << summaryTable(result);
  std::cout << "output in " << options.outputDirectory.string() << ":";
  if (!result.log.empty()) std::cout << " " << result.log.filename().string();
  std::cout << " " << result.csv.filename().string() << " " << result.summary.filename().string();
  for (const auto& plot : result.plots)
    std::cout << " " << plot.filename().string();
  std::cout << "\n";
  return endAfterStop(0);
}

int RunCommand::executeEnsemble(const std::string& command)
{
  if (worn > robots)
  {
    std::cerr << "Simulator: --worn " << worn << " is more than --robots " << robots << "\n";
    return 2;
  }
  EnsembleOptions ensemble = ensembleOptions();
  if (printJobs)
  {
    for (int robot = 0; robot < robots; ++robot)
    {
      std::string line;
      for (const std::string& argument : robotCommand(ensemble, robot))
        line += (line.empty() ? "" : " ") + quoted(argument);
      std::cout << line << "\n";
    }
    return 0;
  }
  std::filesystem::create_directories(ensemble.output);
  const bool bar = !quiet && isatty(fileno(stderr));
  const std::string what = options.scenario + ", " + std::to_string(robots) + " robots";
  const auto start = std::chrono::steady_clock::now();
  runEnsemble(ensemble,
              [&](double fraction)
              {
                if (bar) drawProgress(what, fraction);
              });
  const auto ran = std::chrono::steady_clock::now();
  if (stopRequested() && bar) std::fprintf(stderr, "\n");
  const int status = report({ensemble.output.string()}, {}, "", "");
  if (!markdown.empty() && !stopRequested())
  {
    std::cout << "table";
    writeMarkdown(
        headedByCommand(command, "```text\n" + ensembleTable(readEnsemble(ensemble.output)) + "```\n"),
        markdown);
  }
  const auto seconds = [](auto from, auto to) { return std::chrono::duration<double>(to - from).count(); };
  std::printf("%d robots in %.1f s wall time, their plots included (each robot's run.out: its simulation "
              "and plot "
              "times apart); the table, ensemble.csv and distribution.png in %.1f s\n",
              robots, seconds(start, ran), seconds(ran, std::chrono::steady_clock::now()));
  return endAfterStop(status);
}

EnsembleOptions RunCommand::ensembleOptions() const
{
  EnsembleOptions ensemble;
  ensemble.simulator = std::filesystem::read_symlink("/proc/self/exe");
  ensemble.output = std::filesystem::absolute(options.outputDirectory);
  ensemble.robots = robots;
  ensemble.seed = options.seed;
  ensemble.preset = options.preset;
  ensemble.worn = worn;
  ensemble.jobs = jobs;
  ensemble.stopRequested = options.stopRequested;
  std::vector<std::string>& arguments = ensemble.runArguments;
  const auto number = [](double value)
  {
    char text[32];
    std::snprintf(text, sizeof(text), "%.10g", value);
    return std::string(text);
  };
  arguments = {"run",       options.scenario,
               "--minutes", number(options.minutes),
               "--config",  std::filesystem::absolute(configDirectory).string(),
               "--robot",   options.robot,
               "--quiet"};
  if (noPlots) arguments.push_back("--no-plots");
  if (!robotLogs) arguments.push_back("--no-log");
  if (!options.variant.empty()) arguments.insert(arguments.end(), {"--variant", options.variant});
  if (!options.fault.empty())
    arguments.insert(arguments.end(), {"--fault", options.fault, "--fault-at", number(options.faultAt)});
  if (!replay.empty())
    arguments.insert(arguments.end(), {"--replay", std::filesystem::absolute(replay).string()});
  if (options.noiseSeed != 0)
    arguments.insert(arguments.end(), {"--noise-seed", std::to_string(options.noiseSeed)});
  if (!std::isnan(options.room)) arguments.insert(arguments.end(), {"--room", std::to_string(options.room)});
  if (options.realTime) arguments.push_back("--realtime");
  if (options.robotBinary)
    arguments.insert(arguments.end(),
                     {"--robot-binary", std::filesystem::absolute(*options.robotBinary).string()});
  for (const std::string& provider : providers)
    arguments.insert(arguments.end(), {"--provider", provider});
  return ensemble;
}
} // namespace nao::simcli
