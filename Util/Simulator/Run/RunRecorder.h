#pragma once
// Writes a run's samples as CSV and draws them with gnuplot (Debian gnuplot-nox, headless PNG): currents,
// temperatures and stiffness commands per joint over time.
#include "Util/Simulator/Run/SimulationRun.h"

namespace nao
{
/// One row per sample: time, then current, temperature, status and stiffness command of each joint (LoLA
/// names).
void writeCsv(const std::filesystem::path& file, const std::vector<RunSample>& samples);

/// PNG plots of the CSV next to it (legs, which carry the load, and the other joints, in separate panels).
/// Returns the files written; throws std::runtime_error if gnuplot is missing or fails.
std::vector<std::filesystem::path> plotCsv(const std::filesystem::path& csv, const std::string& title);
} // namespace nao
