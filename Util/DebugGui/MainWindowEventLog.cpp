// --sim's event log (issue 46): every event the simulator applied ("control: applied <line> at frame N (T s)") is
// kept in SimulationState::applied and sent to the robot as a note for its running log (`annotate`, refused and
// dropped when no log runs); File → Save events as scenario… writes the running scenario's file with the events
// appended as [[Script.events]] of kind "control" (Src/Modules/MotionControl/ScenarioPlayer/README.md), so that
// `Simulator run` repeats the run.
#include "Framework/Client/DebugClient.h"
#include "Framework/ScenarioScript.h"
#include "Tools/Streams/TomlFiles.h"
#include "Util/DebugGui/MainWindow.h"
#include "Util/DebugGui/TomlSplice.h"
#include <QFileDialog>
#include <QMenu>
#include <QRegularExpression>
#include <QStatusBar>
#include <cmath>
#include <fstream>
#include <sstream>

namespace nao::gui
{
namespace
{
/// A TOML basic string holding `text`.
std::string tomlString(const std::string& text)
{
  std::string quoted = "\"";
  for (const char c : text)
    quoted += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
  return quoted + "\"";
}

/// The events of `applied` the scenario does not already hold as control events (a saved scenario run again
/// replays its own; they come back as applied events).
std::vector<MainWindow::AppliedEvent> newEvents(const std::vector<MainWindow::AppliedEvent>& applied,
                                                const ScenarioScript& script)
{
  std::vector<MainWindow::AppliedEvent> result;
  std::vector<ScriptControlEvent> own = script.controls;
  for (const MainWindow::AppliedEvent& event : applied)
  {
    const auto same =
        std::find_if(own.begin(), own.end(),
                     [&](const ScriptControlEvent& control)
                     { return control.line == event.line && std::abs(control.time - event.time) < 0.012; });
    if (same != own.end())
      own.erase(same);
    else
      result.push_back(event);
  }
  return result;
}
/// One event as the inline table `{ time = 3.024, kind = "control", line = "..." }`.
std::string inlineEvent(const MainWindow::AppliedEvent& event)
{
  char time[32];
  std::snprintf(time, sizeof time, "%.3f", event.time);
  return std::string("{ time = ") + time + ", kind = \"control\", line = " + tomlString(event.line) + " }";
}

/// The scenario's text with `events` added to [[Script.events]]: appended as entries after the file's end when the
/// file has the array of tables, else (`events = []`) written into the inline array; the rest of the file stays as it
/// was.
std::string withControlEvents(const std::string& text, const std::vector<MainWindow::AppliedEvent>& events,
                              const std::string& sourceName)
{
  std::string appended = text +
                         "\n# The events the simulator applied in the debug GUI (File → Save events as "
                         "scenario…): s since the script's start.\n";
  for (const MainWindow::AppliedEvent& event : events)
  {
    char time[32];
    std::snprintf(time, sizeof time, "%.3f", event.time);
    appended += std::string("\n[[Script.events]]\ntime = ") + time +
                "\nkind = \"control\"\nline = " + tomlString(event.line) + "\n";
  }
  try
  {
    streams::parseToml(appended, sourceName);
    return appended;
  }
  catch (const std::exception&) // `events = [...]`: an inline array cannot be extended by [[Script.events]]
  {
  }
  const toml::table table = streams::parseToml(text, sourceName);
  const toml::array* existing = table.at_path("Script.events").as_array();
  if (existing && !existing->empty())
    throw std::runtime_error(sourceName + ": its events are an inline array (events = [...]); write them as "
                                          "[[Script.events]] tables to save more after them");
  std::string inlineArray = "[";
  for (const MainWindow::AppliedEvent& event : events)
    inlineArray += (inlineArray.size() > 1 ? ",\n  " : "\n  ") + inlineEvent(event);
  return setTomlValue(text, "Script.events", inlineArray + "\n]", sourceName);
}
} // namespace

void MainWindow::logAppliedEvent(const std::string& reply)
{
  static const QRegularExpression applied("^applied (.+) at frame (\\d+) \\(([0-9.]+) s\\)$");
  const QRegularExpressionMatch match = applied.match(QString::fromStdString(reply));
  if (!match.hasMatch()) return;
  const std::string line = match.captured(1).toStdString(), frame = match.captured(2).toStdString();
  const double time = match.captured(3).toDouble();
  // A restart is kept as the others are: replayed at its time, it restarts the script there again, and the events
  // after it keep their simulated times (as --replay events.csv replays them).
  simulation_.applied.push_back({time, line});
  if (!link_ || !link_->connected()) return;
  link_->post(
      [this,
       note = "event: " + line + " (sim frame " + frame + ")"](DebugClient& client) -> std::function<void()>
      {
        if (!client.annotate(note).ok) return {}; // no log runs: nothing records it
        return [this] { ++simulation_.notes; };
      });
}

std::string MainWindow::saveEventsAsScenario(const std::filesystem::path& path) const
{
  if (simulation_.scenario.empty())
    return "no simulation ran (File → Simulate…): there are no events to save";
  const std::filesystem::path source = options_.config / "Scenarios" / (simulation_.scenario + ".toml");
  std::ifstream in(source);
  if (!in) return "cannot read the scenario " + source.string();
  std::ostringstream text;
  text << in.rdbuf();
  std::string saved;
  try
  {
    saved = withControlEvents(text.str(), newEvents(simulation_.applied, ScenarioScript::load(source)),
                              source.string());
  }
  catch (const std::exception& error)
  {
    return error.what();
  }
  std::ofstream out(path);
  if (!(out << saved) || !out.flush()) return "cannot write " + path.string();
  return {};
}

void MainWindow::addEventLogActions(QMenu* file)
{
  QAction* save = file->addAction(
      "Save &events as scenario…",
      [this]
      {
        const QString suggested = QString::fromStdString(
            (options_.config / "Scenarios" / (simulation_.scenario + "-events.toml")).string());
        const QString path =
            QFileDialog::getSaveFileName(this, "Save events as scenario", suggested, "Scenarios (*.toml)");
        if (path.isEmpty()) return;
        const std::string error = saveEventsAsScenario(path.toStdString());
        statusBar()->showMessage(error.empty() ? "saved " + QString::number(simulation_.applied.size()) +
                                                     " events in " + path
                                               : QString::fromStdString("not saved: " + error));
      });
  save->setObjectName("saveEventsAsScenario");
}
} // namespace nao::gui
