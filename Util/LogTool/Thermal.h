#pragma once
// `LogTool thermal LOG`: each joint's fitted thermal model and forecast from the last JointThermalState of a log
// (Src/Modules/Modeling/JointThermalStateProvider/README.md), a one-line summary of the robot and its budget
// (ThermalBudget). With `--overlay FILE` it also writes the status thresholds the robot taught into FILE, a robot's
// overlay of the provider. `LogTool thermal LOG LOG...`: one budget line per log, for a coach.
#include "Representations/Modeling/JointThermalState.h"
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

/// Writes the thresholds `state` holds as learned or taught into `file` (the provider's taught*Thresholds, °C,
/// rounded to 0.1 K), keeping every other key of an existing file and, per joint, the lower of its value and the
/// log's. The file is replaced only once the new text is complete; a file that does not parse is left as it is and
/// named in the streams::ConfigError thrown. Prints a line per threshold written.
void writeTaughtThresholds(const JointThermalState& state, const std::filesystem::path& file);
} // namespace nao
