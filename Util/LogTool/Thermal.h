#pragma once
// `LogTool thermal LOG`: each joint's fitted thermal model and forecast from the last JointThermalState of a log
// (Src/Modules/Modeling/JointThermalStateProvider/README.md), and a one-line summary of the robot. With `--overlay
// FILE` it also writes the status thresholds the robot taught into FILE, a robot's overlay of the provider.
#include "Representations/Modeling/JointThermalState.h"
#include <filesystem>
#include <optional>
#include <string>

namespace nao
{
/// Prints the table and the summary to standard output (and writes the overlay, if one is named); 0, or 2 (with
/// what is missing on standard error) when the log holds no JointThermalState it can decode.
int printThermal(const std::string& path, const std::optional<std::filesystem::path>& overlay = std::nullopt);

/// Writes the thresholds `state` holds as learned or taught into `file` (the provider's taught*Thresholds, °C,
/// rounded to 0.1 K), keeping every other key of an existing file and, per joint, the lower of its value and the
/// log's. The file is replaced only once the new text is complete; a file that does not parse is left as it is and
/// named in the streams::ConfigError thrown. Prints a line per threshold written.
void writeTaughtThresholds(const JointThermalState& state, const std::filesystem::path& file);
} // namespace nao
