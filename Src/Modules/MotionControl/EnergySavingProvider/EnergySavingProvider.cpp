// The heat adjustment. States (EnergySaving.h): off -> waiting -> working -> resetState -> working, or via
// off -> waiting.
//
// Decisions where the issue and B-Human's documentation (the seed) leave room, each as B-Human would take it:
// - "offset" in the threshold, clamp and reset rules is the total a joint's request is moved by (base offset
//   included): that is what the motor sees. The clamp limits the round adjustments so that the total stays
//   within +-maxOffset.
// - "requested" in a round's step choice is the last output (what the motor was asked for); in
//   accuratePositions it is the incoming request (what the motion source wants the joint to reach).
// - A step toward the measured angle needs a direction: when measured == requested exactly there is none and
//   no step is made; the counter still runs toward the emergency step, whose direction the sign table gives.
// - The counter is not refilled when the current falls below the threshold: it counts how often the joint
//   was adjusted (seed). It is refilled at every (re)start and after each emergency step.
// - Posture none has no sign table: its emergency step goes toward the measured angle (none if equal).
// - The first round comes adjustWaitTime after working begins, so that the current window (240 ms) holds
//   only samples of the settled posture.
// - A motion change is a change of the limbs the request lets us adjust, or the incoming request of an
//   adjusted joint moving by more than motionChangeAngle in one frame: back to waiting, offsets kept. A
//   change of posture or of accuratePositions is a reset instead: the offsets belong to the old posture.
// - Ground contact lost or regained, or the request stopped: reset, then off. Adjustment only runs with
//   contact; it restarts (off -> waiting, base offsets taken anew) once requested with contact again.
// - Reset because the offsets grew too large: after the fade, straight back to working without base offsets
//   (they were part of what grew too large); the posture has not changed, there is nothing to wait for.
// - The hip yaw pitch motor moves both legs: adjusted only when both legs may be.
// - A limb that may no longer be adjusted (an arm motion started) fades its offsets linearly to 0 at
//   maxOffset per resetTime: the arm motion neither keeps stale offsets nor sees them vanish in one frame.
// - accuratePositions adjusts the legs only (the seed: "the leg requests"); no thresholds, counters or base
//   offsets.
#include "Modules/MotionControl/EnergySavingProvider/EnergySavingProvider.h"
#include <algorithm>
#include <cmath>
#include <limits>

