#pragma once
// The Simulator's commands that judge a stage of the joint request on its own scenarios, on robots seed .. seed +
// robots - 1 in this process: `collision` (SelfCollisionProvider, the stage off against on) and `sitdown`
// (SitDownProvider's chest button and low battery). Each prints its table, writes it into its output folder and,
// with --markdown, into Docs/Results/ headed by the command.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

namespace nao::simcli
{
struct StageCommands
{
  int collisionRobots = 2, sitDownRobots = 8; ///< seeds
  std::uint64_t collisionSeed = 1, sitDownSeed = 1;
  std::string collisionOutput = "Build/Simulation/collision", sitDownOutput = "Build/Simulation/sitdown";
  CLI::App *collision = nullptr, *sitDown = nullptr;

  /// The two subcommands of `app`; their --markdown fills `markdown`, --config `configDirectory`; `seedCheck`
  /// refuses a seed that is not one.
  void add(CLI::App& app, std::string& markdown, std::string& configDirectory,
           const CLI::Validator& seedCheck);
  /// The one of them the command line chose, or nullptr.
  const CLI::App* parsed() const;
  /// Runs the one parsed(); `command` heads the tables.
  int execute(const std::string& configDirectory, const std::string& markdown,
              const std::string& command) const;
};
} // namespace nao::simcli
