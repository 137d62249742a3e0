// Simulator: runs a scenario with simulated NAO V6 robots (MuJoCo, motor boards, current and heat) and the
// robot code talking LoLA to them. One robot: the robot's log, a CSV, a summary, PNG plots and a per-joint
// table. An ensemble (--robots N): one process per robot, each robot's outputs in the folder of its seed, a
// per-robot table (with percentiles from 10 robots on) and a distribution figure. `report` shows either again.
// This file is the command line, every subcommand's options and their defaults; `run` and `serve` are in
// RunCommand.cpp, `collision` and `sitdown` (their options too) in StageCommands.cpp, `stances` in
// StanceCommand.cpp, `calibration` in CalibrationCommand.cpp, `thermal` in ThermalCommand.cpp, the others in
// Commands.cpp, what they share in CommandLine.cpp.
#include "Tools/Files/ConfigDirectory.h"
#include "Util/Simulator/App/CalibrationCommand.h"
#include "Util/Simulator/App/CommandLine.h"
#include "Util/Simulator/App/Commands.h"
#include "Util/Simulator/App/RunCommand.h"
#include "Util/Simulator/App/StageCommands.h"
#include "Util/Simulator/App/StanceCommand.h"
#include "Util/Simulator/App/ThermalCommand.h"

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>

using namespace nao::simcli;

namespace
{
/// CLI11 reads "-1" into an unsigned seed as 18446744073709551615: a seed is refused unless it is digits only.
const CLI::Validator seedDigits(
    [](std::string& text)
    {
      return !text.empty() && text.find_first_not_of("0123456789") == std::string::npos
                 ? std::string()
                 : "'" + text + "' is not a seed (a whole number from 0)";
    },
    "SEED");

/// At least one second (a run shorter than that has nothing to report), at most a day; NaN is refused.
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

/// The help texts `run` and `serve` share.
std::string variantHelp(const nao::SimulationOptions& options)
{
  return withDefault("plant variant of Config/Sim/variants.toml (every robot), e.g. boardGainHalf",
                     options.variant);
}
std::string faultHelp(const nao::SimulationOptions& options)
{
  return withDefault(
      "sensor fault of Config/Sim/faults.toml in the frames the robot receives, e.g. gyroStuck5",
      options.fault);
}
std::string faultAtHelp(const nao::SimulationOptions& options)
{
  return withDefault("s: the sensor fault's onset", options.faultAt);
}

constexpr const char* replayHelp =
    "events.csv of an earlier run: its control rows (the events a user sent over serve "
    "--control) again, each in the frame of its time (default: none)";

/// Every subcommand's options, bound by the add functions, and the one the command line chose run by dispatch().
struct SimulatorCommands
{
  RunCommand runCommand;
  nao::HarmMatrixOptions matrixOptions;
  std::vector<std::string> matrixVariants;
  nao::FaultMatrixOptions faultOptions;
  std::vector<std::string> folders, labels;
  std::string figure, title;
  int fallRobots = 1, protectionRobots = 1, taskRobots = 1;
  std::uint64_t fallSeed = 1, protectionSeed = 1, taskSeed = 1;
  std::string fallOutput = "Build/Simulation/falls", protectionOutput = "Build/Simulation/fallprotection";
  std::vector<std::string> taskScenarios{"reach", "lookat", "goalieblock"};
  std::string taskOutput = "Build/Simulation/tasks";
  StageCommands stages;    ///< collision, sitdown
  StanceCommand stances;   ///< stances
  ThermalCommand thermal;  ///< thermal
  std::string markdown;    ///< --markdown of whichever command writes tables
  bool parseOnly = false;  ///< --parse-only: check the command line, print the tables' columns, run nothing
  CLI::App* run = nullptr; ///< the subcommands, to ask which was parsed
  CLI::App *serve = nullptr, *matrix = nullptr, *faults = nullptr, *report = nullptr;
  CLI::App *falls = nullptr, *protection = nullptr, *tasks = nullptr;
  CalibrationCommand calibration;