namespace nao
{
namespace
{
bool isLeftLeg(Joint j)
{
  return j >= Joint::LHipRoll && j <= Joint::LAnkleRoll;
}
bool isRightLeg(Joint j)
{
  return j >= Joint::RHipRoll && j <= Joint::RAnkleRoll;
}
bool isLeftArm(Joint j)
{
  return (j >= Joint::LShoulderPitch && j <= Joint::LWristYaw) || j == Joint::LHand;
}
bool isRightArm(Joint j)
{
  return (j >= Joint::RShoulderPitch && j <= Joint::RWristYaw) || j == Joint::RHand;
}
} // namespace

EnergySavingProvider::EnergySavingProvider()
{
  onParametersChanged();
  status_.counters.fill(params().stepsBeforeEmergencyStep);
  output_.fill(
      std::numeric_limits<float>::quiet_NaN()); // no good output yet: a non-finite input passes through
}

void EnergySavingProvider::onParametersChanged()
{
  skip_.fill(false);
  for (Joint joint : params().skipJoints) // reads the vector, never resizes it: no allocation
    skip_[joint] = true;
}

void EnergySavingProvider::update(JointRequest& request)
{
  computeFrame();
  const StiffnessJointRequest& input = get<StiffnessJointRequest>();
  if (status_.state == EnergySavingState::off)
    request = input; // exactly the input: offsets are 0 in off
  else
  {
    request.stiffnesses = input.stiffnesses;
    request.angles = output_;
  }
}

void EnergySavingProvider::update(EnergySaving& energySaving)
{
  computeFrame();
  energySaving = status_;
}

void EnergySavingProvider::computeFrame()
{
  const FrameInfo& frame = get<FrameInfo>();
  if (computed_ && frame.frameNumber == computedFrame_ && frame.time == computedTime_) return;
  computed_ = true;
  computedFrame_ = frame.frameNumber;
  computedTime_ = frame.time;

  const double now = frame.time;
  const float dt = hasTime_ ? static_cast<float>(std::max(0.0, now - lastTime_)) : 0.f;
  lastTime_ = now;
  hasTime_ = true;

  updateGroundContact(now);
  const auto& com = get<RobotModel>().centerOfMass;
  if (std::isfinite(com[0]) && std::isfinite(com[1]) && std::isfinite(com[2])) centerOfMass_ = com;
  updateEnabledJoints();

  const EnergySavingRequest& request = get<EnergySavingRequest>();
  const bool anyEnabled = std::find(enabled_.begin(), enabled_.end(), true) != enabled_.end();
  const bool active = request.adjust && status_.groundContact && anyEnabled;
  const bool modeChanged = request.posture != posture_ || request.accuratePositions != accuratePositions_;

  switch (status_.state)
  {
  case EnergySavingState::off:
    if (active) startWaiting(now);
    break;
  case EnergySavingState::waiting:
  case EnergySavingState::working:
    if (contactChanged_)
      startReset(EnergySavingResetReason::contactChanged, EnergySavingState::off, now);
    else if (!active)
      startReset(EnergySavingResetReason::notRequested, EnergySavingState::off, now);
    else if (modeChanged)
      startReset(EnergySavingResetReason::modeChanged, EnergySavingState::off, now);
    else if (motionChanged())
    {
      learningBase_ = learningBase_ && status_.state == EnergySavingState::waiting;
      enterState(EnergySavingState::waiting, now);
    }
    break;
  case EnergySavingState::resetState:
    if (contactChanged_ || !active || modeChanged)
      afterReset_ = EnergySavingState::off; // restart afresh, or stay off
    break;
  }

  switch (status_.state)
  {
  case EnergySavingState::off:
    break;
  case EnergySavingState::waiting:
    if (learningBase_) learnBaseOffsets(false);
    if (now - stateStart_ >= params().motionChangeWaitTime)
    {
      learningBase_ = false;
      enterState(EnergySavingState::working, now);
    }
    break;
  case EnergySavingState::working:
    if (now - lastRound_ >= params().adjustWaitTime)
    {
      lastRound_ = now;
      ++status_.rounds;
      if (accuratePositions_)
        runAccuratePositionsRound();
      else
        runRound();
      if (resetNeeded())
        startReset(EnergySavingResetReason::offsetsTooLarge, EnergySavingState::working, now);
    }
    break;
  case EnergySavingState::resetState:
    fadeReset(now);
    break;
  }
  if (status_.state == EnergySavingState::waiting || status_.state == EnergySavingState::working)
    fadeDisabledJoints(dt);

  // The output: incoming request plus offsets; a non-finite incoming angle keeps the last good output.
  const StiffnessJointRequest& input = get<StiffnessJointRequest>();
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const float base = appliedBase(j);
    status_.baseOffsets[j] = base;
    status_.offsets[j] = base + adjustments_[j];
    if (std::isfinite(input.angles[j]))
    {
      output_[j] =
          status_.state == EnergySavingState::off ? input.angles[j] : input.angles[j] + status_.offsets[j];
      lastInput_[j] = input.angles[j];
    }
  }
  previousEnabled_ = enabled_;
  status_.timeInState = static_cast<float>(now - stateStart_);
}

void EnergySavingProvider::updateGroundContact(double now)
{
  contactChanged_ = false;
  const FsrSensorData& fsr = get<FsrSensorData>();
  const float total = fsr.left.totalWeight + fsr.right.totalWeight;
  if (!std::isfinite(total)) return; // keep the last contact state
  const bool raw = total > params().groundContactWeight;
  if (raw == status_.groundContact)
  {
    contactPendingSince_ = -1;
    return;
  }
  if (contactPendingSince_ < 0) contactPendingSince_ = now;
  if (now - contactPendingSince_ >= params().groundContactDebounceTime)
  {
    status_.groundContact = raw;
    contactChanged_ = true;
    contactPendingSince_ = -1;
  }
}

void EnergySavingProvider::updateEnabledJoints()
{
  const EnergySavingRequest& request = get<EnergySavingRequest>();
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const Joint joint = jointAt(j);
    bool allowed = false;
    if (joint == Joint::LHipYawPitch)
      allowed = request.adjustLeftLeg && request.adjustRightLeg;
    else if (isLeftLeg(joint))
      allowed = request.adjustLeftLeg;
    else if (isRightLeg(joint))
      allowed = request.adjustRightLeg;
    else if (isLeftArm(joint))
      allowed = request.adjustLeftArm && !request.accuratePositions;
    else if (isRightArm(joint))
      allowed = request.adjustRightArm && !request.accuratePositions;
    else
      allowed = !request.accuratePositions; // head joints, when removed from skipJoints
    enabled_[j] = request.adjust && allowed && !skip_[j];
  }
}

bool EnergySavingProvider::motionChanged() const
{
  if (enabled_ != previousEnabled_) return true;
  const StiffnessJointRequest& input = get<StiffnessJointRequest>();
  for (std::size_t j = 0; j < numOfJoints; ++j)
    if (enabled_[j] && std::isfinite(input.angles[j]) &&
        std::abs(input.angles[j] - lastInput_[j]) > params().motionChangeAngle)
      return true;
  return false;
}

