#include "Util/Simulator/App/ThermalCommand.h"
#include "Util/Simulator/App/CommandLine.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <unistd.h>

namespace nao::simcli
{
namespace
{
/// The tables of the configurations' forecasts into <into>/thermal.md and `markdown`, headed by `command`.
int writeTables(const std::vector<std::string>& labels,
                const std::vector<std::vector<RobotThermalForecast>>& configurations,
                const std::vector<double>& horizons, const std::filesystem::path& into,
                const std::string& markdown, const std::string& command)
{
  const std::string tables =
      headedByCommand(command, thermalForecastTables(labels, configurations, horizons));
  std::filesystem::create_directories(into);
  std::ofstream(into / "thermal.md") << tables;
  std::cout << tables << "output in " << into.string()
            << ": thermal.md (each ensemble's folder: thermal.csv, every joint's forecasts; "
               "thermal-budget.csv, every "
               "robot's budget)";
  writeMarkdown(tables, markdown);
  return 0;
}

/// The forecasts of every folder (the teacher's thresholds, if one is named, for the learned tables), their tables
/// into <into>/thermal.md and `markdown`.
int evaluate(const std::vector<std::string>& folders, std::vector<std::string> labels,
             const std::string& teacher, const std::vector<double>& horizons,
             const std::filesystem::path& into, const std::string& markdown, const std::string& command)
{
  labels.resize(folders.size());
  std::vector<std::vector<RobotThermalForecast>> configurations;
  // The teacher's thresholds: read once (its own evaluation where it is one of the folders, which teaches itself).
  std::optional<TaughtThresholds> taught;
  std::optional<std::size_t> teacherFolder;
  std::vector<RobotThermalForecast> teacherRobots;
  if (!teacher.empty())
  {
    for (std::size_t k = 0; k < folders.size() && !teacherFolder; ++k)
      if (std::filesystem::equivalent(folders[k], teacher)) teacherFolder = k;
    teacherRobots = evaluateThermalEnsemble(teacher, teacherFolder ? horizons : std::vector<double>{});
    taught = taughtThresholds(teacherRobots);
  }
  for (std::size_t k = 0; k < folders.size(); ++k)
  {
    if (labels[k].empty()) labels[k] = std::filesystem::path(folders[k]).filename().string();
    if (teacherFolder == k)
      configurations.push_back(teacherRobots);
    else
      configurations.push_back(evaluateThermalEnsemble(folders[k], horizons, taught ? &*taught : nullptr));
    writeThermalForecasts(std::filesystem::path(folders[k]) / "thermal.csv", configurations.back());
    writeBudgetForecasts(std::filesystem::path(folders[k]) / "thermal-budget.csv", configurations.back());
  }
  return writeTables(labels, configurations, horizons, into, markdown, command);
}
} // namespace

void ThermalCommand::add(CLI::App& app, std::string& markdown, std::string& configDirectory,
                         const CLI::Validator& seedCheck, const CLI::Validator& minutesCheck)
{
  command = app.add_subcommand(
      "thermal", "JointThermalStateProvider's forecast of the time to temperature status 1 against the "
                 "plant's: runs the unadjusted and the adjusted stand, sit and stepping as ensembles with "
                 "robot logs, or reads such ensembles (folders); prints the tables");
  command->add_option("folders", folders, "ensemble folders run before with --robot-logs (default: run them)")
      ->check(CLI::ExistingDirectory);
  command->add_option("--labels", labels, "names of the folders in the tables (default: the folders' names)")
      ->delimiter(',');
  command
      ->add_option("--learned-from", teacher,
                   "with folders: the ensemble whose runs of the same seeds teach the thresholds of (b) "
                   "(default: each robot's own run, as an identical earlier run would); without: the "
                   "unadjusted stand teaches them")
      ->check(CLI::ExistingDirectory);
  command
      ->add_option("--after", horizons,
                   "s after the posture is held at which forecasts are taken (default "
                   "60,120,300)")
      ->delimiter(',');
  const auto runOption = [&](const std::string& name, auto& value, const std::string& help)
  { return command->add_option(name, value, withDefault(help, value))->excludes("folders"); };
  runOption("--robots", settings.robots, "robots per ensemble")->check(CLI::Range(1, 1000));
  runOption("--worn", settings.worn, "of them, the last are the preset worn")->check(CLI::Range(0, 1000));
  runOption("--seed", settings.seed, "robot i uses seed + i")->check(seedCheck);
  runOption("--minutes", settings.minutes, "simulated minutes per run")->check(minutesCheck);
  runOption("--variant", settings.variant, "plant variant of Config/Sim/variants.toml, every robot");
  runOption("--jobs", settings.jobs, "processes at a time (0: one per core)")->check(CLI::Range(0, 1000));
  command
      ->add_flag("--keep-logs", keepLogs,
                 "keep the robots' logs (~22 MB per simulated minute each; default: "
                 "removed once evaluated)")
      ->excludes("folders");
  runOption("--output", output, "folder of the ensembles <configuration>/robot-<seed>/ and thermal.md");
  command->add_option("--markdown", markdown, markdownHelp);
  command->add_option("--config", configDirectory, configHelp)->check(CLI::ExistingDirectory);
}

const CLI::App* ThermalCommand::parsed() const
{
  return command->parsed() ? command : nullptr;
}

int ThermalCommand::execute(const std::string& configDirectory, const std::string& markdown,
                            const std::string& commandLine) const
{
  if (!folders.empty())
    return evaluate(folders, labels, teacher, horizons, folders.front(), markdown, commandLine);
  if (settings.worn > settings.robots)
  {
    std::cerr << "Simulator thermal: --worn " << settings.worn << " is more than --robots " << settings.robots
              << "\n";
    return 2;
  }
  if (!teacher.empty())
  {
    std::cerr
        << "Simulator thermal: --learned-from needs folders; its own runs learn from the unadjusted stand\n";
    return 2;
  }
  if (const std::string unknown = unknownVariant(configDirectory, settings.variant); !unknown.empty())
  {
    std::cerr << "Simulator thermal: command line --variant: " << unknown << "\n";
    return 2;
  }
  installStopHandlers();
  ThermalEnsembleSettings run = settings;
  run.simulator = std::filesystem::read_symlink("/proc/self/exe");
  run.config = thermalConfig(configDirectory, output);
  run.output = output;
  run.stopRequested = [] { return stopRequested(); };
  // One configuration after the other, each evaluated and its logs removed before the next runs (20 robots' logs of
  // 10 minutes are ~4 GB); the first, the unadjusted stand, teaches the thresholds of the learned tables.
  const bool bar = isatty(fileno(stderr));
  const auto& all = thermalConfigurations();
  const std::string what =
      std::to_string(all.size()) + " ensembles of " + std::to_string(run.robots) + " robots";
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::string> names;
  std::vector<std::vector<RobotThermalForecast>> configurations;
  std::optional<TaughtThresholds> taught;
  for (std::size_t k = 0; k < all.size(); ++k)
  {
    const std::filesystem::path folder =
        runThermalEnsemble(run, all[k],
                           [&](double fraction)
                           {
                             if (bar) drawProgress(what, (k + fraction) / all.size());
                           });
    configurations.push_back(evaluateThermalEnsemble(folder, horizons, taught ? &*taught : nullptr));
    if (k == 0) taught = taughtThresholds(configurations.front());
    writeThermalForecasts(folder / "thermal.csv", configurations.back());
    writeBudgetForecasts(folder / "thermal-budget.csv", configurations.back());
    if (!keepLogs) removeRobotLogs(folder);
    names.push_back(all[k].name);
  }
  if (bar) std::fprintf(stderr, "\n");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cerr << what << " in " << static_cast<int>(seconds + 0.5) << " s wall time\n";
  return endAfterStop(
      writeTables(labels.empty() ? names : labels, configurations, horizons, output, markdown, commandLine));
}
} // namespace nao::simcli