  void addRun(CLI::App& app);
  void addServe(CLI::App& app);
  void addMatrixAndFaults(CLI::App& app);
  void addReport(CLI::App& app);
  void addFallsAndTasks(CLI::App& app);
  int dispatch(int argc, char** argv);
};

void SimulatorCommands::addRun(CLI::App& app)
{
  nao::SimulationOptions& options = runCommand.options;
  run = app.add_subcommand("run", "run a scenario of Config/Scenarios on one robot or an ensemble");
  run->add_option("scenario", options.scenario, "scenario name, e.g. stand")->required();
  run->add_option("--minutes", options.minutes,
                  "simulated minutes, 1/60 (one second) to 1440 (default: 1, or the scenario's last scripted "
                  "event plus 30 s if later)")
      ->check(minutesRange);
  run->add_option("--config", runCommand.configDirectory, configHelp)->check(CLI::ExistingDirectory);
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
  run->add_option("--variant", options.variant, variantHelp(options));
  run->add_option("--fault", options.fault, faultHelp(options));
  run->add_option("--fault-at", options.faultAt, faultAtHelp(options))->check(CLI::Range(0.0, 86400.0));
  run->add_option("--replay", runCommand.replay, replayHelp)->check(CLI::ExistingFile);
  run->add_option("--record-period", options.recordPeriod,
                  withDefault("s of simulated time between the CSV's rows", options.recordPeriod))
      ->check(CLI::Range(0.012, 60.0));
  run->add_option("--noise-seed", options.noiseSeed,
                  "another draw of the robots' sensor and board noise (default 0: the seed's own): the same "
                  "robot on another day")
      ->check(seedDigits);
  run->add_option(
         "--room", options.room,
         "°C: every robot in this room, started at it (default: each drawn robot's own room and start, "
         "Config/Sim/robots.toml)")
      ->check(CLI::Range(-10.0, 50.0));
  run->add_option("--robots", runCommand.robots,
                  withDefault("ensemble: this many robots, one process each", runCommand.robots))
      ->check(CLI::Range(1, 10000));
  run->add_option("--worn", runCommand.worn,
                  withDefault("ensemble: the last this many robots use the preset worn", runCommand.worn))
      ->check(CLI::Range(0, 10000));
  run->add_option("--jobs", runCommand.jobs, "ensemble: processes at a time (default: one per core)")
      ->check(CLI::Range(0, 1000));
  run->add_flag("--print-jobs", runCommand.printJobs,
                "ensemble: print one command line per robot (for GNU parallel) instead of running them");
  run->add_flag("--robot-logs", runCommand.robotLogs, "ensemble: keep every robot's log (large)");
  run->add_option(
      "--markdown", runCommand.markdown,
      "ensemble: also write its table into this Markdown file (Docs/Results/), headed by the command");
  run->add_option("--output", runCommand.output,
                  "folder for logs, CSVs, summaries and plots (default Build/Simulation/<scenario>)");
  run->add_option("--robot-binary", runCommand.robotBinary,
                  "run this robot binary (e.g. Build/Release/Src/Apps/Nao/nao) instead of the robot code in "
                  "this process");
  run->add_option("--provider", runCommand.providers,
                  "Representation=Module (or =off) overriding the scenario; repeatable (default: the "
                  "scenario's providers)");
  run->add_flag("--realtime", options.realTime, "pace frames in wall-clock time instead of lock-step");
  run->add_flag("--no-log", runCommand.noLog, "do not write the robot's log");
  run->add_flag("--no-plots", runCommand.noPlots,
                "no PNG plots (of an ensemble: none in the robots' folders)");
  run->add_flag("--quiet", runCommand.quiet, "no progress bar");
  run->add_option("--progress-fd", runCommand.progressFd,
                  "write the fraction done to this file descriptor (ensembles)")
      ->group(""); // hidden: for the ensemble's own processes
}

void SimulatorCommands::addServe(CLI::App& app)
{
  nao::SimulationOptions& options = runCommand.options;
  serve = app.add_subcommand("serve", "one simulated NAO waits for any LoLA client (this project's binary or "
                                      "another team's) and runs until it leaves");
  serve->add_option("scenario", options.scenario, "scenario of Config/Scenarios: start posture and events")
      ->required();
  serve->add_option("--socket", runCommand.serveSocket,
                    withDefault("the LoLA socket to serve (the robot's)", runCommand.serveSocket));
  serve->add_flag("--lockstep", runCommand.lockStep,
                  "the next frame as soon as the client answered (default: real time, one frame per 12 ms)");
  serve->add_option("--minutes", options.minutes, "at most this many simulated minutes (default 60)")
      ->check(minutesRange);
  serve->add_option("--wait", options.serveWaitSeconds, "s to wait for the client (default 600)")
      ->check(CLI::PositiveNumber);
  serve->add_option("--config", runCommand.configDirectory, configHelp)->check(CLI::ExistingDirectory);
  serve
      ->add_option("--seed", options.seed,
                   withDefault("draws the simulated robot (Config/Sim/robots.toml)", options.seed))
      ->check(seedDigits);
  serve->add_option("--preset", options.preset,
                    withDefault("robots.toml preset of the simulated robot, e.g. worn", options.preset));
  serve->add_option("--variant", options.variant, variantHelp(options));
  serve->add_option("--fault", options.fault, faultHelp(options));
  serve->add_option("--fault-at", options.faultAt, faultAtHelp(options))->check(CLI::Range(0.0, 86400.0));
  serve->add_option("--replay", runCommand.replay, replayHelp)->check(CLI::ExistingFile);
  serve->add_option("--output", runCommand.output,
                    "folder for the CSV, summary and plots (default Build/Simulation/serve-<scenario>)");
  serve->add_flag("--no-plots", runCommand.noPlots, "no PNG plots");
  serve->add_flag(
      "--control", runCommand.control,
      "read pause, resume, step [frames], speed <0.1..4>, status and events (push, pickup, putdown, press, "
      "hold, release, battery, drain, temperature, preset, variant, fault, restart: App/README.md) from "
      "stdin, one "
      "a line; replies on stdout as 'control: ...'");
}

void SimulatorCommands::addMatrixAndFaults(CLI::App& app)
{
  matrix =
      app.add_subcommand("matrix", "do no harm: every plant variant x the safety stages off, heat "
                                   "adjustment, smart stiffness, both, an ensemble each; prints the harm "
                                   "table and writes matrix.md");
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
  matrix->add_option("--output", runCommand.output, "folder (default Build/Simulation/matrix-<scenario>)");
  matrix->add_option("--markdown", markdown, markdownHelp);
  matrix->add_option("--config", runCommand.configDirectory, configHelp)->check(CLI::ExistingDirectory);

  faults =
      app.add_subcommand("faults", "every sensor fault of Config/Sim/faults.toml x stand, stepping, sit, a "
                                   "push and a chest-button press, against the robot code: protective "
                                   "actions on robots that stand, and whether real events still work; "
                                   "prints the table");
  faults
      ->add_option("--faults", faultOptions.faults, "faults of Config/Sim/faults.toml (default: every fault)")
      ->delimiter(',');
  faults->add_option("--robots", faultOptions.robots, withDefault("robots (seeds)", faultOptions.robots))
      ->check(CLI::Range(1, 1000));
  faults->add_option("--seed", faultOptions.seed, withDefault("robot i uses seed + i", faultOptions.seed))
      ->check(seedDigits);
  faults->add_option("--jobs", faultOptions.jobs, "processes at a time (default: one per core)")
      ->check(CLI::NonNegativeNumber);
  faults->add_option("--output", runCommand.output, "folder of the runs (default Build/Simulation/faults)");
  faults->add_flag("--keep-logs", faultOptions.keepLogs,
                   "keep every run's log (about 1 MB each; default: removed once read)");
  faults->add_option("--markdown", markdown, markdownHelp);
  faults->add_option("--config", runCommand.configDirectory, configHelp)->check(CLI::ExistingDirectory);
}

void SimulatorCommands::addReport(CLI::App& app)
{
  report = app.add_subcommand(
      "report", "tables and figures again: of an ensemble's folder (robot-*/ inside) or of one run's folder");
  report->add_option("folders", folders, "output folders of ensembles or runs")
      ->required()
      ->check(CLI::ExistingDirectory);
  report
      ->add_option("--labels", labels, "names of the folders in the comparison figure (default: the folders)")
      ->delimiter(',');
  report->add_option("--figure", figure, withDefault("one PNG with the bands of all folders", figure));
  report->add_option("--title", title, "title of that figure (default: the first folder's scenario)");
}

void SimulatorCommands::addFallsAndTasks(CLI::App& app)
{
  falls = app.add_subcommand("falls", "InertialDataFilter's orientation error and FallDownStateDetector's "
                                      "detections against the simulator's truth (stand, stepping, picked up, "
                                      "arms, sit, pushes from 8 directions); writes falls.md");
  falls->add_option("--robots", fallRobots, withDefault("seeds, each runs every scenario", fallRobots))
      ->check(CLI::Range(1, 1000));
  falls->add_option("--seed", fallSeed, withDefault("the first seed", fallSeed));
  falls->add_option("--output", fallOutput, withDefault("folder of falls.md", fallOutput));
  falls->add_option("--markdown", markdown, markdownHelp);
  falls->add_option("--config", runCommand.configDirectory, configHelp)->check(CLI::ExistingDirectory);

  protection =
      app.add_subcommand("fallprotection", "FallProtectionProvider: the head's and the arms' impacts and "
                                           "torques in pushed falls from 8 directions, with and without "
                                           "it; writes fallprotection.md");
  protection
      ->add_option("--robots", protectionRobots,
                   withDefault("seeds, each falls from every direction", protectionRobots))
      ->check(CLI::Range(1, 1000));
  protection->add_option("--seed", protectionSeed, withDefault("the first seed", protectionSeed));
  protection->add_option("--output", protectionOutput,
                         withDefault("folder of fallprotection.md", protectionOutput));
  protection->add_option("--markdown", markdown, markdownHelp);
  protection->add_option("--config", runCommand.configDirectory, configHelp)->check(CLI::ExistingDirectory);

  tasks =
      app.add_subcommand("tasks", "TaskSpaceMotionProvider's scenarios (the Stack of Tasks) judged from the "
                                  "measured angles: target errors, the smallest pair distance, the centre "
                                  "of mass's margin, falls; prints the tables");
  tasks->add_option("--scenarios", taskScenarios, "scenarios with [[Script.targets]] (default: all three)")
      ->delimiter(',');
  tasks->add_option("--robots", taskRobots, withDefault("seeds, each runs every scenario", taskRobots))
      ->check(CLI::Range(1, 1000));
  tasks->add_option("--seed", taskSeed, withDefault("the first seed", taskSeed));
  tasks->add_option("--output", taskOutput, withDefault("folder of the runs and tasks.md", taskOutput));
  tasks->add_option("--markdown", markdown, markdownHelp);
  tasks->add_option("--config", runCommand.configDirectory, configHelp)->check(CLI::ExistingDirectory);
}

int SimulatorCommands::dispatch(int argc, char** argv)
{
  if (parseOnly)
  {
    const CLI::App* parsed = run;
    for (const CLI::App* subcommand : {serve, matrix, faults, report, falls, protection, tasks})
      if (subcommand->parsed()) parsed = subcommand;
    if (stages.parsed()) parsed = stages.parsed();
    if (stances.parsed()) parsed = stances.parsed();
    if (calibration.parsed()) parsed = calibration.parsed();
    if (thermal.parsed()) parsed = thermal.parsed();
    std::cout << "parsed; the tables it writes, without results:\n"
              << tablesWithoutResults(parsed->get_name(), thermal.horizons);
    return 0;
  }
  const std::string command = commandLine(argc, argv);
  if (report->parsed()) return nao::simcli::report(folders, labels, figure, title);
  std::string& configDirectory = runCommand.configDirectory;
  // Empty: Config/ found from this executable (Tools/Files/ConfigDirectory.h), never a path of the build.
  if (configDirectory.empty()) configDirectory = nao::files::findConfigDirectory().string();
  if (falls->parsed())
    return runFalls(seedsFrom(fallSeed, fallRobots), configDirectory, fallOutput, markdown, command);
  if (protection->parsed())
    return runFallProtection(seedsFrom(protectionSeed, protectionRobots), configDirectory, protectionOutput,
                             markdown, command);
  if (tasks->parsed())
    return runTasks(taskScenarios, taskSeed, taskRobots, configDirectory, taskOutput, markdown, command);
  if (stages.parsed()) return stages.execute(configDirectory, markdown, command);
  if (stances.parsed()) return stances.execute(configDirectory, markdown, command);
  if (calibration.parsed()) return calibration.execute(configDirectory, markdown, command);
  if (thermal.parsed()) return thermal.execute(configDirectory, markdown, command);
  if (matrix->parsed())
    return runMatrix(matrixOptions, matrixVariants, configDirectory, runCommand.output, markdown, command);
  if (faults->parsed()) return runFaults(faultOptions, configDirectory, runCommand.output, markdown, command);
  runCommand.serve = serve->parsed();
  runCommand.minutesGiven = (runCommand.serve ? serve : run)->count("--minutes") > 0;
  return runCommand.execute(argc, argv);
}
} // namespace

