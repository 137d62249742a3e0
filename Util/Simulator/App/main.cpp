// Simulator: runs a scenario with simulated NAO V6 robots (MuJoCo, motor boards, current and heat) and the
// robot code talking LoLA to them. One robot: the robot's log, a CSV, a summary, PNG plots and a per-joint
// table. An ensemble (--robots N): one process per robot, each robot's outputs in the folder of its seed, a
// per-robot table (with percentiles from 10 robots on) and a distribution figure. `report` shows either again.
#include "Framework/ConfigFiles.h"
#include "Tools/Files/ConfigDirectory.h"
#include "Tools/Streams/ClosestName.h"
#include "Util/Simulator/Physics/SimConfig.h"
#include "Util/Simulator/Run/Ensemble.h"
#include "Util/Simulator/Run/FallEvaluation.h"
#include "Util/Simulator/Run/FallProtectionEvaluation.h"
#include "Util/Simulator/Run/HarmMatrix.h"
#include "Util/Simulator/Run/RunRecorder.h"
#include "Util/Simulator/Run/SimulationRun.h"
#include "Util/Simulator/Run/ThermalForecast.h"

#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <mutex>
#include <optional>
#include <sstream>
#include <unistd.h>

namespace
{
/// SIGINT or SIGTERM, once received: the run stops at its next frame and writes its outputs for the time simulated;
/// then the simulator ends by the same signal, so that a shell script or job runner that started it stops too.
volatile std::sig_atomic_t stopSignal = 0;
void onStopSignal(int signal)
{
  stopSignal = signal;
}

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

/// After the outputs are written: end by the signal that stopped the run (status 128 + signal in a shell).
int endAfterStop(int status)
{
  if (stopSignal == 0) return status;
  std::fflush(stdout);
  std::fprintf(stderr, "Simulator: stopped by signal %d; the outputs cover the time simulated until then\n",
               static_cast<int>(stopSignal));
  std::fflush(nullptr);
  std::signal(stopSignal, SIG_DFL);
  std::raise(stopSignal);
  return 128 + stopSignal; // not reached
}

void drawProgress(const std::string& what, double fraction)
{
  const int width = 40, filled = static_cast<int>(fraction * width);
  std::fprintf(stderr, "\r%s [%s%s] %3.0f%%", what.c_str(),
               std::string(static_cast<std::size_t>(filled), '#').c_str(),
               std::string(static_cast<std::size_t>(width - filled), '.').c_str(), fraction * 100);
  if (fraction >= 1.0) std::fprintf(stderr, "\n");
}

/// A command line argument as a POSIX shell reads it back.
std::string quoted(const std::string& argument)
{
  if (argument.find_first_of(" \t\n'\"\\$`*?[]{}()<>|&;#~") == std::string::npos && !argument.empty())
    return argument;
  std::string text = "'";
  for (const char c : argument)
    text += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return text + "'";
}

/// Empty if Config/Scenarios/<scenario>.toml exists, else what is wrong, with the closest scenario's name.
std::string missingScenario(const std::filesystem::path& configDirectory, const std::string& scenario)
{
  const std::filesystem::path folder = configDirectory / "Scenarios";
  if (std::filesystem::is_regular_file(folder / (scenario + ".toml"))) return "";
  std::vector<std::string> scenarios = nao::namesInFolder(folder, ".toml");
  std::erase(scenarios, std::string("default")); // what every scenario overlays, not a scenario
  return "no scenario '" + scenario + "' in " + folder.string() +
         nao::streams::didYouMean(scenario, scenarios) + "; scenarios: " + nao::joined(scenarios);
}

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

/// "what (default value)": every option's help names its default, taken from the variable the option fills.
template<class T>
std::string withDefault(const std::string& what, const T& value)
{
  std::ostringstream text;
  text << value;
  return what + " (default " + (text.str().empty() ? std::string("none") : text.str()) + ")";
}

int report(const std::vector<std::string>& folders, const std::vector<std::string>& labels,
           const std::string& figure, const std::string& title)
{
  std::vector<nao::EnsembleReport> reports;
  for (const std::string& folder : folders)
  {
    reports.push_back(nao::readEnsemble(folder));
    if (reports.back().singleRun)
    {
      // One run's folder: its per-joint table and its plots again.
      const nao::SimulationResult& run = reports.back().robots.front().summary;
      std::cout << "== " << folder << ": " << run.scenario << ", one run (seed " << run.seed << ")\n"
                << nao::jointTable(run);
      const std::filesystem::path events = std::filesystem::path(folder) / "events.csv";
      const auto plots = nao::plotCsv(
          std::filesystem::path(folder) / (run.scenario + ".csv"), nao::plotTitle(run),
          std::filesystem::exists(events) ? nao::readEvents(events) : std::vector<nao::ScriptEvent>{});
      std::cout << "plots:";
      for (const auto& plot : plots)
        std::cout << " " << plot.filename().string();
      std::cout << "\n";
      continue;
    }
    std::cout << "== " << folder << ": " << reports.back().scenario << ", " << reports.back().robots.size()
              << " robots\n"
              << nao::ensembleTable(reports.back());
    std::cout << "figure: " << nao::writeEnsembleFiles(reports.back(), folder).string() << "\n";
  }
  if (!figure.empty())
  {
    std::vector<std::string> names = labels;
    names.resize(folders.size());
    for (std::size_t k = 0; k < names.size(); ++k)
      if (names[k].empty()) names[k] = folders[k];
    nao::plotEnsembles(reports, names, figure, title.empty() ? reports.front().scenario : title);
    std::cout << "comparison figure: " << figure << "\n";
  }
  return 0;
}
/// `thermal`: JointThermalStateProvider's forecast of the time to status 1 against the plant's, per ensemble folder
/// (its robots' logs), into <first folder>/thermal.md (the module's README).
int thermal(const std::vector<std::string>& folders, std::vector<std::string> labels,
            const std::string& teacher, const std::vector<double>& horizons)
{
  labels.resize(folders.size());
  std::vector<std::vector<nao::RobotThermalForecast>> configurations;
  // The teacher's thresholds: read once (its own evaluation where it is one of the folders, which teaches itself).
  std::optional<nao::TaughtThresholds> taught;
  std::optional<std::size_t> teacherFolder;
  std::vector<nao::RobotThermalForecast> teacherRobots;
  if (!teacher.empty())
  {
    for (std::size_t k = 0; k < folders.size() && !teacherFolder; ++k)
      if (std::filesystem::equivalent(folders[k], teacher)) teacherFolder = k;
    teacherRobots = nao::evaluateThermalEnsemble(teacher, teacherFolder ? horizons : std::vector<double>{});
    taught = nao::taughtThresholds(teacherRobots);
  }
  for (std::size_t k = 0; k < folders.size(); ++k)
  {
    if (labels[k].empty()) labels[k] = std::filesystem::path(folders[k]).filename().string();
    if (teacherFolder == k)
      configurations.push_back(teacherRobots);
    else
      configurations.push_back(
          nao::evaluateThermalEnsemble(folders[k], horizons, taught ? &*taught : nullptr));
    nao::writeThermalForecasts(std::filesystem::path(folders[k]) / "thermal.csv", configurations.back());
  }
  const std::string tables = nao::thermalForecastTables(labels, configurations, horizons);
  const std::filesystem::path markdown = std::filesystem::path(folders.front()) / "thermal.md";
  std::ofstream(markdown) << tables;
  std::cout << tables << "output in " << folders.front()
            << ": thermal.md (each folder: thermal.csv, every joint's forecasts)\n";
  return 0;
}

int runMatrix(nao::HarmMatrixOptions options, const std::vector<std::string>& variants,
              const std::string& configDirectory, const std::string& output)
{
  const nao::sim::SimConfig config = nao::sim::loadSimConfig(configDirectory);
  if (const std::string missing = missingScenario(configDirectory, options.scenario); !missing.empty())
  {
    std::cerr << "Simulator: " << missing << "\n";
    return 2;
  }
  if (options.worn > options.robots)
  {
    std::cerr << "Simulator: --worn " << options.worn << " is more than --robots " << options.robots << "\n";
    return 2;
  }
  if (variants.empty())
  {
    options.variants.push_back("");
    for (const nao::sim::PlantVariant& variant : config.variants.variants)
      options.variants.push_back(variant.name);
  }
  for (const std::string& name : variants)
  {
    if (name != "home")
    {
      nao::sim::SimConfig copy = config;
      nao::sim::RobotVariation robot;
      try
      {
        nao::sim::applyVariant(copy.variants, name, copy, robot);
      }
      catch (const std::exception& error)
      {
        std::cerr << "Simulator: command line --variants: " << error.what() << "\n";
        return 2;
      }
    }
    options.variants.push_back(name == "home" ? "" : name);
  }
  options.simulator = std::filesystem::read_symlink("/proc/self/exe");
  options.config = std::filesystem::absolute(configDirectory);
  options.margin.room = config.motors.roomTemperature;
  options.output =
      std::filesystem::absolute(output.empty() ? "Build/Simulation/matrix-" + options.scenario : output);
  installStopHandlers();
  options.stopRequested = [] { return stopSignal != 0; };
  const bool bar = isatty(fileno(stderr));
  const std::string what = "matrix " + options.scenario;
  const nao::HarmMatrix matrix = nao::runHarmMatrix(options,
                                                    [&](double fraction)
                                                    {
                                                      if (bar) drawProgress(what, fraction);
                                                    });
  const std::string table = nao::harmMatrixTable(matrix);
  std::filesystem::create_directories(options.output);
  std::ofstream(options.output / "matrix.md") << table;
  std::cout << table << "table: " << (options.output / "matrix.md").string() << "\n";
  return endAfterStop(0);
}
} // namespace

