#include "Util/Simulator/App/StanceCommand.h"
#include "Util/Simulator/App/CommandLine.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <unistd.h>

namespace nao::simcli
{
void StanceCommand::add(CLI::App& app, std::string& markdown, std::string& configDirectory,
                        const CLI::Validator& seedCheck, const CLI::Validator& minutesCheck)
{
  command = app.add_subcommand(
      "stances", "the posture advice for stance: the model's knee and ankle torques of stand, "
                 "highstand, standadvised and standadvisedabs, and an ensemble of each with the "
                 "heat adjustment off and on; prints the tables");
  command->add_option("--robots", settings.robots, withDefault("robots per ensemble", settings.robots))
      ->check(CLI::Range(1, 1000));
  command->add_option("--seed", settings.seed, withDefault("robot i uses seed + i", settings.seed))
      ->check(seedCheck);
  command
      ->add_option("--minutes", settings.minutes, withDefault("simulated minutes per run", settings.minutes))
      ->check(minutesCheck);
  command
      ->add_option("--room", settings.room,
                   withDefault("°C: every robot in this room, started at it", settings.room))
      ->check(CLI::Range(-10.0, 50.0));
  command->add_option("--jobs", settings.jobs, "processes at a time (default: one per core)")
      ->check(CLI::Range(0, 1000));
  command->add_option("--output", output,
                      withDefault("folder of stances.md and <scenario>-<off|on>/robot-<seed>/", output));
  command->add_option("--markdown", markdown, markdownHelp);
  command->add_option("--config", configDirectory, configHelp)->check(CLI::ExistingDirectory);
}

const CLI::App* StanceCommand::parsed() const
{
  return command->parsed() ? command : nullptr;
}

int StanceCommand::execute(const std::string& configDirectory, const std::string& markdown,
                           const std::string& commandLine) const
{
  installStopHandlers();
  StanceEnsembleSettings run = settings;
  run.simulator = std::filesystem::read_symlink("/proc/self/exe");
  run.config = configDirectory;
  run.output = output;
  run.stopRequested = [] { return stopRequested(); };
  const std::vector<StanceModelRow> model = stanceModelRows(configDirectory);
  const bool bar = isatty(fileno(stderr));
  const std::string what =
      std::to_string(stanceScenarios.size() * 2) + " ensembles of " + std::to_string(run.robots) + " robots";
  const auto start = std::chrono::steady_clock::now();
  const std::vector<StanceEnsemble> ensembles = runStanceEnsembles(run,
                                                                   [&](double fraction)
                                                                   {
                                                                     if (bar) drawProgress(what, fraction);
                                                                   });
  if (bar) std::fprintf(stderr, "\n");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::string tables = headedByCommand(commandLine, stanceTables(model, ensembles, run));
  std::filesystem::create_directories(output);
  std::ofstream(std::filesystem::path(output) / "stances.md") << tables;
  std::cout << tables << what << " in " << static_cast<int>(seconds + 0.5) << " s wall time; output in "
            << output << ": stances.md, <scenario>-<off|on>/robot-<seed>/";
  writeMarkdown(tables, markdown);
  return endAfterStop(0);
}
} // namespace nao::simcli
