#pragma once
// `Simulator thermal`: JointThermalStateProvider's forecast of the time to temperature status 1 against the plant's
// (Util/Simulator/Run/ThermalForecast.h). Without folders it runs its own ensembles first (ThermalEnsembles.h: the
// unadjusted and the adjusted stand, sitting, stepping; the unadjusted stand teaches the thresholds of the learned
// tables); with folders it reads ensembles run before with --robot-logs. It prints the tables, writes thermal.md
// into the first folder and, with --markdown, into Docs/Results/ headed by the command.
#include "Util/Simulator/Run/ThermalEnsembles.h"
#include "Util/Simulator/Run/ThermalForecast.h"

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace nao::simcli
{
struct ThermalCommand
{
  ThermalEnsembleSettings
      settings; ///< --robots, --worn, --seed, --minutes, --variant, --jobs (without folders)
  std::string output = "Build/Simulation/thermal";
  bool keepLogs = false;                    ///< --keep-logs: the robots' logs stay after the evaluation
  std::vector<std::string> folders, labels; ///< ensembles run before, their names in the tables
  std::string teacher;                      ///< --learned-from (with folders)
  std::vector<double> horizons = defaultForecastHorizons; ///< s after the posture is held
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