void EnergySavingProvider::enterState(EnergySavingState state, double now)
{
  status_.state = state;
  stateStart_ = now;
  if (state == EnergySavingState::working) lastRound_ = now;
}

void EnergySavingProvider::startWaiting(double now)
{
  const EnergySavingRequest& request = get<EnergySavingRequest>();
  posture_ = request.posture;
  accuratePositions_ = request.accuratePositions;
  clearOffsets();
  status_.rounds = 0;
  status_.emergencySteps = 0;
  status_.counters.fill(params().stepsBeforeEmergencyStep);
  // Base offsets only in the normal stand: there the knees and ankles carry the weight bent, and taking the
  // measured sag at once relieves them before the first round. Not in the high stand, not in
  // accuratePositions (opposite aim).
  baseOffsetsActive_ = posture_ == EnergySavingPosture::stand && !accuratePositions_;
  learningBase_ = baseOffsetsActive_;
  baseFadeStart_ = now;
  if (learningBase_) learnBaseOffsets(true);
  enterState(EnergySavingState::waiting, now);
}

void EnergySavingProvider::learnBaseOffsets(bool first)
{
  const JointSensorData& sensors = get<JointSensorData>();
  const StiffnessJointRequest& input = get<StiffnessJointRequest>();
  const float oldWeight = params().baseOffsetOldWeight;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    if (!enabled_[j] || !isLegJoint(jointAt(j)) || !std::isfinite(sensors.angles[j]) ||
        !std::isfinite(input.angles[j]))
      continue;
    const float sample =
        std::clamp(sensors.angles[j] - input.angles[j], -params().maxBaseOffset, params().maxBaseOffset);
    baseOffsets_[j] = first ? sample : oldWeight * baseOffsets_[j] + (1.f - oldWeight) * sample;
  }
}

float EnergySavingProvider::appliedBase(std::size_t joint) const
{
  const double fadeIn = params().baseOffsetFadeInTime;
  const double ramp = fadeIn > 0 ? std::clamp((lastTime_ - baseFadeStart_) / fadeIn, 0.0, 1.0) : 1.0;
  return static_cast<float>(ramp) * baseOffsets_[joint];
}

void EnergySavingProvider::startReset(EnergySavingResetReason reason, EnergySavingState after, double now)
{
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    resetFromBase_[j] = appliedBase(j);
    resetFromAdjustments_[j] = adjustments_[j];
  }
  status_.lastResetReason = reason;
  afterReset_ = after;
  learningBase_ = false;
  enterState(EnergySavingState::resetState, now);
  fadeReset(now);
}

void EnergySavingProvider::fadeReset(double now)
{
  const double duration = params().resetTime;
  const double progress = duration > 0 ? std::clamp((now - stateStart_) / duration, 0.0, 1.0) : 1.0;
  const float remaining = static_cast<float>(1.0 - progress);
  baseFadeStart_ = -1e300; // the base offsets' fade-in is over: they fade out with the rest
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    baseOffsets_[j] = remaining * resetFromBase_[j];
    adjustments_[j] = remaining * resetFromAdjustments_[j];
  }
  if (progress < 1.0) return;
  clearOffsets();
  status_.counters.fill(params().stepsBeforeEmergencyStep);
  const bool active = status_.groundContact && get<EnergySavingRequest>().adjust &&
                      std::find(enabled_.begin(), enabled_.end(), true) != enabled_.end();
  if (afterReset_ == EnergySavingState::working && active)
  {
    baseOffsetsActive_ = false;
    enterState(EnergySavingState::working, now);
  }
  else
  {
    enterState(EnergySavingState::off, now);
    if (active) startWaiting(now);
  }
}

void EnergySavingProvider::fadeDisabledJoints(float dt)
{
  const float resetTime = params().resetTime;
  const float stepSize = resetTime > 0 ? params().maxOffset * dt / resetTime : params().maxOffset;
  auto towardZero = [stepSize](float value) { return value - std::clamp(value, -stepSize, stepSize); };
  for (std::size_t j = 0; j < numOfJoints; ++j)
    if (!enabled_[j])
    {
      // Base offset and adjustment each fade at this rate (a disabled leg joint may have both).
      adjustments_[j] = towardZero(adjustments_[j]);
      baseOffsets_[j] = towardZero(baseOffsets_[j]);
    }
}

void EnergySavingProvider::clearOffsets()
{
  adjustments_.fill(0.f);
  baseOffsets_.fill(0.f);
  baseOffsetsActive_ = false;
  learningBase_ = false;
}

MAKE_MODULE(EnergySavingProvider);
} // namespace nao
