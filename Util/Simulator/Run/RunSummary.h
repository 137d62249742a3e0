#pragma once
// A run's summary as a small CSV file (summary.csv next to the run's CSV), written by every run and read back
// by ensemble reports, also for runs made elsewhere (a job list on other hosts):
//   scenario,stand            one "key,value" line per run field ...
//   joint,meanCurrent [A],... then a table with one row per LoLA joint.
#include "Util/Simulator/Run/SimulationTypes.h"

#include <filesystem>

namespace nao
{
void writeSummary(const std::filesystem::path& file, const SimulationResult& result);

/// The summary fields of a SimulationResult (no samples). Throws std::runtime_error naming the file, the line
/// and what is wrong.
SimulationResult readSummary(const std::filesystem::path& file);

} // namespace nao
