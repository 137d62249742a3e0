#include "Modules/MotionControl/BHumanEnergySavingProvider/BHumanEnergySavingProvider.h"

#include <cmath>

namespace nao
{
void BHumanRounds::round(RoundContext& context, const HeatAdjustmentParameters& p)
{
  const FilteredCurrent& filtered = context.in.get<FilteredCurrent>();
  const JointSensorData& sensors = context.in.get<JointSensorData>();
  const bool normalStand = context.posture == EnergySavingPosture::stand;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const Joint joint = jointAt(j);
    const bool leg = isLegJoint(joint);
    if (normalStand && leg && joint != filtered.highestLegJoint) continue; // the hottest leg joint only
    const float current = filtered.currents[j];
    const float measured = sensors.angles[j];
    const float requested = context.in.get<StiffnessJointRequest>().angles[j];
    if (!context.enabled[j] || context.fadingOut[j] || context.held[j] ||
        !std::isfinite(sensors.currents[j]) || !std::isfinite(current) || !std::isfinite(measured) ||
        !std::isfinite(requested) || std::abs(current) <= p.currentThreshold(joint, context.adjustments[j]))
      continue;
    const float maxStep = leg ? p.maxGearStepLegs : p.maxGearStepArms;
    if (--context.status.counters[j] <= 0)
    {
      context.status.counters[j] = p.stepsBeforeEmergencyStep;
      context.adjustments[j] += maxStep * static_cast<float>(context.signs[j]);
      context.status.emergencySteps += context.signs[j] != 0;
      continue;
    }
    const float difference = measured - (requested + context.baseOffsets[j]);
    const float size = std::abs(difference) > maxStep ? maxStep : p.minGearStep;
    context.adjustments[j] += difference > 0.f ? size : -size;
  }
}

void BHumanRounds::accuratePositionsRound(RoundContext& context, const HeatAdjustmentParameters& p)
{
  stepLegsTowardsRequest(context, p, EmergencyStep::up);
}

MAKE_MODULE(BHumanEnergySavingProvider);
} // namespace nao
