#include "Util/Simulator/App/Commands.h"
#include "Util/Simulator/App/CommandLine.h"
#include "Util/Simulator/Physics/SimConfig.h"
#include "Util/Simulator/Run/CalibrationEvaluation.h"
#include "Util/Simulator/Run/Ensemble.h"
#include "Util/Simulator/Run/FallEvaluation.h"
#include "Util/Simulator/Run/FallProtectionEvaluation.h"
#include "Util/Simulator/Run/RunRecorder.h"
#include "Util/Simulator/Run/SelfCollisionEvaluation.h"
#include "Util/Simulator/Run/SensorFaults.h"
#include "Util/Simulator/Run/SitDownEvaluation.h"
#include "Util/Simulator/Run/StanceEvaluation.h"
#include "Util/Simulator/Run/TaskSpaceEvaluation.h"
#include "Util/Simulator/Run/ThermalForecast.h"
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <unistd.h>

namespace nao::simcli
{
int report(const std::vector<std::string>& folders, const std::vector<std::string>& labels,
           const std::string& figure, const std::string& title)
{
  std::vector<EnsembleReport> reports;
  for (const std::string& folder : folders)
  {
    reports.push_back(readEnsemble(folder));
    if (reports.back().singleRun)
    {
      // One run's folder: its per-joint table and its plots again.
      const SimulationResult& run = reports.back().robots.front().summary;
      std::cout << "== " << folder << ": " << run.scenario << ", one run (seed " << run.seed << ")\n"
                << jointTable(run);
      const std::filesystem::path eventsFile = std::filesystem::path(folder) / "events.csv";
      std::optional<FaultEvent> fault;
      std::vector<ControlRecord> controls;
      const std::vector<ScriptEvent> events = std::filesystem::exists(eventsFile)
                                                  ? readEvents(eventsFile, &fault, &controls)
                                                  : std::vector<ScriptEvent>{};
      const auto plots = plotCsv(std::filesystem::path(folder) / (run.scenario + ".csv"), plotTitle(run),
                                 events, fault, controls);
      std::cout << "plots:";
      for (const auto& plot : plots)
        std::cout << " " << plot.filename().string();
      std::cout << "\n";
      continue;
    }
    std::cout << "== " << folder << ": " << reports.back().scenario << ", " << reports.back().robots.size()
              << " robots\n"
              << ensembleTable(reports.back());
    std::cout << "figure: " << writeEnsembleFiles(reports.back(), folder).string() << "\n";
  }
  if (!figure.empty())
  {
    std::vector<std::string> names = labels;
    names.resize(folders.size());
    for (std::size_t k = 0; k < names.size(); ++k)
      if (names[k].empty()) names[k] = folders[k];
    plotEnsembles(reports, names, figure, title.empty() ? reports.front().scenario : title);
    std::cout << "comparison figure: " << figure << "\n";
  }
  return 0;
}
int runMatrix(HarmMatrixOptions options, const std::vector<std::string>& variants,
              const std::string& configDirectory, const std::string& output, const std::string& markdown,
              const std::string& command)
{
  const sim::SimConfig config = sim::loadSimConfig(configDirectory);
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
    for (const sim::PlantVariant& variant : config.variants.variants)
      options.variants.push_back(variant.name);
  }
  for (const std::string& name : variants)
  {
    if (name != "home")
    {
      sim::SimConfig copy = config;
      sim::RobotVariation robot;
      try
      {
        sim::applyVariant(copy.variants, name, copy, robot);
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
  options.stopRequested = [] { return stopRequested(); };
  const bool bar = isatty(fileno(stderr));
  const std::string what = "matrix " + options.scenario;
  const HarmMatrix matrix = runHarmMatrix(options,
                                          [&](double fraction)
                                          {
                                            if (bar) drawProgress(what, fraction);
                                          });
  const std::string table = harmMatrixTable(matrix);
  std::filesystem::create_directories(options.output);
  std::ofstream(options.output / "matrix.md") << table;
  std::cout << table << "table: " << (options.output / "matrix.md").string();
  writeMarkdown(headedByCommand(command, table), markdown);
  return endAfterStop(0);
}

int runFaults(FaultMatrixOptions options, const std::string& configDirectory, const std::string& output,
              const std::string& markdown, const std::string& command)
{
  const SensorFaults faults = loadSensorFaults(configDirectory);
  if (options.faults.empty())
    for (const InjectedFault& fault : faults.faults)
      options.faults.push_back(fault.name);
  for (const std::string& name : options.faults)
    try
    {
      findFault(faults, name);
    }
    catch (const std::exception& error)
    {
      std::cerr << "Simulator: command line --faults: " << error.what() << "\n";
      return 2;
    }
  options.simulator = std::filesystem::read_symlink("/proc/self/exe");
  options.config = std::filesystem::absolute(configDirectory);
  options.output = std::filesystem::absolute(output.empty() ? "Build/Simulation/faults" : output);
  installStopHandlers();
  options.stopRequested = [] { return stopRequested(); };
  const bool bar = isatty(fileno(stderr));
  const FaultMatrixResult result = runFaultMatrix(options,
                                                  [&](double fraction)
                                                  {
                                                    if (bar) drawProgress("faults", fraction);
                                                  });
  const std::string table = faultMatrixTable(result, command);
  std::ofstream(options.output / "faults.md") << table;
  std::cout << table << "table: " << (options.output / "faults.md").string();
  writeMarkdown(table, markdown);
  return endAfterStop(0);
}

int runTasks(const std::vector<std::string>& scenarios, std::uint64_t seed, int robots,
             const std::string& configDirectory, const std::string& output, const std::string& markdown,
             const std::string& command)
{
  installStopHandlers();
  std::vector<TaskScenarioOutcome> outcomes;
  for (int robot = 0; robot < robots && !stopRequested(); ++robot)
    for (const std::string& scenario : scenarios)
    {
      const std::uint64_t robotSeed = seed + static_cast<std::uint64_t>(robot);
      outcomes.push_back(runTaskSpaceScenario(configDirectory, scenario, robotSeed,
                                              std::filesystem::path(output) / scenario /
                                                  ("robot-" + std::to_string(robotSeed))));
    }
  const std::string table = taskSpaceTable(outcomes, command);
  std::filesystem::create_directories(output);
  std::ofstream(std::filesystem::path(output) / "tasks.md") << table;
  std::cout << table << "tables: " << (std::filesystem::path(output) / "tasks.md").string();
  writeMarkdown(table, markdown);
  return endAfterStop(0);
}

int runFalls(const std::vector<std::uint64_t>& seeds, const std::string& configDirectory,
             const std::string& output, const std::string& markdown, const std::string& command)
{
  std::filesystem::create_directories(output);
  const std::string tables = runFallEnsemble(configDirectory, seeds, output);
  std::cout << tables << "output in " << output << ": falls.md";
  writeMarkdown(headedByCommand(command, tables), markdown);
  return 0;
}

int runFallProtection(const std::vector<std::uint64_t>& seeds, const std::string& configDirectory,
                      const std::string& output, const std::string& markdown, const std::string& command)
{
  const std::string tables = runFallProtectionEnsemble(configDirectory, seeds, output);
  std::cout << tables << "output in " << output << ": fallprotection.md";
  writeMarkdown(headedByCommand(command, tables), markdown);
  return 0;
}

std::string tablesWithoutResults(const std::string& subcommand, const std::vector<double>& horizons)
{
  if (subcommand == "matrix") return harmMatrixTable({});
  if (subcommand == "faults") return faultMatrixTable({}, "");
  if (subcommand == "tasks") return taskSpaceTable({}, "");
  if (subcommand == "collision") return selfCollisionTable({}, "");
  if (subcommand == "sitdown") return sitDownTables({}, {}, "");
  if (subcommand == "stances") return stanceTables({}, {}, {});
  if (subcommand == "calibration") return calibrationTables({}, {}, {});
  if (subcommand == "falls") return fallTables({});
  if (subcommand == "fallprotection") return fallProtectionTables({});
  if (subcommand == "thermal") return thermalForecastTables({}, {}, horizons);
  if (subcommand == "run") return "```text\n" + ensembleTable({}) + "```\n";
  return "";
}
} // namespace nao::simcli
