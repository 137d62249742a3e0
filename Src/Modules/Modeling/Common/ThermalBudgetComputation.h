#pragma once
// The per-robot thermal budget (ThermalBudget) from the per-joint forecast (JointThermalState), written once for the
// two that compute it: ThermalBudgetProvider on the robot, every frame, and `LogTool thermal` from a log that holds
// no ThermalBudget. Pure, cheap (two passes over 25 joints), no allocation.
#include "Representations/Infrastructure/Joints.h"
#include "Representations/Modeling/JointThermalState.h"
#include "Representations/Modeling/ThermalBudget.h"

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

/// The same for one state alone (a log's last), with nothing held.
ThermalBudget thermalBudgetOf(const JointThermalState& state, float restBelowMinutes);
} // namespace nao
