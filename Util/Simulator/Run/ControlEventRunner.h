#pragma once
// The run thread's side of the events a user sends into a running simulation (ControlEvents.h): each is applied to
// the plant, the sensor fault or the script at the start of a frame, recorded in the result (events.csv) and
// answered with what was applied where, or with why nothing was (an unknown body, preset, variant or fault).
#include "Util/Simulator/Physics/PlantVariants.h"
#include "Util/Simulator/Physics/SimConfig.h"
#include "Util/Simulator/Physics/SimulatedRobot.h"
#include "Util/Simulator/Run/ControlEvents.h"
#include "Util/Simulator/Run/SimulationTypes.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace nao
{
/// What an event changes, owned by the run (SimulationRun.cpp's frame loop).
struct ControlledRun
{
  sim::SimulatedRobot& simulation;
  std::optional<SensorFaultInjector>& fault;
  sim::VariantEffect& variant;
  std::size_t& nextEvent; ///< the script's next event
  double& scriptStart;    ///< s of simulated time the script's times count from (0; a restart moves it)
  bool& torsoHeld;        ///< a variant's hold of the torso has been taken
  SimulationResult& result;
};

/// The run's replay list: `replay` (--replay) and the scenario's control events (its [[Script.events]] of kind
/// "control", ScenarioScript::controls), in time order. Throws std::runtime_error naming the scenario file, the event
/// and what is wrong for a line that is no event.
std::vector<ControlRecord> withScriptControls(const std::vector<ControlRecord>& replay,
                                              const ScenarioScript& script,
                                              const std::filesystem::path& scenarioFile);

class ControlEventRunner
{
public:
  /// `config`: the simulator's configuration as loaded, before any variant; `start`: the script's start posture;
  /// `initialCharge`: the battery's charge at the start. Throws std::runtime_error naming the first line of
  /// options.replay that is no event.
  ControlEventRunner(const SimulationOptions& options, const sim::SimConfig& config, sim::JointValues start,
                     double initialCharge);

  /// Applies `event` at the start of frame `frame` (packets sent so far). Returns the reply: "applied <line> at
  /// frame N (T s)", or "error: line L: '<line>': <what>" when it changed nothing.
  std::string apply(ControlEvent event, ControlledRun& run, std::uint64_t frame);

  /// The events of options.replay due by the simulated time now, each applied and its reply given to `answer`.
  void applyReplay(ControlledRun& run, std::uint64_t frame,
                   const std::function<void(const std::string&)>& answer);

private:
  /// Each returns what is wrong (nothing changed), or empty.
  std::string push(ControlEvent& event, ControlledRun& run) const;
  std::string changePlant(const ControlEvent& event, ControlledRun& run);
  std::string setFault(const ControlEvent& event, ControlledRun& run) const;
  void restart(ControlledRun& run);
  /// The plant of `preset` and `variant` (empty: none) on the run's robot; throws std::runtime_error naming the
  /// known ones when there is none of that name.
  void usePlant(const std::string& preset, const std::string& variant, ControlledRun& run);

  const SimulationOptions& options_;
  sim::SimConfig config_;
  sim::JointValues start_;
  double initialCharge_;
  std::string preset_, variant_; ///< the plant now
  std::size_t nextReplay_ = 0;   ///< the next of options.replay
};
} // namespace nao
