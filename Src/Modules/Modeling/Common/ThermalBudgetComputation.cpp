#include "Modules/Modeling/Common/ThermalBudgetComputation.h"
#include <algorithm>
#include <cmath>
#include <limits>

namespace nao
{
namespace
{
constexpr float infinity = std::numeric_limits<float>::infinity();
constexpr float secondsPerMinute = 60.f;

/// A time to a status is usable when it is 0 (there), positive or +∞ (never); NaN and negative ones are faults.
bool usable(float seconds)
{
  return !std::isnan(seconds) && seconds >= 0.f;
}

/// `seconds` if usable (and remembered in `held`), else the held one; `fromHeld` says which.
float timeOrHeld(float seconds, float& held, bool& fromHeld)
{
  fromHeld = !usable(seconds);
  if (!fromHeld) held = seconds;
  return fromHeld ? held : seconds;
}

/// Minutes to status 1 in the sitting posture: the minimum over the joints with an estimate of its reachTimes[0].
float sittingMinutes(const JointThermalState& state, ThermalBudgetMemory& memory)
{
  float least = infinity;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    if (!state.valid[j]) continue;
    bool fromHeld = false;
    const float seconds = timeOrHeld(state.posture.reachTimes[0][j], memory.sittingTimes[j], fromHeld);
    if (!std::isnan(seconds) && seconds < least) least = seconds;
  }
  return least / secondsPerMinute;
}
} // namespace

JointArray<float> ThermalBudgetMemory::filledWithNaN()
{
  JointArray<float> array;
  array.fill(std::numeric_limits<float>::quiet_NaN());
  return array;
}

void computeThermalBudget(const JointThermalState& state, float restBelowMinutes, ThermalBudgetMemory& memory,
                          ThermalBudget& budget)
{
  budget = ThermalBudget{};
  float least = infinity, leastTrusted = infinity;
  bool leastUntrusted = false, anyUntrusted = false;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    if (!state.valid[j]) continue;
    const Joint joint = jointAt(j);
    const float temperature = state.temperatures[j];
    if (std::isfinite(temperature) && (!budget.estimated || temperature > budget.hottestTemperature))
    {
      budget.hottestJoint = joint;
      budget.hottestTemperature = temperature;
    }
    budget.estimated = true;
    bool fromHeld = false;
    const float seconds = timeOrHeld(state.hot.times[j], memory.presentTimes[j], fromHeld);
    if (fromHeld) ++budget.unusableTimes;
    if (std::isnan(seconds)) continue; // unusable and nothing held: counts for nothing
    const bool trusted = !fromHeld && !state.learning[j];
    anyUntrusted = anyUntrusted || !trusted;
    if (seconds < least)
    {
      least = seconds;
      budget.limitingJoint = joint;
      leastUntrusted = !trusted;
    }
    if (trusted && seconds < leastTrusted) leastTrusted = seconds;
  }
  budget.minutesLeft = least / secondsPerMinute;
  budget.limited = std::isfinite(least);
  // "Never" is trusted only when every joint's forecast is: a learning joint's "never" may still come.
  budget.learning = budget.limited ? leastUntrusted : anyUntrusted || !budget.estimated;
  // Rest only on a trusted joint's word: a learning joint that says "2 min" does not send the robot off, a trusted
  // one that says "4 min" does even when a learning one says less.
  budget.shouldRest = leastTrusted / secondsPerMinute < restBelowMinutes;
  budget.sittingForecast = state.posture.name == PostureName::sit;
  budget.minutesIfSitting = budget.sittingForecast ? sittingMinutes(state, memory) : budget.minutesLeft;
}

ThermalNodes thermalNodesOf(const JointThermalState& state, std::size_t joint)
{
  ThermalNodes nodes;
  nodes.ambient = state.ambients[joint];
  nodes.slowest = state.nodeTimeConstants[0];
  for (std::size_t i = 0; i < JointThermalState::maxNodes && state.nodeTimeConstants[i] > 0; ++i)
  {
    nodes.powers[i] = static_cast<int>(std::lround(nodes.slowest / state.nodeTimeConstants[i]));
    nodes.rises[i] = state.nodeRises[i][joint];
    nodes.gains[i] = state.nodeGains[i][joint];
    nodes.nodes = static_cast<int>(i) + 1;
  }
  return nodes;
}

void computeStandingBudget(const JointThermalState& state, const StandingLoads& loads, bool standingNow,
                           ThermalBudget& budget)
{
  budget.standing = standingNow;
  bool known = false;
  for (const float load : loads)
    known = known || std::isfinite(load);
  budget.standingForecast = standingNow || known;
  budget.minutesIfStanding = budget.minutesLeft;
  if (standingNow || !known) return;
  float least = infinity;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    if (!state.valid[j]) continue;
    const ThermalNodes nodes = thermalNodesOf(state, j);
    const float present = state.rmsCurrents[j] * state.rmsCurrents[j];
    const double load = std::isfinite(loads[j]) ? loads[j] : present;
    const double threshold = state.hot.thresholds[j];
    if (nodes.nodes == 0 || !std::isfinite(load) || !std::isfinite(threshold)) continue;
    const auto seconds = static_cast<float>(timeToReach(nodes, load, threshold));
    if (!std::isnan(seconds) && seconds >= 0.f) least = std::min(least, seconds);
  }
  budget.minutesIfStanding = least / secondsPerMinute;
}

ThermalBudget thermalBudgetOf(const JointThermalState& state, float restBelowMinutes)
{
  ThermalBudgetMemory memory;
  ThermalBudget budget;
  computeThermalBudget(state, restBelowMinutes, memory, budget);
  return budget;
}
} // namespace nao
