#include "Modules/MotionControl/BHumanEnergySavingProvider/BHumanEnergySavingProvider.h"

#include <cmath>

namespace nao
{
void BHumanRounds::round(RoundContext& context)
{
  const FilteredCurrent& filtered = context.in.filtered;
  const bool normalStand = context.posture == EnergySavingPosture::stand;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const Joint joint = jointAt(j);
    const bool leg = isLegJoint(joint);
    if (normalStand && leg && joint != filtered.highestLegJoint) continue; // the hottest leg joint only
    const float current = filtered.currents[j];
    const float measured = context.in.sensors.angles[j];
    const float requested = context.in.request.angles[j];
    if (!context.enabled[j] || context.fadingOut[j] || context.held[j] ||
        !std::isfinite(context.in.sensors.currents[j]) || !std::isfinite(current) ||
        !std::isfinite(measured) || !std::isfinite(requested) ||
        std::abs(current) <= p_->currentThreshold(joint, context.adjustments[j]))
      continue;
    const float maxStep = leg ? p_->maxGearStepLegs : p_->maxGearStepArms;
    if (--context.status.counters[j] <= 0)
    {
      context.status.counters[j] = p_->stepsBeforeEmergencyStep;
      context.adjustments[j] += maxStep * static_cast<float>(context.signs[j]);
      context.status.emergencySteps += context.signs[j] != 0;
      continue;
    }
    const float difference = measured - (requested + context.baseOffsets[j]);
    const float size = std::abs(difference) > maxStep ? maxStep : p_->minGearStep;
    context.adjustments[j] += difference > 0.f ? size : -size;
  }
}

void BHumanRounds::accuratePositionsRound(RoundContext& context)
{
  stepLegsTowardsRequest(context, *p_, EmergencyStep::up);
}

BHumanEnergySavingProvider::BHumanEnergySavingProvider(const ModuleContext& context)
    : Module(context), rounds_(params()), cycle_(params(), rounds_)
{
}

void BHumanEnergySavingProvider::update(JointRequest& request, EnergySaving& energySaving)
{
  runCycle();
  cycle_.answer(get<StiffnessJointRequest>(), request);
  energySaving = cycle_.status();
}

void BHumanEnergySavingProvider::runCycle()
{
  rounds_.use(params());
  cycle_.run({get<StiffnessJointRequest>(), get<JointSensorData>(), get<FilteredCurrent>(), get<RobotModel>(),
              get<JointLimits>(), get<InertialSensorData>(), get<FsrSensorData>(), get<FrameInfo>(),
              get<EnergySavingRequest>(), get<JointTorques>(),
              motionSourceHolds(get<FallDownState>(), get<SitDown>(), get<FallProtection>())},
             params());
}

MAKE_MODULE(BHumanEnergySavingProvider);
} // namespace nao
