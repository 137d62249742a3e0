#include "Framework/ScenarioScript.h"
#include "Tools/Streams/TomlFiles.h"
#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>

namespace nao
{
namespace
{
/// The optional `batteryCharge` of [Script] (0..1), taken out of the table so that the archive, which wants every
/// key it reads in every file, never sees it; −1 when the scenario has none. Erasing it keeps every other node's
/// position for the archive's errors.
float takeBatteryCharge(toml::table& script, const std::filesystem::path& scenarioFile)
{
  const toml::node* node = script.get("batteryCharge");
  if (!node) return -1.f;
  const std::optional<double> charge = node->value<double>();
  if (!charge || !(*charge >= 0.0 && *charge <= 1.0))
  {
    const toml::source_position where = node->source().begin;
    throw streams::ConfigError(streams::ConfigIssue{scenarioFile.string(), static_cast<int>(where.line),
                                                    static_cast<int>(where.column), "Script.batteryCharge",
                                                    "expected a charge within 0..1"});
  }
  script.erase("batteryCharge");
  return static_cast<float>(*charge);
}
/// The optional `targets` of [Script] as an archive reads them: a table holding only that key.
struct TargetList
{
  std::vector<ScriptTarget> targets;
  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& boost::serialization::make_nvp("targets", targets);
  }
};

/// The optional `targets` of [Script], taken out of the table as batteryCharge is. Positions stay in the nodes.
std::vector<ScriptTarget> takeTargets(toml::table& script)
{
  if (!script.contains("targets")) return {};
  toml::table only;
  only.insert("targets", std::move(*script.get("targets")));
  script.erase("targets");
  TargetList loaded;
  streams::loadFromTable(only, loaded);
  return std::move(loaded.targets);
}
/// A ConfigError at `node` (or at no position) for key `key`.
streams::ConfigError scriptError(const std::filesystem::path& scenarioFile, const toml::node* node,
                                 const std::string& key, const std::string& message)
{
  const toml::source_position where = node ? node->source().begin : toml::source_position{};
  return streams::ConfigError(streams::ConfigIssue{scenarioFile.string(), static_cast<int>(where.line),
                                                   static_cast<int>(where.column), key, message});
}

/// One `kind = "control"` entry, checked: `time` (s, 0..1e6) and a non-empty `line`, nothing else.
ScriptControlEvent controlEvent(const toml::table& entry, const std::string& key,
                                const std::filesystem::path& scenarioFile)
{
  for (const auto& [name, node] : entry)
    if (name != "time" && name != "kind" && name != "line")
      throw scriptError(scenarioFile, &node, key + "." + std::string(name.str()),
                        "a control event takes only time, kind and line");
  const toml::node* time = entry.get("time");
  const std::optional<double> seconds = time ? time->value<double>() : std::nullopt;
  if (!seconds || !(*seconds >= 0.0 && *seconds <= 1e6))
    throw scriptError(scenarioFile, time ? time : &entry, key + ".time",
                      "expected s since the start, 0..1e6");
  const toml::node* line = entry.get("line");
  const std::optional<std::string> text = line ? line->value<std::string>() : std::nullopt;
  if (!text || text->find_first_not_of(" \t") == std::string::npos)
    throw scriptError(scenarioFile, line ? line : &entry, key + ".line",
                      "expected a control line, e.g. \"push 45 0 0 for 0.1 at torso\"");
  return {*seconds, *text};
}

/// The `kind = "control"` entries of [[Script.events]], taken out of the table (the archive reads the others).
std::vector<ScriptControlEvent> takeControls(toml::table& script, const std::filesystem::path& scenarioFile)
{
  toml::array* events = script["events"].as_array();
  if (!events) return {}; // missing or not an array: the archive says so
  std::vector<ScriptControlEvent> controls;
  std::size_t index = 0;
  for (auto entry = events->begin(); entry != events->end(); ++index)
  {
    const toml::table* table = entry->as_table();
    const toml::node* kind = table ? table->get("kind") : nullptr;
    if (!kind || kind->value<std::string>() != "control")
    {
      ++entry;
      continue;
    }
    const std::string key = "Script.events[" + std::to_string(index) + "]";
    controls.push_back(controlEvent(*table, key, scenarioFile));
    entry = events->erase(entry);
  }
  std::stable_sort(controls.begin(), controls.end(),
                   [](const ScriptControlEvent& a, const ScriptControlEvent& b) { return a.time < b.time; });
  return controls;
}
} // namespace

