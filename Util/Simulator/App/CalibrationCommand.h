#pragma once
// `Simulator calibration`: the plant's calibration against B-Human's figures (Util/Simulator/Physics/README.md,
// "Calibration"): an ensemble of unadjusted stands and, per robot, the single-robot figures
// (Util/Simulator/Run/CalibrationEvaluation.h). It prints the tables, writes them into its output folder and, with
// --markdown, into Docs/Results/ headed by the command.
#include "Util/Simulator/Run/CalibrationEvaluation.h"

#include <CLI/CLI.hpp>
#include <string>

namespace nao::simcli
{
struct CalibrationCommand
{
  CalibrationSettings settings; ///< --robots, --worn, --seed, --minutes, --room, --jobs
  std::string output = "Build/Simulation/calibration";
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
