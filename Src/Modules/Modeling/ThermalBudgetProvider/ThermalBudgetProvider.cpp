#include "Modules/Modeling/ThermalBudgetProvider/ThermalBudgetProvider.h"
#include <cmath>

namespace nao
{
void ThermalBudgetProvider::update(ThermalBudget& budget)
{
  const JointThermalState& state = get<JointThermalState>();
  computeThermalBudget(state, params().restBelow, memory_, budget);
  const bool standing = standsStill();
  // The forecast's present load is the stand's: its window restarts where the load changes (JointThermalState).
  if (standing)
    for (std::size_t j = 0; j < numOfJoints; ++j)
      if (state.valid[j] && std::isfinite(state.rmsCurrents[j]))
        standingLoads_[j] = state.rmsCurrents[j] * state.rmsCurrents[j];
  computeStandingBudget(state, standingLoads_, standing, budget);
}

bool ThermalBudgetProvider::standsStill()
{
  const JointSensorData& joints = get<JointSensorData>();
  const FsrSensorData& soles = get<FsrSensorData>();
  const double now = get<FrameInfo>().time;
  // NaN angles or weights fail every comparison: a faulty reading ends a stand, it never makes one.
  const bool loaded = soles.left.hasPressure && soles.right.hasPressure &&
                      soles.left.totalWeight + soles.right.totalWeight >= params().standWeight;
  bool still = loaded && standStart_ >= 0;
  for (std::size_t j = 0; j < numOfJoints && still; ++j)
    if (isLegJoint(jointAt(j)))
      still = std::abs(joints.angles[j] - standAngles_[j]) <= params().standStillness;
  if (!still)
  {
    standStart_ = loaded ? now : -1;
    standAngles_ = joints.angles;
    return false;
  }
  return now - standStart_ >= params().standHold;
}

MAKE_MODULE(ThermalBudgetProvider);
} // namespace nao
