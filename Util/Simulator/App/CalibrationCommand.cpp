#include "Util/Simulator/App/CalibrationCommand.h"
#include "Util/Simulator/App/CommandLine.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <unistd.h>

namespace nao::simcli
{
void CalibrationCommand::add(CLI::App& app, std::string& markdown, std::string& configDirectory,
                             const CLI::Validator& seedCheck, const CLI::Validator& minutesCheck)
{
  command = app.add_subcommand(
      "calibration", "the plant against B-Human's figures: an ensemble of unadjusted stands (knee currents "
                     "and errors after 1 min, first status 1) and, per robot, standing and pushed at "
                     "stiffness 0, warming at stiffness 0, a stalled knee; prints the tables");
  command->add_option("--robots", settings.robots, withDefault("robots", settings.robots))
      ->check(CLI::Range(1, 1000));
  command
      ->add_option("--worn", settings.worn,
                   withDefault("the last this many use the preset worn", settings.worn))
      ->check(CLI::Range(0, 1000));
  command->add_option("--seed", settings.seed, withDefault("robot i uses seed + i", settings.seed))
      ->check(seedCheck);
  command
      ->add_option(
          "--minutes", settings.minutes,
          withDefault("simulated minutes of the stands, and of the single robots' warming", settings.minutes))
      ->check(minutesCheck);
  command
      ->add_option("--room", settings.room,
                   withDefault("°C: every robot in this room, started at it", settings.room))
      ->check(CLI::Range(-10.0, 50.0));
  command->add_option("--jobs", settings.jobs, "processes at a time (default: one per core)")
      ->check(CLI::Range(0, 1000));
  command->add_option("--output", output,
                      withDefault("folder of calibration.md and stand/robot-<seed>/", output));
  command->add_option("--markdown", markdown, markdownHelp);
  command->add_option("--config", configDirectory, configHelp)->check(CLI::ExistingDirectory);
}

const CLI::App* CalibrationCommand::parsed() const
{
  return command->parsed() ? command : nullptr;
}

int CalibrationCommand::execute(const std::string& configDirectory, const std::string& markdown,
                                const std::string& commandLine) const
{
  installStopHandlers();
  CalibrationSettings run = settings;
  run.worn = std::min(run.worn, run.robots);
  run.simulator = std::filesystem::read_symlink("/proc/self/exe");
  run.config = configDirectory;
  run.output = output;
  run.stopRequested = [] { return stopRequested(); };
  const bool bar = isatty(fileno(stderr));
  const std::string what = "the ensemble of " + std::to_string(run.robots) + " robots";
  const auto start = std::chrono::steady_clock::now();
  const std::vector<CalibrationStand> stands = runCalibrationEnsemble(run,
                                                                      [&](double fraction)
                                                                      {
                                                                        if (bar) drawProgress(what, fraction);
                                                                      });
  if (bar) std::fprintf(stderr, "\n");
  const std::vector<CalibrationRobot> robots = measureCalibrationRobots(run);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::string tables = headedByCommand(commandLine, calibrationTables(stands, robots, run));
  std::filesystem::create_directories(output);
  std::ofstream(std::filesystem::path(output) / "calibration.md") << tables;
  std::cout << tables << what << " and " << robots.size() << " single robots in "
            << static_cast<int>(seconds + 0.5) << " s wall time; output in " << output
            << ": calibration.md, stand/robot-<seed>/";
  writeMarkdown(tables, markdown);
  return endAfterStop(0);
}
} // namespace nao::simcli
