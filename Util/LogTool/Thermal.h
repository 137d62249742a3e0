#pragma once
// `LogTool thermal LOG`: each joint's fitted thermal model and forecast from the last JointThermalState of a log
// (Src/Modules/Modeling/JointThermalStateProvider/README.md), a one-line summary of the robot and its budget
// (ThermalBudget). With `--overlay FILE` it also writes the status thresholds the robot taught, its settled node
// gains and its ambient into FILE, a robot's overlay of the provider, so that the next run starts from them. `LogTool thermal LOG LOG...`: one budget line per log, for a coach.
#include "Representations/Modeling/JointThermalState.h"
#include <deque>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace nao
{
/// Prints the table and the summary to standard output (and writes the overlay, if one is named); 0, or 2 (with
/// what is missing on standard error) when the log holds no JointThermalState it can decode.
int printThermal(const std::string& path, const std::optional<std::filesystem::path>& overlay,
                 float restBelowMinutes);

/// One line per log: hottest joint, minutes left to status 1 and the joint that limits them, minutes if sitting,
/// whether the robot should rest; from the log's last ThermalBudget, else computed from its last JointThermalState
/// (computeThermalBudget, with `restBelowMinutes`). 0, or 2 when a log holds neither (its line then on standard error).
int printThermalBudgets(const std::vector<std::string>& paths, float restBelowMinutes);

/// Whether each joint's fit at the end of a log is one to keep across restarts: it saw a load (its estimate rose at
/// least minRise above its ambient in the log: gains the readings never showed are still the prior's) and it
/// settled (Σ g_i over the log's last settleWindow of filter time within settleSpread of its last value: a fit still
/// moving would start the next run confidently wrong). Fed every logged JointThermalState in order.
struct SettledFit
{
  static constexpr float minRise = 5.f;         ///< K
  static constexpr double settleWindow = 120.0; ///< s
  static constexpr float settleSpread = 0.15f;  ///< of Σ g_i

  void add(const JointThermalState& state);
  /// Joint j's fit at the last state added is to be kept; `spread` gets (max − min)/last of Σ g_i over the window.
  bool settled(std::size_t j, float& spread) const;

  JointArray<float> peakRises{}; ///< K, the highest T − T_amb of each joint in the log
  struct Sample
  {
    double time; ///< s, filter steps × 12 ms
    JointArray<float> rises;
  };
  std::deque<Sample> window; ///< Σ g_i of the states of the last settleWindow, oldest first
};

/// Writes what the robot taught into `file`, a robot's overlay of JointThermalStateProvider: the thresholds `state`
/// holds as learned or taught (taught*Thresholds, °C, rounded to 0.1 K; per joint the lower of the file's and the
/// log's), and the fit of each joint that `fit` calls settled (taughtNodeGains0..3, K/A², rounded to 0.01; replacing
/// the file's) with the robot's ambient (taughtAmbient, °C, the median of the valid joints' T_amb, rounded to 0.1),
/// keeping every other key of an existing file. The file is replaced only once the new text is complete; a file that
/// does not parse is left as it is and named in the streams::ConfigError thrown. Prints a line per value written.
void writeTaughtOverlay(const JointThermalState& state, const SettledFit& fit,
                        const std::filesystem::path& file);
} // namespace nao
