// The cycle's resets (HeatAdjustmentCycle.h): offsets capped after a round and too large ones reset unless the
// robot stands stably (B-Human's isComStable), the reset's fade back to zero and what follows it, and the fade-out of
// joints no longer adjusted.
#include "Modules/MotionControl/Common/HeatAdjustmentCycle.h"

#include <algorithm>
#include <cmath>

namespace nao
{
void HeatAdjustmentCycle::capOffsetsAndCheckReset(const Frame& frame, double now)
{
  int largeLegOffsets = 0;
  bool legCapped = false;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const float offset = adjustments_[j];
    const bool leg = isLegJoint(jointAt(j));
    largeLegOffsets += leg && std::abs(offset) > frame.parameters.largeOffset;
    const float capped = std::clamp(offset, -frame.parameters.maxOffset, frame.parameters.maxOffset);
    if (capped == offset) continue;
    adjustments_[j] = capped;
    if (leg)
      legCapped = true;
    else
      fadingOut_[j] = true; // an arm joint that hit the cap fades back on its own (B-Human: reset all)
  }
  if (largeLegOffsets < frame.parameters.largeOffsetJointsForReset && !legCapped) return;
  // B-Human's isComStable: never in the normal stand or without ground contact; in the high stand the centre
  // of mass must lie in its window.
  const bool stable =
      status_.groundContact && posture_ == EnergySavingPosture::highStand && centerOfMassInWindow(frame);
  if (!stable) startReset(frame, EnergySavingResetReason::offsetsTooLarge, EnergySavingState::working, now);
}

bool HeatAdjustmentCycle::centerOfMassInWindow(const Frame& frame) const
{
  const RobotModel& model = frame.in.get<RobotModel>();
  const auto& angles = frame.in.get<InertialSensorData>().angles;
  // The centre of mass relative to the point between the soles, turned by the torso's roll and pitch (IMU)
  // into the ground-aligned frame: where it is over the feet, whatever the legs' angles make of the torso frame.
  std::array<float, 3> relative{};
  for (int axis = 0; axis < 3; ++axis)
    relative[axis] = model.centerOfMass[axis] -
                     0.5f * (model.leftSole.translation[axis] + model.rightSole.translation[axis]);
  const float roll = angles[0], pitch = angles[1];
  if (!std::isfinite(roll) || !std::isfinite(pitch) || !std::isfinite(relative[0]) ||
      !std::isfinite(relative[1]) || !std::isfinite(relative[2]))
    return false; // cannot tell: not stable, so too large offsets reset
  // Ground from torso: R = Ry(pitch) · Rx(roll); only x and y are needed.
  const float cr = std::cos(roll), sr = std::sin(roll), cp = std::cos(pitch), sp = std::sin(pitch);
  const float y = cr * relative[1] - sr * relative[2];
  const float zRolled = sr * relative[1] + cr * relative[2];
  const float x = cp * relative[0] + sp * zRolled;
  return x >= frame.parameters.centerOfMassMin[0] && x <= frame.parameters.centerOfMassMax[0] &&
         y >= frame.parameters.centerOfMassMin[1] && y <= frame.parameters.centerOfMassMax[1];
}

void HeatAdjustmentCycle::startReset(const Frame& frame, EnergySavingResetReason reason,
                                     EnergySavingState after, double now)
{
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    resetFromBase_[j] = appliedBase(frame, j);
    resetFromAdjustments_[j] = adjustments_[j];
  }
  status_.lastResetReason = reason;
  afterReset_ = after;
  enterState(frame, EnergySavingState::resetState, now);
  fadeReset(frame, now);
}

void HeatAdjustmentCycle::fadeReset(const Frame& frame, double now)
{
  const double duration = frame.parameters.resetTime;
  const double progress = duration > 0 ? std::clamp((now - stateStart_) / duration, 0.0, 1.0) : 1.0;
  const float remaining = static_cast<float>(1.0 - progress);
  baseFadeStart_ = -1e300; // the base offsets' fade-in is over: they fade out with the rest
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    baseOffsets_[j] = remaining * resetFromBase_[j];
    adjustments_[j] = remaining * resetFromAdjustments_[j];
  }
  if (progress < 1.0) return;
  adjustments_.fill(0.f);
  baseOffsets_.fill(0.f);
  fadingOut_.fill(false);
  if (afterReset_ == EnergySavingState::working && active(frame))
    enterState(frame, EnergySavingState::working, now); // B-Human: work resumes, without base offsets
  else
  {
    enterState(frame, EnergySavingState::off, now);
    if (active(frame)) startWaiting(frame, now);
  }
}

void HeatAdjustmentCycle::fadeDisabledJoints(const Frame& frame, float dt)
{
  const float stepSize = frame.parameters.resetTime > 0
                             ? frame.parameters.maxOffset * dt / frame.parameters.resetTime
                             : frame.parameters.maxOffset;
  auto towardZero = [stepSize](float value) { return value - std::clamp(value, -stepSize, stepSize); };
  for (std::size_t j = 0; j < numOfJoints; ++j)
    if (!enabled_[j] || fadingOut_[j])
    {
      // Base offset and adjustment each fade at this rate (a disabled leg joint may have both).
      adjustments_[j] = towardZero(adjustments_[j]);
      baseOffsets_[j] = towardZero(baseOffsets_[j]);
      if (!fadingOut_[j] || adjustments_[j] != 0.f) continue;
      fadingOut_[j] = false; // faded out: the joint starts over
      status_.counters[j] = frame.parameters.stepsBeforeEmergencyStep;
      frame.rounds.restartJoint(j);
    }
}
} // namespace nao
