#include "Util/Simulator/App/StageCommands.h"
#include "Util/Simulator/App/CommandLine.h"
#include "Util/Simulator/Run/SelfCollisionEvaluation.h"
#include "Util/Simulator/Run/SitDownEvaluation.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <vector>

namespace nao::simcli
{
namespace
{
/// --robots, --seed and --output of one of the commands (--markdown and --config are the caller's).
void addSeedsAndOutput(CLI::App& command, int& robots, std::uint64_t& seed, std::string& output,
                       const std::string& what, const CLI::Validator& seedCheck)
{
  command.add_option("--robots", robots, withDefault("seeds, each runs every scenario", robots))
      ->check(CLI::Range(1, 1000));
  command.add_option("--seed", seed, withDefault("the first seed", seed))->check(seedCheck);
  command.add_option("--output", output, withDefault("folder of the runs and " + what, output));
}

/// `table` into `output`/`file` and on the console, then into `markdown` when given.
int writeTable(const std::string& table, const std::filesystem::path& output, const std::string& file,
               const std::string& markdown, const std::string& runs)
{
  std::filesystem::create_directories(output);
  std::ofstream(output / file) << table;
  std::cout << table << "output in " << output.string() << ": " << file << ", " << runs;
  writeMarkdown(table, markdown);
  return endAfterStop(0);
}

int runCollision(const std::filesystem::path& configDirectory, const std::vector<std::uint64_t>& seeds,
                 const std::filesystem::path& output, const std::string& markdown, const std::string& command)
{
  installStopHandlers();
  std::vector<SelfCollisionOutcome> outcomes;
  for (const char* scenario : {"collisionarm", "collisionhead", "collisionlegs"})
    for (const std::uint64_t seed : seeds)
    {
      if (stopRequested()) break;
      SelfCollisionOutcome outcome{scenario, seed, {}, {}};
      for (const bool on : {false, true})
        (on ? outcome.on : outcome.off) = runSelfCollisionScenario(
            configDirectory, scenario, seed, on,
            output / (std::string(scenario) + (on ? "-on-" : "-off-") + std::to_string(seed)));
      std::printf("%s seed %llu: smallest distance off %.1f mm, on %.1f mm\n", scenario,
                  static_cast<unsigned long long>(seed), outcome.off.minDistance * 1000.f,
                  outcome.on.minDistance * 1000.f);
      std::fflush(stdout);
      outcomes.push_back(outcome);
    }
  return writeTable(selfCollisionTable(outcomes, command), output, "collision.md", markdown,
                    "<scenario>-<off|on>-<seed>/distance.csv");
}

int runSitDown(const std::filesystem::path& configDirectory, const std::vector<std::uint64_t>& seeds,
               const std::filesystem::path& output, const std::string& markdown, const std::string& command)
{
  installStopHandlers();
  std::vector<ChestButtonOutcome> chestButton;
  std::vector<LowBatteryOutcome> lowBattery;
  for (const std::uint64_t seed : seeds)
  {
    if (stopRequested()) break;
    const std::string robot = "-" + std::to_string(seed);
    chestButton.push_back(evaluateChestButtonRun(
        runSitDownScenario(configDirectory, "chestbutton", seed, output / ("chestbutton" + robot))));
    lowBattery.push_back(evaluateLowBatteryRun(
        runSitDownScenario(configDirectory, "lowbattery", seed, output / ("lowbattery" + robot))));
    std::printf("seed %llu: chestbutton sitting %.3f m, lowbattery warned at %.2f s, sitting %.3f m\n",
                static_cast<unsigned long long>(seed), chestButton.back().sitting.meanHeight,
                lowBattery.back().warnedAt, lowBattery.back().sitting.meanHeight);
    std::fflush(stdout);
  }
  return writeTable(sitDownTables(chestButton, lowBattery, command), output, "sitdown.md", markdown,
                    "<scenario>-<seed>/ (each run's log)");
}
} // namespace

void StageCommands::add(CLI::App& app, std::string& markdown, std::string& configDirectory,
                        const CLI::Validator& seedCheck)
{
  collision = app.add_subcommand(
      "collision", "SelfCollisionProvider's scenarios (collisionarm, collisionhead, collisionlegs), the "
                   "stage off and on: the smallest pair distance at the measured posture; prints the table");
  addSeedsAndOutput(*collision, collisionRobots, collisionSeed, collisionOutput,
                    "collision.md (each run's distance.csv)", seedCheck);
  sitDown = app.add_subcommand("sitdown",
                               "SitDownProvider's scenarios (chestbutton, lowbattery): the torso's height "
                               "and the largest stiffness standing and sitting; prints the tables");
  addSeedsAndOutput(*sitDown, sitDownRobots, sitDownSeed, sitDownOutput, "sitdown.md", seedCheck);
  for (CLI::App* command : {collision, sitDown})
  {
    command->add_option("--markdown", markdown, markdownHelp);
    command->add_option("--config", configDirectory, configHelp)->check(CLI::ExistingDirectory);
  }
}

const CLI::App* StageCommands::parsed() const
{
  return collision->parsed() ? collision : sitDown->parsed() ? sitDown : nullptr;
}

int StageCommands::execute(const std::string& configDirectory, const std::string& markdown,
                           const std::string& command) const
{
  if (collision->parsed())
    return runCollision(configDirectory, seedsFrom(collisionSeed, collisionRobots), collisionOutput, markdown,
                        command);
  return runSitDown(configDirectory, seedsFrom(sitDownSeed, sitDownRobots), sitDownOutput, markdown, command);
}
} // namespace nao::simcli
