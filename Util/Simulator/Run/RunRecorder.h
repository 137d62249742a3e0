#pragma once
// Writes a run's samples as CSV and draws them with gnuplot (Debian gnuplot-nox, headless PNG): currents,
// temperatures, stiffness commands, angles, tracking errors and foot forces over time, with the scenario's
// events (pick-up, put-down, push) marked. The CSV's columns come from one table (runColumns()); every header
// names its unit the way every output of the project does: `current.LKneePitch [A]` (streams::labelWithUnit).
#include "Framework/ScenarioScript.h"
#include "Tools/Streams/Field.h"
#include "Util/Simulator/Run/SimulationRun.h"

#include <span>

namespace nao
{
/// One quantity of the run CSV: 25 columns `<name>.<Joint> [unit]` (LoLA joint names) or one `<name> [unit]`.
struct RunColumn
{
  const char* name;
  streams::Unit unit;
  bool perJoint;
  double (*get)(const RunSample& sample, std::size_t joint); ///< joint is 0 for a single column
  void (*set)(RunSample& sample, std::size_t joint, double value);
};

/// The columns of the run CSV, in file order (time first).
std::span<const RunColumn> runColumns();

/// The header labels of the run CSV, in file order: "time [s]", "current.HeadYaw [A]", ...
std::vector<std::string> runCsvHeader();

/// One row per sample, the columns of runColumns().
void writeCsv(const std::filesystem::path& file, const std::vector<RunSample>& samples);

/// A run's samples from its CSV, found by header label. Throws std::runtime_error naming the file, the line
/// and what is wrong (e.g. a missing column).
std::vector<RunSample> readSamples(const std::filesystem::path& csv);

/// The scenario events that happened in the run: `time [s],event,force.x [N],...` per event.
void writeEvents(const std::filesystem::path& file, const std::vector<ScriptEvent>& events);

/// The events writeEvents wrote. Throws std::runtime_error naming the file, the line and what is wrong.
std::vector<ScriptEvent> readEvents(const std::filesystem::path& file);

/// The gnuplot script that draws the CSV into PNGs next to it (`<name>.png` per plot, returned in `pngs`): one
/// colour per joint, right joints dashed, events as vertical lines named at the top, the same margins in every
/// panel (so that the panels' time axes and event lines line up). It names its files relative to the CSV's folder,
/// where gnuplot runs it.
std::string plotScript(const std::filesystem::path& csv, const std::string& title,
                       const std::vector<ScriptEvent>& events, std::vector<std::filesystem::path>& pngs);

/// PNG plots of the CSV next to it (legs, which carry the load, and the other joints, in separate panels);
/// the script is kept as plots.gp. Returns the files written; throws std::runtime_error if gnuplot is
/// missing or fails.
std::vector<std::filesystem::path> plotCsv(const std::filesystem::path& csv, const std::string& title,
                                           const std::vector<ScriptEvent>& events);
} // namespace nao
