#include "Util/Simulator/Run/ControlEventRunner.h"

#include "Util/Simulator/Run/SimulationSteps.h"

#include <Eigen/Core>
#include <algorithm>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace nao
{
namespace
{
std::size_t buttonIndex(const std::string& name)
{
  return static_cast<std::size_t>(std::find(controlButtons.begin(), controlButtons.end(), name) -
                                  controlButtons.begin());
}

std::size_t jointIndex(const std::string& name)
{
  return static_cast<std::size_t>(std::find(jointNames.begin(), jointNames.end(), name) - jointNames.begin());
}
} // namespace

std::vector<ControlRecord> withScriptControls(const std::vector<ControlRecord>& replay,
                                              const ScenarioScript& script,
                                              const std::filesystem::path& scenarioFile)
{
  std::vector<ControlRecord> merged = replay;
  for (std::size_t k = 0; k < script.controls.size(); ++k)
  {
    const ScriptControlEvent& control = script.controls[k];
    const auto parsed = parseControlLine(control.line);
    if (!parsed || !parsed->event)
      throw std::runtime_error(
          scenarioFile.string() + ": control event " + std::to_string(k + 1) + " (time " +
          std::to_string(control.time) + " s), line '" + control.line +
          "': " + (parsed ? parsed->error : "not an event (" + std::string(controlEventSyntax) + ")"));
    merged.push_back({control.time, control.line});
  }
  std::stable_sort(merged.begin(), merged.end(),
                   [](const ControlRecord& a, const ControlRecord& b) { return a.time < b.time; });
  return merged;
}

ControlEventRunner::ControlEventRunner(const SimulationOptions& options, const sim::SimConfig& config,
                                       sim::JointValues start, double initialCharge)
    : options_(options), config_(config), start_(start), initialCharge_(initialCharge),
      preset_(options.preset), variant_(options.variant)
{
  for (std::size_t k = 0; k < options.replay.size(); ++k)
  {
    const auto parsed = parseControlLine(options.replay[k].command);
    if (!parsed || !parsed->event)
      throw std::runtime_error("--replay: event " + std::to_string(k + 1) + ", '" +
                               options.replay[k].command +
                               "': " + (parsed ? parsed->error : std::string("not an event")));
  }
}

void ControlEventRunner::applyReplay(ControlledRun& run, std::uint64_t frame,
                                     const std::function<void(const std::string&)>& answer)
{
  const std::vector<ControlRecord>& replay = options_.replay;
  for (; nextReplay_ < replay.size() && replay[nextReplay_].time <= run.simulation.time() + 1e-9;
       ++nextReplay_)
  {
    ControlEvent event = *parseControlLine(replay[nextReplay_].command)->event; // checked when constructed
    event.line = nextReplay_ + 1;
    event.text = replay[nextReplay_].command;
    answer(apply(std::move(event), run, frame));
  }
}

std::string ControlEventRunner::apply(ControlEvent event, ControlledRun& run, std::uint64_t frame)
{
  sim::SimulatedRobot& simulation = run.simulation;
  std::string error;
  using K = ControlEventKind;
  switch (event.kind)
  {
  case K::push:
    error = push(event, run);
    break;
  case K::pickUp:
    simulation.pickUp();
    break;
  case K::putDown:
    simulation.putDown();
    break;
  case K::press:
    simulation.pressButton(buttonIndex(event.name), event.seconds);
    break;
  case K::hold:
    simulation.pressButton(buttonIndex(event.name), std::numeric_limits<double>::infinity());
    break;
  case K::release:
    simulation.pressButton(buttonIndex(event.name), 0.0);
    break;
  case K::battery:
    simulation.setBatteryCharge(event.value);
    break;
  case K::drain:
    simulation.drainBattery(event.seconds);
    break;
  case K::temperature:
    simulation.setWindingTemperature(jointIndex(event.name), event.value);
    break;
  case K::preset:
  case K::variant:
    error = changePlant(event, run);
    break;
  case K::fault:
  case K::faultClear:
    error = setFault(event, run);
    break;
  case K::restart:
    restart(run);
    break;
  }
  if (!error.empty())
  {
    const std::string quoted = event.text.size() <= 80 ? event.text : event.text.substr(0, 77) + "...";
    return "error: line " + std::to_string(event.line) + ": '" + quoted + "': " + error;
  }
  const std::string line = controlLine(event);
  run.result.controlEvents.push_back({simulation.time(), line});
  char at[64];
  std::snprintf(at, sizeof at, " at frame %llu (%.3f s)", static_cast<unsigned long long>(frame),
                simulation.time());
  return "applied " + line + at;
}

std::string ControlEventRunner::push(ControlEvent& event, ControlledRun& run) const
{
  if (event.name.empty()) event.name = config_.physics.torsoLink;
  const int body = run.simulation.bodyId(event.name);
  if (body < 0)
  {
    std::string names;
    for (const std::string& name : run.simulation.bodyNames())
      names += (names.empty() ? "" : ", ") + name;
    return "unknown body '" + event.name + "' (" + names + ")";
  }
  run.simulation.push(Eigen::Vector3d(event.force[0], event.force[1], event.force[2]), event.seconds, body);
  return {};
}

std::string ControlEventRunner::changePlant(const ControlEvent& event, ControlledRun& run)
{
  const bool preset = event.kind == ControlEventKind::preset;
  const std::string name = event.name == (preset ? "normal" : "none") ? "" : event.name;
  try
  {
    usePlant(preset ? name : preset_, preset ? variant_ : name, run);
  }
  catch (const std::exception& error)
  {
    return error.what();
  }
  return {};
}

void ControlEventRunner::usePlant(const std::string& preset, const std::string& variant, ControlledRun& run)
{
  SimulationOptions options = options_;
  options.preset = preset;
  options.variant = variant;
  sim::SimConfig config = config_;
  sim::VariantEffect effect;
  const sim::RobotVariation robot = drawSimulatedRobot(options, config, effect); // throws before any change
  run.simulation.changePlant(config, robot);
  // A torso a variant held stays held (SimulatedRobot::holdTorso is for good); a new one is taken by the loop.
  if (!run.torsoHeld) run.variant = effect;
  preset_ = preset;
  variant_ = variant;
}

std::string ControlEventRunner::setFault(const ControlEvent& event, ControlledRun& run) const
{
  if (event.kind == ControlEventKind::faultClear)
  {
    run.fault.reset();
    return {};
  }
  try
  {
    const SensorFaults faults = loadSensorFaults(options_.configDirectory);
    run.fault.emplace(findFault(faults, event.name), run.simulation.time(), run.simulation.frameTime());
  }
  catch (const std::exception& error)
  {
    return error.what();
  }
  return {};
}

void ControlEventRunner::restart(ControlledRun& run)
{
  run.simulation.resetToPosture(start_); // ends a pick-up, a push, the buttons and a drain
  run.simulation.setBatteryCharge(initialCharge_);
  run.nextEvent = 0;
  run.scriptStart = run.simulation.time();
  run.torsoHeld = false; // resetToPosture let go of it
  if (preset_ != options_.preset || variant_ != options_.variant)
    usePlant(options_.preset, options_.variant, run);
  run.fault.reset();
  if (!options_.fault.empty())
    run.fault.emplace(findFault(loadSensorFaults(options_.configDirectory), options_.fault),
                      run.scriptStart + options_.faultAt, run.simulation.frameTime());
}
} // namespace nao