int main(int argc, char** argv)
{
  CLI::App app{"Simulated NAO V6 robots that speak LoLA, with motors that draw current and heat up"};
  app.require_subcommand(1);
  nao::SimulationOptions options;
  // Empty: Config/ found from this executable (Tools/Files/ConfigDirectory.h), never a path of the build.
  std::string configDirectory, output, robotBinary;
  std::vector<std::string> providers;
  bool quiet = false, noLog = false, noPlots = false, printJobs = false, robotLogs = false;
  int robots = 1, worn = 0, jobs = 0, progressFd = -1;
  // CLI11 reads "-1" into an unsigned seed as 18446744073709551615: a seed is refused unless it is digits only.
  const CLI::Validator seedDigits(
      [](std::string& text)
      {
        return !text.empty() && text.find_first_not_of("0123456789") == std::string::npos
                   ? std::string()
                   : "'" + text + "' is not a seed (a whole number from 0)";
      },
      "SEED");
  // At least one second (a run shorter than that has nothing to report), at most a day; NaN is refused.
  const CLI::Validator minutesRange(
      [](std::string& text) -> std::string
      {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        if (end == text.c_str() || *end != '\0' || !std::isfinite(value) || value < 1.0 / 60.0 ||
            value > 1440.0)
          return "expected a number from 1/60 (one second) to 1440, got '" + text + "'";
        return "";
      },
      "1/60..1440");
  auto* run = app.add_subcommand("run", "run a scenario of Config/Scenarios on one robot or an ensemble");
  run->add_option("scenario", options.scenario, "scenario name, e.g. stand")->required();
  run->add_option("--minutes", options.minutes,
                  "simulated minutes, 1/60 (one second) to 1440 (default: 1, or the scenario's last scripted "
                  "event plus 30 s if later)")
      ->check(minutesRange);
  const std::string configHelp = "the Config/ folder (default: Config/ or share/nao-framework/Config/ in the "
                                 "executable's folder or a folder above it)";
  run->add_option("--config", configDirectory, configHelp)->check(CLI::ExistingDirectory);
  run->add_option(
      "--robot", options.robot,
      withDefault("robot name: Config/Robots/<robot>/ overlays of the robot software", options.robot));
  run->add_option(
         "--seed", options.seed,
         withDefault("draws the simulated robot (Config/Sim/robots.toml); robot i of an ensemble uses "
                     "seed + i, in its folder robot-<seed>",
                     options.seed))
      ->check(seedDigits);
  run->add_option("--preset", options.preset,
                  withDefault("robots.toml preset of the simulated robots, e.g. worn", options.preset));
  const std::string variantHelp = withDefault(
      "plant variant of Config/Sim/variants.toml (every robot), e.g. boardGainHalf", options.variant);
  run->add_option("--variant", options.variant, variantHelp);
  run->add_option(
         "--noise-seed", options.noiseSeed,
         "another draw of the robots' sensor and board noise (default 0: the seed's own): the same robot "
         "on another day")
      ->check(seedDigits);
  run->add_option(
         "--room", options.room,
         "°C: every robot in this room, started at it (default: each drawn robot's own room and start, "
         "Config/Sim/robots.toml)")
      ->check(CLI::Range(-10.0, 50.0));
  run->add_option("--robots", robots, withDefault("ensemble: this many robots, one process each", robots))
      ->check(CLI::Range(1, 10000));
  run->add_option("--worn", worn,
                  withDefault("ensemble: the last this many robots use the preset worn", worn))
      ->check(CLI::Range(0, 10000));
  run->add_option("--jobs", jobs, "ensemble: processes at a time (default: one per core)")
      ->check(CLI::Range(0, 1000));
  run->add_flag("--print-jobs", printJobs,
                "ensemble: print one command line per robot (for GNU parallel) instead of running them");
  run->add_flag("--robot-logs", robotLogs, "ensemble: keep every robot's log (large)");
  run->add_option("--output", output,
                  "folder for logs, CSVs, summaries and plots (default Build/Simulation/<scenario>)");
  run->add_option("--robot-binary", robotBinary,
                  "run this robot binary (e.g. Build/Release/Src/Apps/Nao/nao) instead of the robot code in "
                  "this process");
  run->add_option("--provider", providers,
                  "Representation=Module (or =off) overriding the scenario; repeatable (default: the "
                  "scenario's providers)");
  run->add_flag("--realtime", options.realTime, "pace frames in wall-clock time instead of lock-step");
  run->add_flag("--no-log", noLog, "do not write the robot's log");
  run->add_flag("--no-plots", noPlots, "no PNG plots (of an ensemble: none in the robots' folders)");
  run->add_flag("--quiet", quiet, "no progress bar");
  run->add_option("--progress-fd", progressFd, "write the fraction done to this file descriptor (ensembles)")
      ->group(""); // hidden: for the ensemble's own processes

  std::string serveSocket = "/tmp/robocup";
  bool lockStep = false;
  auto* serve = app.add_subcommand(
      "serve",
      "one simulated NAO waits for any LoLA client (this project's binary or another team's) and runs "
      "until it leaves");
  serve->add_option("scenario", options.scenario, "scenario of Config/Scenarios: start posture and events")
      ->required();
  serve->add_option("--socket", serveSocket,
                    withDefault("the LoLA socket to serve (the robot's)", serveSocket));
  serve->add_flag("--lockstep", lockStep,
                  "the next frame as soon as the client answered (default: real time, one frame per 12 ms)");
  serve->add_option("--minutes", options.minutes, "at most this many simulated minutes (default 60)")
      ->check(minutesRange);
  serve->add_option("--wait", options.serveWaitSeconds, "s to wait for the client (default 600)")
      ->check(CLI::PositiveNumber);
  serve->add_option("--config", configDirectory, configHelp)->check(CLI::ExistingDirectory);
  serve
      ->add_option("--seed", options.seed,
                   withDefault("draws the simulated robot (Config/Sim/robots.toml)", options.seed))
      ->check(seedDigits);
  serve->add_option("--preset", options.preset,
                    withDefault("robots.toml preset of the simulated robot, e.g. worn", options.preset));
  serve->add_option("--variant", options.variant, variantHelp);
  serve->add_option("--output", output,
                    "folder for the CSV, summary and plots (default Build/Simulation/serve-<scenario>)");
  serve->add_flag("--no-plots", noPlots, "no PNG plots");
  bool control = false;
  serve->add_flag(
      "--control", control,
      "read pause, resume, step [frames], speed <0.1..4>, status from stdin, one a line; replies on "
      "stdout as 'control: ...'");

  nao::HarmMatrixOptions matrixOptions;
  std::vector<std::string> matrixVariants;
  auto* matrix = app.add_subcommand(
      "matrix",
      "do no harm: every plant variant x the safety stages off, heat adjustment, smart stiffness, both, "
      "an ensemble each; prints the harm table and writes matrix.md");
  matrix->add_option("scenario", matrixOptions.scenario, "scenario of Config/Scenarios, e.g. stand")
      ->required();
  matrix
      ->add_option("--variants", matrixVariants,
                   "variants of Config/Sim/variants.toml, 'home' for none (default: home and every variant)")
      ->delimiter(',');
  matrix->add_option("--robots", matrixOptions.robots, "robots per ensemble (default 8)")
      ->check(CLI::Range(1, 10000));
  matrix->add_option("--worn", matrixOptions.worn, "the last this many use the preset worn (default 2)")
      ->check(CLI::Range(0, 10000));
  matrix->add_option("--seed", matrixOptions.seed, "robot i uses seed + i (default 100)")->check(seedDigits);
  matrix->add_option("--minutes", matrixOptions.minutes, "simulated minutes per run (default 2)")
      ->check(minutesRange);
  matrix->add_option("--jobs", matrixOptions.jobs, "processes at a time (default: one per core)")
      ->check(CLI::NonNegativeNumber);
  matrix->add_option("--output", output, "folder (default Build/Simulation/matrix-<scenario>)");
  matrix->add_option("--config", configDirectory, configHelp)->check(CLI::ExistingDirectory);

  std::vector<std::string> folders, labels;
  std::string figure, title;
  auto* reportCommand = app.add_subcommand(
      "report", "tables and figures again: of an ensemble's folder (robot-*/ inside) or of one run's folder");
  reportCommand->add_option("folders", folders, "output folders of ensembles or runs")
      ->required()
      ->check(CLI::ExistingDirectory);
  reportCommand
      ->add_option("--labels", labels, "names of the folders in the comparison figure (default: the folders)")
      ->delimiter(',');
  reportCommand->add_option("--figure", figure, withDefault("one PNG with the bands of all folders", figure));
  reportCommand->add_option("--title", title, "title of that figure (default: the first folder's scenario)");

  std::vector<std::string> thermalFolders, thermalLabels;
  std::string teacher;
  std::vector<double> horizons = nao::defaultForecastHorizons;
  auto* thermalCommand = app.add_subcommand(
      "thermal", "JointThermalStateProvider's forecast of the time to temperature status 1 against the "
                 "plant's, from ensembles run with --robot-logs; writes thermal.md into the first folder");
  thermalCommand->add_option("folders", thermalFolders, "ensemble folders (robot-*/ with their logs)")
      ->required()
      ->check(CLI::ExistingDirectory);
  thermalCommand
      ->add_option("--labels", thermalLabels,
                   "names of the folders in the tables (default: the folders' names)")
      ->delimiter(',');
  thermalCommand
      ->add_option("--learned-from", teacher,
                   "ensemble folder whose runs of the same seeds teach the thresholds of (b) (default: each "
                   "robot's own run, as an identical earlier run would)")
      ->check(CLI::ExistingDirectory);
  thermalCommand
      ->add_option("--after", horizons,
                   "s after the posture is held at which forecasts are taken "
                   "(default 60,120,300)")
      ->delimiter(',');
  int fallRobots = 1;
  std::uint64_t fallSeed = 1;
  std::string fallOutput = "Build/Simulation/falls";
  auto* fallsCommand = app.add_subcommand(
      "falls",
      "InertialDataFilter's orientation error and FallDownStateDetector's detections against the "
      "simulator's truth (stand, stepping, picked up, arms, sit, pushes from 8 directions); writes falls.md");
  fallsCommand->add_option("--robots", fallRobots, withDefault("seeds, each runs every scenario", fallRobots))
      ->check(CLI::Range(1, 1000));
  fallsCommand->add_option("--seed", fallSeed, withDefault("the first seed", fallSeed));
  fallsCommand->add_option("--output", fallOutput, withDefault("folder of falls.md", fallOutput));
  fallsCommand->add_option("--config", configDirectory, configHelp)->check(CLI::ExistingDirectory);
  int protectionRobots = 1;
  std::uint64_t protectionSeed = 1;
  std::string protectionOutput = "Build/Simulation/fallprotection";
  auto* protectionCommand = app.add_subcommand(
      "fallprotection",
      "FallProtectionProvider: the head's and the arms' impacts and torques in pushed falls from 8 "
      "directions, with and without it; writes fallprotection.md");
  protectionCommand
      ->add_option("--robots", protectionRobots,
                   withDefault("seeds, each falls from every direction", protectionRobots))
      ->check(CLI::Range(1, 1000));
  protectionCommand->add_option("--seed", protectionSeed, withDefault("the first seed", protectionSeed));
  protectionCommand->add_option("--output", protectionOutput,
                                withDefault("folder of fallprotection.md", protectionOutput));
  protectionCommand->add_option("--config", configDirectory, configHelp)->check(CLI::ExistingDirectory);
  CLI11_PARSE(app, argc, argv);

  try
  {
    if (reportCommand->parsed()) return report(folders, labels, figure, title);
    if (thermalCommand->parsed()) return thermal(thermalFolders, thermalLabels, teacher, horizons);
    if (configDirectory.empty()) configDirectory = nao::files::findConfigDirectory().string();
    if (fallsCommand->parsed())
    {
      std::vector<std::uint64_t> seeds;
      for (int k = 0; k < fallRobots; ++k)
        seeds.push_back(fallSeed + static_cast<std::uint64_t>(k));
      std::filesystem::create_directories(fallOutput);
      std::cout << nao::runFallEnsemble(configDirectory, seeds, fallOutput) << "output in " << fallOutput
                << ": falls.md\n";
      return 0;
    }
    if (protectionCommand->parsed())
    {
      std::vector<std::uint64_t> seeds;
      for (int k = 0; k < protectionRobots; ++k)
        seeds.push_back(protectionSeed + static_cast<std::uint64_t>(k));
      std::cout << nao::runFallProtectionEnsemble(configDirectory, seeds, protectionOutput) << "output in "
                << protectionOutput << ": fallprotection.md\n";
      return 0;
    }
    if (matrix->parsed()) return runMatrix(matrixOptions, matrixVariants, configDirectory, output);
    if (serve->parsed())
    {
      options.serveSocket = serveSocket;
      options.realTime = !lockStep;
      if (serve->count("--minutes") == 0) options.minutes = 60;
      if (output.empty()) output = "Build/Simulation/serve-" + options.scenario;
      noLog = true; // the client writes its own logs
      quiet = true;
    }
    options.configDirectory = configDirectory;
    if (const std::string missing = missingScenario(configDirectory, options.scenario); !missing.empty())
    {
      std::cerr << "Simulator: " << missing << "\n";
      return 2;
    }
    try
    {
      nao::checkRobotExists({configDirectory, options.robot});
    }
    catch (const std::exception& error) // at once, not after the robot failed to start
    {
      std::cerr << "Simulator: command line --robot: " << error.what() << "\n";
      return 2;
    }
    if (!options.variant.empty()) try
      {
        nao::sim::SimConfig config = nao::sim::loadSimConfig(configDirectory);
        nao::sim::RobotVariation robot;
        nao::sim::applyVariant(config.variants, options.variant, config, robot);
      }
      catch (const std::exception& error)
      {
        std::cerr << "Simulator: command line --variant: " << error.what() << "\n";
        return 2;
      }
    if (run->parsed() && run->count("--minutes") == 0)
      options.minutes = nao::defaultMinutes(configDirectory, options.robot, options.scenario);
    options.outputDirectory = output.empty() ? std::filesystem::path("Build/Simulation") / options.scenario
                                             : std::filesystem::path(output);
    // The default folder is reused by every run of the scenario: an earlier run in it is kept under its time
    // instead of being overwritten (an explicit --output is the user's choice, e.g. for an ensemble's robots).
    if (output.empty() && !printJobs && std::filesystem::exists(options.outputDirectory) &&
        !std::filesystem::is_empty(options.outputDirectory))
    {
      const auto written =
          std::chrono::file_clock::to_sys(std::filesystem::last_write_time(options.outputDirectory));
      const std::time_t time = std::chrono::system_clock::to_time_t(written);
      std::tm utc{};
      gmtime_r(&time, &utc);
      char stamp[32];
      std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &utc);
      std::filesystem::path kept = options.outputDirectory;
      kept += std::string("-") + stamp;
      for (int n = 2; std::filesystem::exists(kept); ++n)
      {
        kept = options.outputDirectory;
        kept += std::string("-") + stamp + "-" + std::to_string(n);
      }
      std::filesystem::rename(options.outputDirectory, kept);
      std::cerr << "Simulator: the earlier run in " << options.outputDirectory.string() << " is kept in "
                << kept.string() << "\n";
    }
    const bool outputExisted = std::filesystem::exists(options.outputDirectory);
    installStopHandlers();
    options.stopRequested = [] { return stopSignal != 0; };
    options.writeLog = !noLog;
    options.writePlots = !noPlots;
    if (!robotBinary.empty()) options.robotBinary = robotBinary;
    for (const std::string& provider : providers)
    {
      const auto equals = provider.find('=');
      if (equals == std::string::npos)
      {
        std::cerr << "Simulator: command line --provider " << provider
                  << ": expected Representation=Module\n";
        return 2;
      }
      options.providerOverrides.push_back({provider.substr(0, equals),
                                           provider.substr(equals + 1),
                                           {"command line --provider " + provider, 0, 0}});
    }

    if (robots > 1 || worn > 0 || printJobs)
    {
      if (worn > robots)
      {
        std::cerr << "Simulator: --worn " << worn << " is more than --robots " << robots << "\n";
        return 2;
      }
      nao::EnsembleOptions ensemble;
      ensemble.simulator = std::filesystem::read_symlink("/proc/self/exe");
      ensemble.output = std::filesystem::absolute(options.outputDirectory);
      ensemble.robots = robots;
      ensemble.seed = options.seed;
      ensemble.preset = options.preset;
      ensemble.worn = worn;
      ensemble.jobs = jobs;
      char minutes[32];
      std::snprintf(minutes, sizeof(minutes), "%.10g", options.minutes);
      ensemble.runArguments = {
          "run",     options.scenario, "--minutes",
          minutes,   "--config",       std::filesystem::absolute(configDirectory).string(),
          "--robot", options.robot,    "--quiet"};
      if (noPlots) ensemble.runArguments.push_back("--no-plots");
      if (!robotLogs) ensemble.runArguments.push_back("--no-log");
      if (!options.variant.empty())
        ensemble.runArguments.insert(ensemble.runArguments.end(), {"--variant", options.variant});
      if (options.noiseSeed != 0)
        ensemble.runArguments.insert(ensemble.runArguments.end(),
                                     {"--noise-seed", std::to_string(options.noiseSeed)});
      if (!std::isnan(options.room))
        ensemble.runArguments.insert(ensemble.runArguments.end(), {"--room", std::to_string(options.room)});
      if (options.realTime) ensemble.runArguments.push_back("--realtime");
      if (options.robotBinary)
        ensemble.runArguments.insert(
            ensemble.runArguments.end(),
            {"--robot-binary", std::filesystem::absolute(*options.robotBinary).string()});
      for (const std::string& provider : providers)
        ensemble.runArguments.insert(ensemble.runArguments.end(), {"--provider", provider});
      if (printJobs)
      {
        for (int robot = 0; robot < robots; ++robot)
        {
          std::string line;
          for (const std::string& argument : nao::robotCommand(ensemble, robot))
            line += (line.empty() ? "" : " ") + quoted(argument);
          std::cout << line << "\n";
        }
        return 0;
      }
      std::filesystem::create_directories(ensemble.output);
      const bool bar = !quiet && isatty(fileno(stderr));
      const std::string what = options.scenario + ", " + std::to_string(robots) + " robots";
      ensemble.stopRequested = options.stopRequested;
      const auto start = std::chrono::steady_clock::now();
      nao::runEnsemble(ensemble,
                       [&](double fraction)
                       {
                         if (bar) drawProgress(what, fraction);
                       });
      const auto ran = std::chrono::steady_clock::now();
      if (stopSignal != 0 && bar) std::fprintf(stderr, "\n");
      const int status = report({ensemble.output.string()}, {}, "", "");
      const auto seconds = [](auto from, auto to)
      { return std::chrono::duration<double>(to - from).count(); };
      std::printf("%d robots in %.1f s wall time, their plots included (each robot's run.out: its simulation "
                  "and plot "
                  "times apart); the table, ensemble.csv and distribution.png in %.1f s\n",
                  robots, seconds(start, ran), seconds(ran, std::chrono::steady_clock::now()));
      return endAfterStop(status);
    }

    if (progressFd >= 0)
      options.progress = [progressFd](double fraction) { dprintf(progressFd, "%.4f\n", fraction); };
    else if (!quiet && isatty(fileno(stderr)))
      options.progress = [&](double fraction) { drawProgress(options.scenario, fraction); };
    std::mutex replyMutex;
    const auto reply = [&replyMutex](const std::string& line)
    {
      std::lock_guard lock(replyMutex);
      std::cout << "control: " << line << std::endl; // at once: a GUI waits for it
    };
    std::optional<nao::SimulationControl> simulationControl;
    std::optional<nao::ControlInput> controlInput;
    if (control)
    {
      simulationControl.emplace(reply, options.realTime);
      options.control = &*simulationControl;
      controlInput.emplace(STDIN_FILENO, *simulationControl, reply);
    }
    std::error_code ignored; // an earlier failed run's error.txt in an --output given again: not this run's
    std::filesystem::remove(options.outputDirectory / "error.txt", ignored);
    nao::SimulationResult result;
    try
    {
      result = nao::runSimulation(options);
    }
    catch (const std::exception& error)
    {
      controlInput.reset();
      markFailedOutput(options.outputDirectory, outputExisted, error.what(), argc, argv);
      throw;
    }
    controlInput.reset();
    if (result.stopped && options.progress) std::fprintf(stderr, "\n"); // after the progress bar
    std::cout << nao::summaryTable(result);
    std::cout << "output in " << options.outputDirectory.string() << ":";
    if (!result.log.empty()) std::cout << " " << result.log.filename().string();
    std::cout << " " << result.csv.filename().string() << " " << result.summary.filename().string();
    for (const auto& plot : result.plots)
      std::cout << " " << plot.filename().string();
    std::cout << "\n";
    return endAfterStop(0);
  }
  catch (const std::exception& error)
  {
    std::cerr << "\nSimulator: " << error.what() << "\n";
    return endAfterStop(1);
  }
}
