// The scenario script: the [Script] table of a scenario file (postures, keyframes, events) that the ScenarioPlayer
// plays and the simulator starts from, read from a file as the robot reads it. Refusals are exceptions naming the
// file; a script that loads has known poses, a valid loop index, events in time order and checked control events.
#include "Framework/ScenarioScript.h"
#include "FuzzSupport.h"
#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  static nao::fuzz::ScratchCleanup cleanup;
  const auto file = nao::fuzz::writeScratchFile("scenario.toml", {data, size});
  std::optional<nao::ScenarioScript> script;
  try
  {
    script = nao::ScenarioScript::load(file);
  }
  catch (const std::exception& error)
  {
    if (std::string_view(error.what()).empty()) std::abort(); // a refusal must say why
    return 0;
  }
  if (script->keyframes.empty() || script->loopFrom >= static_cast<int>(script->keyframes.size()))
    std::abort();
  script->pose(script->start); // throws (uncaught: a crash) if a loaded script names an unknown pose
  for (const nao::ScriptKeyframe& keyframe : script->keyframes)
    script->pose(keyframe.pose);
  // Control events (kind = "control"): sorted by time, each with a time in range and a line that is not blank.
  if (!std::is_sorted(script->controls.begin(), script->controls.end(),
                      [](const auto& a, const auto& b) { return a.time < b.time; }))
    std::abort();
  for (const nao::ScriptControlEvent& control : script->controls)
    if (!(control.time >= 0 && control.time <= 1e6) ||
        control.line.find_first_not_of(" \t") == std::string::npos)
      std::abort();
  return 0;
}
