#pragma once
// `Simulator stances`: the posture advice for stance on the model (the static knee and ankle torques of stand,
// highstand and the two advised stands) and an ensemble of each of those scenarios with the heat adjustment off and
// on (Util/Simulator/Run/StanceEvaluation.h). It prints both tables, writes them into its output folder and, with
// --markdown, into Docs/Results/ headed by the command.
#include "Util/Simulator/Run/StanceEvaluation.h"

#include <CLI/CLI.hpp>
#include <string>

namespace nao::simcli
{
struct StanceCommand
{
  StanceEnsembleSettings settings; ///< --robots, --seed, --minutes, --room, --jobs
  std::string output = "Build/Simulation/stances";
  CLI::App* command = nullptr;

  /// The subcommand of `app`; its --markdown fills `markdown`, --config `configDirectory`; `seedCheck` refuses a
  /// seed that is not one, `minutesCheck` a length that is none.
  void add(CLI::App& app, std::string& markdown, std::string& configDirectory,
           const CLI::Validator& seedCheck, const CLI::Validator& minutesCheck);
  /// The subcommand if the command line chose it, or nullptr.
  const CLI::App* parsed() const;
  /// Runs it; `commandLine` heads the tables.
  int execute(const std::string& configDirectory, const std::string& markdown,
              const std::string& commandLine) const;
};
} // namespace nao::simcli