ScenarioScript ScenarioScript::load(const std::filesystem::path& scenarioFile)
{
  toml::table file = streams::loadTomlFile(scenarioFile);
  toml::table* table = file["Script"].as_table();
  if (!table) throw std::runtime_error(scenarioFile.string() + ": the scenario has no [Script] table");
  ScenarioScript script;
  script.batteryCharge = takeBatteryCharge(*table, scenarioFile);
  script.targets = takeTargets(*table);
  script.controls = takeControls(*table, scenarioFile);
  streams::loadFromTable(*table, script);
  const std::string where = scenarioFile.string() + ": [Script]: ";
  if (script.keyframes.empty()) throw std::runtime_error(where + "no keyframes");
  script.pose(script.start);
  for (const ScriptKeyframe& keyframe : script.keyframes)
    script.pose(keyframe.pose);
  if (script.loopFrom >= static_cast<int>(script.keyframes.size()))
    throw std::runtime_error(where + "loopFrom = " + std::to_string(script.loopFrom) +
                             " but there are only " + std::to_string(script.keyframes.size()) + " keyframes");
  if (!std::is_sorted(script.events.begin(), script.events.end(),
                      [](const ScriptEvent& a, const ScriptEvent& b) { return a.time < b.time; }))
    throw std::runtime_error(where + "events must be in time order");
  if (!std::is_sorted(script.targets.begin(), script.targets.end(),
                      [](const ScriptTarget& a, const ScriptTarget& b) { return a.time < b.time; }))
    throw std::runtime_error(where + "targets must be in time order");
  return script;
}

ScenarioTargets ScenarioTargets::load(const ConfigFiles& files)
{
  if (files.scenarioFile.empty()) return {};
  const toml::table file = streams::loadTomlFile(files.scenarioFile);
  if (!file.contains("Script")) return {};
  return {ScenarioScript::load(files.scenarioFile).targets};
}

ScenarioScript ScenarioScript::load(const ConfigFiles& files)
{
  if (files.scenarioFile.empty())
    throw std::runtime_error("the module graph comes from no scenario file: there is no [Script] to play");
  return load(files.scenarioFile);
}

std::vector<float> ScenarioScript::transitionTimes(const JointArray<double>& velocityLimits) const
{
  std::vector<float> times;
  const ScriptPose* previous = &pose(start);
  for (const ScriptKeyframe& keyframe : keyframes)
  {
    const ScriptPose* target = &pose(keyframe.pose);
    float time = keyframe.duration;
    if (keyframe.speed > 0)
    {
      time = 0;
      for (std::size_t j = 0; j < numOfJoints; ++j)
      {
        const double move = std::abs(target->angles[j] - previous->angles[j]);
        if (velocityLimits[j] > 0)
          time = std::max(time, static_cast<float>(1.5 * move / (keyframe.speed * velocityLimits[j])));
      }
    }
    times.push_back(time);
    previous = target;
  }
  return times;
}

double ScenarioScript::scriptedEnd(const std::vector<float>& transitionTimes) const
{
  double end = 0;
  for (std::size_t k = 0; k < keyframes.size() && k < transitionTimes.size(); ++k)
  {
    end += transitionTimes[k];
    if (k + 1 < keyframes.size() || loopFrom >= 0) end += keyframes[k].hold;
  }
  for (const ScriptEvent& event : events)
    end =
        std::max(end, static_cast<double>(event.time) + (event.kind == ScriptEventKind::push ||
                                                                 event.kind == ScriptEventKind::pressButton ||
                                                                 event.kind == ScriptEventKind::drainBattery
                                                             ? static_cast<double>(event.duration)
                                                             : 0.0));
  for (const ScriptTarget& target : targets)
    end = std::max(end, static_cast<double>(target.time));
  for (const ScriptControlEvent& control :
       controls) // its duration is the simulator's to know: the margin covers it
    end = std::max(end, control.time);
  return end;
}

const ScriptPose& ScenarioScript::pose(const std::string& name) const
{
  for (const ScriptPose& candidate : poses)
    if (candidate.name == name) return candidate;
  std::string known;
  for (const ScriptPose& candidate : poses)
    known += (known.empty() ? "" : ", ") + candidate.name;
  throw std::runtime_error("[Script]: no pose named '" + name + "' (poses: " + known + ")");
}
} // namespace nao
