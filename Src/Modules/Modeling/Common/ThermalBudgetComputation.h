#pragma once
// The per-robot thermal budget (ThermalBudget) from the per-joint forecast (JointThermalState), written once for the
// two that compute it: ThermalBudgetProvider on the robot, every frame, and `LogTool thermal` from a log that holds
// no ThermalBudget. Pure, cheap (two passes over 25 joints), no allocation.
#include "Representations/Infrastructure/Joints.h"
#include "Representations/Modeling/JointThermalState.h"
#include "Representations/Modeling/ThermalBudget.h"
#include "Tools/Thermal/ThermalNodes.h"

namespace nao
{
/// min, ThermalBudgetProvider's default restBelow, and LogTool's for a log that holds no ThermalBudget.
inline constexpr float defaultRestBelowMinutes = 5.f;

/// What the budget keeps from frame to frame: each joint's last usable time, held while its time is unusable (NaN or
/// negative), so that one faulty value moves nothing. A fresh one holds nothing.
struct ThermalBudgetMemory
{
  JointArray<float> presentTimes =
      filledWithNaN(); ///< s, last usable time to status 1 at the present load; NaN: none
  JointArray<float> sittingTimes = filledWithNaN(); ///< s, the same in the sitting posture

  static JointArray<float> filledWithNaN();
};

/// `state`'s budget into `budget`: minutes to status 1 (at the present load and sitting), the limiting and the
/// hottest joint, and shouldRest when a trusted joint's minutes are below `restBelowMinutes` (min). A joint without
/// estimate (not valid) counts for nothing; a joint whose time is unusable gets its held time, which counts as
/// learning. `memory` is updated.
void computeThermalBudget(const JointThermalState& state, float restBelowMinutes, ThermalBudgetMemory& memory,
                          ThermalBudget& budget);

/// A², each joint's mean squared current the last time the robot stood still on both feet (ThermalBudgetProvider
/// learns them); NaN where none is known.
using StandingLoads = JointArray<float>;

/// minutesIfStanding and standingForecast into `budget` (after computeThermalBudget): minutesLeft when `standingNow`;
/// else the minimum over the joints with an estimate of the time their fitted nodes reach the status-1 threshold at
/// the standing load (a joint without a known standing load: its present load); with no standing load known,
/// minutesLeft and standingForecast false.
void computeStandingBudget(const JointThermalState& state, const StandingLoads& loads, bool standingNow,
                           ThermalBudget& budget);

/// Joint `joint`'s fitted nodes as JointThermalState holds them (node 0 the slowest; unused nodes have τ 0).
ThermalNodes thermalNodesOf(const JointThermalState& state, std::size_t joint);

/// The same for one state alone (a log's last), with nothing held.
ThermalBudget thermalBudgetOf(const JointThermalState& state, float restBelowMinutes);
} // namespace nao