int main(int argc, char** argv)
{
  CLI::App app{"Simulated NAO V6 robots that speak LoLA, with motors that draw current and heat up"};
  app.require_subcommand(1);
  app.fallthrough(); // --parse-only after the subcommand's options
  SimulatorCommands commands;
  app.add_flag("--parse-only", commands.parseOnly,
               "check the command line and print the tables the command writes, without results; run nothing")
      ->group(""); // hidden: for the test of Docs/Results/'s headers
  commands.addRun(app);
  commands.addServe(app);
  commands.addMatrixAndFaults(app);
  commands.addReport(app);
  commands.addFallsAndTasks(app);
  commands.stages.add(app, commands.markdown, commands.runCommand.configDirectory, seedDigits);
  commands.stances.add(app, commands.markdown, commands.runCommand.configDirectory, seedDigits, minutesRange);
  commands.calibration.add(app, commands.markdown, commands.runCommand.configDirectory, seedDigits,
                           minutesRange);
  commands.thermal.add(app, commands.markdown, commands.runCommand.configDirectory, seedDigits, minutesRange);
  CLI11_PARSE(app, argc, argv);
  try
  {
    return commands.dispatch(argc, argv);
  }
  catch (const std::exception& error)
  {
    std::cerr << "\nSimulator: " << error.what() << "\n";
    return endAfterStop(1);
  }
}
