// One adjustment round of EnergySavingProvider and the reset condition checked after it. The decisions taken
// where the issue leaves room are listed at the top of EnergySavingProvider.cpp.
#include "Modules/MotionControl/EnergySavingProvider/EnergySavingProvider.h"
#include <algorithm>
#include <cmath>

namespace nao
{
namespace
{
float sign(float x)
{
  return x > 0.f ? 1.f : (x < 0.f ? -1.f : 0.f);
}
} // namespace

float EnergySavingProvider::threshold(Joint joint) const
{
  const float override = params().currentThresholdOverrides[joint];
  if (override > 0.f) return override;
  if (!isLegJoint(joint)) return params().armCurrentThreshold;
  return std::abs(status_.offsets[joint]) >= params().largeOffset ? params().legCurrentThresholdLargeOffset
                                                                  : params().legCurrentThreshold;
}

float EnergySavingProvider::steppedAdjustment(std::size_t joint, float step, float maxStep) const
{
  // The total offset stays within +-maxOffset. Should a live edit have shrunk maxOffset below the current
  // offset, the way back into range also goes in steps of at most maxStep: nothing jumps.
  const float current = adjustments_[joint];
  const float base = appliedBase(joint);
  const float target = std::clamp(current + step, -params().maxOffset - base, params().maxOffset - base);
  return current + std::clamp(target - current, -maxStep, maxStep);
}

void EnergySavingProvider::runRound()
{
  const JointSensorData& sensors = get<JointSensorData>();
  const FilteredCurrent& filtered = get<FilteredCurrent>();
  const JointArray<int>* signs = posture_ == EnergySavingPosture::stand ? &params().emergencyStepSignsStand
                                 : posture_ == EnergySavingPosture::highStand
                                     ? &params().emergencyStepSignsHighStand
                                     : nullptr;

  // With base offsets, one leg joint per round: the one with the highest current (among those we may adjust).
  // The base offsets already relieved every leg joint; moving several at once would make the legs fight each
  // other.
  int onlyLegJoint = -1;
  if (baseOffsetsActive_)
  {
    float highest = -1.f;
    for (std::size_t j = index(Joint::LHipYawPitch); j <= index(Joint::RAnkleRoll); ++j)
      if (enabled_[j] && std::isfinite(filtered.currents[j]) && std::abs(filtered.currents[j]) > highest)
      {
        highest = std::abs(filtered.currents[j]);
        onlyLegJoint = static_cast<int>(j);
      }
  }

  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const Joint joint = jointAt(j);
    const bool leg = isLegJoint(joint);
    if (!enabled_[j] || (leg && baseOffsetsActive_ && static_cast<int>(j) != onlyLegJoint)) continue;
    const float current = filtered.currents[j];
    const float measured = sensors.angles[j];
    // A non-finite sample this frame (the filter keeps its last good mean) skips the joint: its output stays.
    if (!std::isfinite(sensors.currents[j]) || !std::isfinite(current) || !std::isfinite(measured) ||
        std::abs(current) <= threshold(joint))
      continue;
    const float maxStep = leg ? params().maxGearStepLegs : params().maxGearStepArms;
    const float towardMeasured = measured - output_[j];
    float step = 0.f;
    if (--status_.counters[j] <= 0)
    {
      status_.counters[j] = params().stepsBeforeEmergencyStep;
      step = maxStep * (signs ? static_cast<float>((*signs)[j]) : sign(towardMeasured));
      status_.emergencySteps += step != 0.f;
    }
    else
      step = sign(towardMeasured) * (std::abs(towardMeasured) > maxStep ? maxStep : params().minGearStep);
    adjustments_[j] = steppedAdjustment(j, step, maxStep);
    status_.offsets[j] = appliedBase(j) + adjustments_[j]; // the next joint's rules see this round's values
  }
}

void EnergySavingProvider::runAccuratePositionsRound()
{
  const JointSensorData& sensors = get<JointSensorData>();
  const StiffnessJointRequest& input = get<StiffnessJointRequest>();
  for (std::size_t j = index(Joint::LHipYawPitch); j <= index(Joint::RAnkleRoll); ++j)
  {
    if (!enabled_[j] || !std::isfinite(sensors.angles[j]) || !std::isfinite(input.angles[j])) continue;
    const float error = input.angles[j] - sensors.angles[j];
    const float size = std::abs(error) > params().maxGearStepLegs
                           ? params().maxGearStepLegs
                           : params().accurateFineStepFraction * params().minGearStep;
    adjustments_[j] = steppedAdjustment(j, sign(error) * size, params().maxGearStepLegs);
    status_.offsets[j] = appliedBase(j) + adjustments_[j];
  }
}

bool EnergySavingProvider::resetNeeded() const
{
  const float atMaximum =
      params().maxOffset * (1.f - 1e-4f); // clamped values sit at the limit up to rounding
  int largeLegOffsets = 0;
  bool anyAtMaximum = false;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const float offset = std::abs(status_.offsets[j]);
    largeLegOffsets += isLegJoint(jointAt(j)) && offset > params().largeOffset;
    anyAtMaximum = anyAtMaximum || offset >= atMaximum;
  }
  if (largeLegOffsets < params().largeOffsetJointsForReset && !anyAtMaximum) return false;
  const bool comInside =
      centerOfMass_[0] >= params().centerOfMassMin[0] && centerOfMass_[0] <= params().centerOfMassMax[0] &&
      centerOfMass_[1] >= params().centerOfMassMin[1] && centerOfMass_[1] <= params().centerOfMassMax[1];
  return !comInside || !status_.groundContact;
}
} // namespace nao
