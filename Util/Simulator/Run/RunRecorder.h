#pragma once
// Writes a run's samples as CSV and draws them with gnuplot (Debian gnuplot-nox, headless PNG): currents,
// temperatures, stiffness commands, angles, tracking errors and foot forces over time, with the scenario's
// events (pick-up, put-down, push) and the sensor fault marked. The CSV's columns come from one table (runColumns()); every header
// names its unit the way every output of the project does: `current.LKneePitch [A]` (streams::labelWithUnit).
#include "Framework/ScenarioScript.h"
#include "Tools/Streams/Field.h"
#include "Util/Simulator/Run/SimulationTypes.h"

#include <optional>
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

/// The scenario events that happened in the run, the sensor fault if it began and the events a user sent over serve
/// --control, in time order: `time [s],event,force.x [N],force.y [N],force.z [N],duration [s],fault,control` per
/// event; the fault's row has the event `sensorFault`, its duration (0: to the end of the run) and its name; a user's
/// row has the event `control` and the control line that repeats it (RunEvents.cpp).
void writeEvents(const std::filesystem::path& file, const std::vector<ScriptEvent>& events,
                 const std::optional<FaultEvent>& fault = std::nullopt,
                 const std::vector<ControlRecord>& controls = {});

/// The events writeEvents wrote (also an older simulator's, without the control or the fault column); the fault's
/// row goes into `fault`, the user's rows into `controls`, if given. Throws std::runtime_error naming the file, the
/// line and what is wrong.
std::vector<ScriptEvent> readEvents(const std::filesystem::path& file,
                                    std::optional<FaultEvent>* fault = nullptr,
                                    std::vector<ControlRecord>* controls = nullptr);

/// The name of an event's line in the plots: "pick-up", "push 45 N, 0.10 s", "chest button 0.20 s".
std::string eventLabel(const ScriptEvent& event);

/// The gnuplot script that draws the CSV into PNGs next to it (`<name>.png` per plot, returned in `pngs`): one
/// colour per joint, right joints dashed, events as vertical lines named at the top, the same margins in every
/// panel (so that the panels' time axes and event lines line up). It names its files relative to the CSV's folder,
/// where gnuplot runs it. A user's events (`controls`) are lines too, named by their control line.
std::string plotScript(const std::filesystem::path& csv, const std::string& title,
                       const std::vector<ScriptEvent>& events, std::vector<std::filesystem::path>& pngs,
                       const std::optional<FaultEvent>& fault = std::nullopt,
                       const std::vector<ControlRecord>& controls = {});

/// PNG plots of the CSV next to it (legs, which carry the load, and the other joints, in separate panels);
/// the script is kept as plots.gp. Returns the files written; throws std::runtime_error if gnuplot is
/// missing or fails.
std::vector<std::filesystem::path> plotCsv(const std::filesystem::path& csv, const std::string& title,
                                           const std::vector<ScriptEvent>& events,
                                           const std::optional<FaultEvent>& fault = std::nullopt,
                                           const std::vector<ControlRecord>& controls = {});
} // namespace nao
