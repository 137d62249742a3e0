// events.csv: the scenario's events that happened and the sensor fault a run was given (RunRecorder.h), and the
// names the plots' event lines carry.
#include "Util/Simulator/Run/RunRecorder.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace nao
{
namespace
{
constexpr const char* eventsHeader =
    "time [s],event,force.x [N],force.y [N],force.z [N],duration [s],fault,control";
/// events.csv of a simulator from before serve --control's events: the same without the control column.
constexpr const char* faultEventsHeader =
    "time [s],event,force.x [N],force.y [N],force.z [N],duration [s],fault";
/// events.csv of a simulator from before sensor faults: the same without the fault column.
constexpr const char* olderEventsHeader = "time [s],event,force.x [N],force.y [N],force.z [N],duration [s]";
constexpr const char* faultEventName = "sensorFault"; ///< the event column of the fault's row
constexpr const char* controlEventName = "control";   ///< the event column of a user's row

std::vector<std::string> split(const std::string& line)
{
  std::vector<std::string> fields;
  std::stringstream stream(line);
  for (std::string field; std::getline(stream, field, ',');)
    fields.push_back(field);
  if (!line.empty() && line.back() == ',') fields.emplace_back(); // an empty last field is a field
  return fields;
}

[[noreturn]] void fail(const std::filesystem::path& file, int line, const std::string& what)
{
  throw std::runtime_error(file.string() + ":" + std::to_string(line) + ": " + what);
}

template<class Number = float>
Number number(const std::string& field, const std::filesystem::path& file, int line)
{
  Number value = 0;
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
  if (error != std::errc() || end != field.data() + field.size())
    fail(file, line, "'" + field + "' is not a number");
  return value;
}
} // namespace

std::string eventLabel(const ScriptEvent& event)
{
  if (event.kind == ScriptEventKind::pickUp) return "pick-up";
  if (event.kind == ScriptEventKind::putDown) return "put-down";
  char text[64];
  if (event.kind == ScriptEventKind::pressButton)
  {
    std::snprintf(text, sizeof(text), "chest button %.2f s", static_cast<double>(event.duration));
    return text;
  }
  if (event.kind == ScriptEventKind::drainBattery)
  {
    std::snprintf(text, sizeof(text), "battery drained in %.0f s", static_cast<double>(event.duration));
    return text;
  }
  const double force = std::hypot(event.force[0], event.force[1], event.force[2]);
  std::snprintf(text, sizeof(text), "push %.0f N, %.2f s", force, static_cast<double>(event.duration));
  return text;
}

void writeEvents(const std::filesystem::path& file, const std::vector<ScriptEvent>& events,
                 const std::optional<FaultEvent>& fault, const std::vector<ControlRecord>& controls)
{
  std::vector<std::pair<double, std::string>> rows; // time, the row: put in time order below
  for (const ScriptEvent& event : events)
  {
    std::ostringstream row;
    row << event.time << ',' << enumNames(event.kind)[static_cast<std::size_t>(event.kind)] << ','
        << event.force[0] << ',' << event.force[1] << ',' << event.force[2] << ','
        << (event.kind == ScriptEventKind::push ? event.duration : 0.f) << ",,";
    rows.emplace_back(event.time, row.str());
  }
  if (fault)
  {
    std::ostringstream row;
    row << fault->onset << ',' << faultEventName << ",0,0,0,"
        << (fault->end >= 0 ? fault->end - fault->onset : 0) << ',' << fault->name << ',';
    rows.emplace_back(fault->onset, row.str());
  }
  for (const ControlRecord& control : controls)
  {
    char time[32];
    std::snprintf(time, sizeof time, "%.10g", control.time); // exact to the frame however long the run
    rows.emplace_back(control.time,
                      std::string(time) + ',' + controlEventName + ",0,0,0,0,," + control.command);
  }
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::ofstream out(file);
  if (!out) throw std::runtime_error("cannot write " + file.string());
  out << eventsHeader << "\n";
  for (const auto& row : rows)
    out << row.second << "\n";
}

std::vector<ScriptEvent> readEvents(const std::filesystem::path& file, std::optional<FaultEvent>* fault,
                                    std::vector<ControlRecord>* controls)
{
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  std::string text;
  if (!std::getline(in, text) ||
      (text != eventsHeader && text != faultEventsHeader && text != olderEventsHeader))
    fail(file, 1, std::string("expected the header '") + eventsHeader + "'");
  const std::size_t columns = text == eventsHeader ? 8 : text == faultEventsHeader ? 7 : 6;
  std::vector<ScriptEvent> events;
  for (int line = 2; std::getline(in, text); ++line)
  {
    const std::vector<std::string> fields = split(text);
    if (fields.size() != columns) fail(file, line, "expected " + std::to_string(columns) + " fields");
    if (columns == 8 && fields[1] == controlEventName)
    {
      if (fields[7].empty()) fail(file, line, "a control event without its line");
      if (controls) controls->push_back({number<double>(fields[0], file, line), fields[7]});
      continue;
    }
    if (fields[1] == faultEventName)
    {
      const float onset = number(fields[0], file, line), duration = number(fields[5], file, line);
      if (fields[6].empty()) fail(file, line, "a sensor fault without its name");
      if (fault) *fault = FaultEvent{fields[6], onset, duration > 0 ? onset + duration : -1.0};
      continue;
    }
    ScriptEvent event;
    const auto names = enumNames(event.kind);
    const auto kind = std::find(names.begin(), names.end(), fields[1]);
    if (kind == names.end()) fail(file, line, "'" + fields[1] + "' is not an event");
    event.kind = static_cast<ScriptEventKind>(kind - names.begin());
    float* const values[] = {&event.time, &event.force[0], &event.force[1], &event.force[2], &event.duration};
    const std::size_t at[] = {0, 2, 3, 4, 5};
    for (std::size_t k = 0; k < 5; ++k)
      *values[k] = number(fields[at[k]], file, line);
    events.push_back(event);
  }
  return events;
}
} // namespace nao
