#include "Modules/MotionControl/Common/HeatAdjustmentCycle.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace nao
{
void stepLegsTowardsRequest(RoundContext& context, const HeatAdjustmentParameters& parameters,
                            EmergencyStep emergency)
{
  const HeatAdjustmentParameters& p = parameters;
  const JointSensorData& sensors = context.in.get<JointSensorData>();
  const StiffnessJointRequest& input = context.in.get<StiffnessJointRequest>();
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    if (!isLegJoint(jointAt(j)) || !context.enabled[j] || !std::isfinite(sensors.angles[j]) ||
        !std::isfinite(input.angles[j]))
      continue;
    const float error = input.angles[j] - sensors.angles[j];
    if (std::abs(error) <= p.minGearStep) continue; // B-Human's dead band
    const float direction = error > 0.f ? 1.f : -1.f;
    if (--context.status.counters[j] <= 0)
    {
      context.status.counters[j] = p.stepsBeforeEmergencyStep;
      context.adjustments[j] +=
          emergency == EmergencyStep::up ? p.maxGearStepLegs : direction * p.maxGearStepLegs;
      ++context.status.emergencySteps;
      continue;
    }
    const float size =
        std::abs(error) > p.maxGearStepLegs ? p.maxGearStepLegs : p.accurateFineStepFraction * p.minGearStep;
    context.adjustments[j] += direction * size;
  }
}

HeatAdjustmentCycle::HeatAdjustmentCycle(const HeatAdjustmentParameters& parameters)
{
  status_.counters.fill(parameters.stepsBeforeEmergencyStep);
  adjustments_.fill(0.f); // the rounds start cleared on their own
  baseOffsets_.fill(0.f);
  output_.fill(
      std::numeric_limits<float>::quiet_NaN()); // no good output yet: a non-finite input passes through
  zeroSince_.fill(0.0);
  status_.references.fill(std::numeric_limits<float>::quiet_NaN());
}

bool HeatAdjustmentCycle::active(const Frame& frame) const
{
  return frame.in.sourceHolds && frame.in.get<EnergySavingRequest>().adjust &&
         std::find(enabled_.begin(), enabled_.end(), true) != enabled_.end();
}

void HeatAdjustmentCycle::answer(const StiffnessJointRequest& input, JointRequest& request) const
{
  if (status_.state == EnergySavingState::off)
    request = input; // exactly the input: offsets are 0 in off
  else
  {
    request.stiffnesses = input.stiffnesses;
    request.angles = output_;
  }
}

void HeatAdjustmentCycle::run(const HeatAdjustmentInputs& in, const HeatAdjustmentParameters& parameters,
                              HeatAdjustmentRounds& rounds)
{
  const Frame frame{in, parameters, rounds};
  const double now = in.get<FrameInfo>().time;
  const float dt = hasTime_ ? static_cast<float>(std::max(0.0, now - lastTime_)) : 0.f;
  lastTime_ = now;
  hasTime_ = true;

  updateGroundContact(frame, now);
  updateEnabledJoints(frame);
  frame.rounds.everyFrame(in);
  if (status_.state == EnergySavingState::waiting || status_.state == EnergySavingState::working)
    updateGuards(frame, dt);
  followRequest(frame, now);
  advanceState(frame, now);
  if (status_.state == EnergySavingState::waiting || status_.state == EnergySavingState::working)
    fadeDisabledJoints(frame, dt);
  keepWithinBounds(frame);
  composeOutput(frame);
  updateStatus(frame, now);
}

void HeatAdjustmentCycle::followRequest(const Frame& frame, double now)
{
  const EnergySavingRequest& request = frame.in.get<EnergySavingRequest>();
  const bool isActive = active(frame);
  const bool modeChanged = request.posture != posture_ || request.accuratePositions != accuratePositions_;
  switch (status_.state)
  {
  case EnergySavingState::off:
    if (isActive) startWaiting(frame, now);
    break;
  case EnergySavingState::waiting:
  case EnergySavingState::working:
    if (!isActive)
      startReset(frame,
                 frame.in.sourceHolds ? EnergySavingResetReason::notRequested
                                      : EnergySavingResetReason::takenOver,
                 EnergySavingState::off, now);
    else if (modeChanged)
      startReset(frame, EnergySavingResetReason::modeChanged, EnergySavingState::off, now);
    else if (status_.state == EnergySavingState::working && status_.groundContact != contactAtWorkStart_)
      startReset(frame, EnergySavingResetReason::contactChanged, EnergySavingState::working, now);
    break;
  case EnergySavingState::resetState:
    if (!isActive || modeChanged) afterReset_ = EnergySavingState::off; // restart afresh, or stay off
    break;
  }
}

void HeatAdjustmentCycle::advanceState(const Frame& frame, double now)
{
  switch (status_.state)
  {
  case EnergySavingState::off:
    break;
  case EnergySavingState::waiting:
    if (now - stateStart_ >= frame.parameters.motionChangeWaitTime)
      enterState(frame, EnergySavingState::working, now);
    break;
  case EnergySavingState::working:
    if (now - lastRound_ >= frame.parameters.adjustWaitTime)
    {
      lastRound_ = now;
      runRound(frame);
      capOffsetsAndCheckReset(frame, now);
    }
    break;
  case EnergySavingState::resetState:
    fadeReset(frame, now);
    break;
  }
}

void HeatAdjustmentCycle::updateStatus(const Frame& frame, double now)
{
  status_.timeInState = static_cast<float>(now - stateStart_);
  const bool adjustingState =
      status_.state == EnergySavingState::waiting || status_.state == EnergySavingState::working;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    if (status_.offsets[j] != 0.f)
      zeroSince_[j] = -1;
    else if (zeroSince_[j] < 0)
      zeroSince_[j] = now;
    status_.guard[j] =
        guarding(frame) && adjustingState && enabled_[j] ? guards_[j].state() : HeatGuardState::off;
    status_.references[j] = guards_[j].reference();
  }
  const bool adjusting =
      (status_.state == EnergySavingState::waiting || status_.state == EnergySavingState::working) &&
      !accuratePositions_; // accuratePositions' rounds follow the reading, they compare no currents
  for (std::size_t j = 0; j < numOfJoints; ++j)
    status_.searching[j] =
        adjusting && enabled_[j] && !fadingOut_[j] && !held_[j] && frame.rounds.searching(j);
}

void HeatAdjustmentCycle::composeOutput(const Frame& frame)
{
  // The incoming request plus offsets; a non-finite incoming angle keeps the last good output. An offset never
  // pushes a request that lies within the joint's range beyond it: a motor asked to press on its stop stalls at
  // full current.
  const StiffnessJointRequest& input = frame.in.get<StiffnessJointRequest>();
  const JointLimits& limits = frame.in.get<JointLimits>();
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const float base = appliedBase(frame, j);
    const float angle = input.angles[j];
    if (std::isfinite(angle) && angle >= limits.min[j] && angle <= limits.max[j])
    {
      const float limited = std::clamp(angle + base + adjustments_[j], limits.min[j], limits.max[j]);
      if (limited != angle + base + adjustments_[j]) adjustments_[j] = limited - angle - base;
    }
    status_.baseOffsets[j] = base;
    status_.offsets[j] = base + adjustments_[j];
    if (std::isfinite(angle))
      output_[j] = status_.state == EnergySavingState::off ? angle : angle + status_.offsets[j];
  }
}

void HeatAdjustmentCycle::updateGroundContact(const Frame& frame, double now)
{
  const FsrSensorData& fsr = frame.in.get<FsrSensorData>();
  const float total = fsr.left.totalWeight + fsr.right.totalWeight;
  if (!std::isfinite(total)) return; // keep the last contact state
  const bool raw = total > frame.parameters.groundContactWeight;
  if (raw == status_.groundContact)
  {
    contactPendingSince_ = -1;
    return;
  }
  if (contactPendingSince_ < 0) contactPendingSince_ = now;
  if (now - contactPendingSince_ >= frame.parameters.groundContactDebounceTime)
  {
    status_.groundContact = raw;
    contactPendingSince_ = -1;
  }
}

void HeatAdjustmentCycle::updateEnabledJoints(const Frame& frame)
{
  const EnergySavingRequest& request = frame.in.get<EnergySavingRequest>();
  // A joint is adjusted when every limb it belongs to is (both legs for the one hip-yaw-pitch motor); arm and head
  // joints (the head when removed from skipJoints) not while positions must be accurate.
  const LimbArray<bool> limbAllowed{{request.adjustLeftArm && !request.accuratePositions,
                                     request.adjustRightArm && !request.accuratePositions,
                                     request.adjustLeftLeg, request.adjustRightLeg}};
  JointArray<bool> skip{};
  for (Joint joint : frame.parameters.skipJoints) // reads the vector, never resizes it: no allocation
    skip[joint] = true;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const Joint joint = jointAt(j);
    bool allowed = isHeadJoint(joint) ? !request.accuratePositions : true;
    for (std::size_t l = 0; l < numOfLimbs; ++l)
      if (isJointOf(joint, limbAt(l))) allowed = allowed && limbAllowed[l];
    const bool wasEnabled = enabled_[j];
    enabled_[j] = request.adjust && allowed && !skip[j];
    if (enabled_[j] && !wasEnabled)
    {
      // Adjusted again (after an arm motion, say): what the rounds learnt belonged to another posture.
      status_.counters[j] = frame.parameters.stepsBeforeEmergencyStep;
      guards_[j].reset();
      frame.rounds.restartJoint(j);
    }
  }
}

void HeatAdjustmentCycle::enterState(const Frame& frame, EnergySavingState state, double now)
{
  status_.state = state;
  stateStart_ = now;
  if (state == EnergySavingState::working)
  {
    contactAtWorkStart_ = status_.groundContact;
    lastRound_ = now; // the first round one adjustWaitTime after working begins (also after a reset)
    status_.counters.fill(frame.parameters.stepsBeforeEmergencyStep);
    for (JointGuard& guard : guards_) // a new posture or contact: every reference anew
      guard.reset();
  }
  frame.rounds.enterState(state);
}

void HeatAdjustmentCycle::startWaiting(const Frame& frame, double now)
{
  const EnergySavingRequest& request = frame.in.get<EnergySavingRequest>();
  posture_ = request.posture;
  accuratePositions_ = request.accuratePositions;
  clearOffsets(frame);
  status_.rounds = 0;
  status_.emergencySteps = 0;
  baseFadeStart_ = now;
  for (JointGuard& guard : guards_)
    guard.reset();
  // With the guard, the base offsets wait until the references are taken at zero offset (the first round).
  const bool normalStand = posture_ == EnergySavingPosture::stand && !accuratePositions_;
  baseOffsetsDue_ = normalStand && guarding(frame);
  if (normalStand && !baseOffsetsDue_) takeBaseOffsets(frame);
  enterState(frame, EnergySavingState::waiting, now);
}

void HeatAdjustmentCycle::takeBaseOffsets(const Frame& frame)
{
  const JointSensorData& sensors = frame.in.get<JointSensorData>();
  const StiffnessJointRequest& input = frame.in.get<StiffnessJointRequest>();
  for (std::size_t j = 0; j < numOfJoints; ++j)
    if (enabled_[j] && isLegJoint(jointAt(j)) && std::isfinite(sensors.angles[j]) &&
        std::isfinite(input.angles[j]))
      baseOffsets_[j] = std::clamp(sensors.angles[j] - input.angles[j], -frame.parameters.maxBaseOffset,
                                   frame.parameters.maxBaseOffset);
}

float HeatAdjustmentCycle::appliedBase(const Frame& frame, std::size_t joint) const
{
  const double fadeIn = frame.parameters.baseOffsetFadeInTime;
  const double ramp = fadeIn > 0 ? std::clamp((lastTime_ - baseFadeStart_) / fadeIn, 0.0, 1.0) : 1.0;
  return static_cast<float>(ramp) * baseOffsets_[joint];
}

void HeatAdjustmentCycle::runRound(const Frame& frame)
{
  ++status_.rounds;
  const double now = frame.in.get<FrameInfo>().time;
  held_.fill(false);
  if (guarding(frame))
  {
    const bool settling =
        takeReferences(frame, now); // the legs still settle, or the base offsets fade in now
    startStepRound(frame);          // after the references: a new one starts its joint's bound afresh
    if (settling) return;
    guardRound(frame, now);
    for (std::size_t j = 0; j < numOfJoints; ++j)
      held_[j] = guards_[j].holds();
  }
  JointArray<float> applied, lowest, highest;
  for (std::size_t j = 0; j < numOfJoints; ++j)
    applied[j] = appliedBase(frame, j);
  openOffsets(frame, lowest, highest);
  RoundContext context{frame.in,
                       status_,
                       adjustments_,
                       applied,
                       enabled_,
                       fadingOut_,
                       held_,
                       posture_,
                       posture_ == EnergySavingPosture::highStand
                           ? frame.parameters.emergencyStepSignsHighStand
                           : frame.parameters.emergencyStepSignsStand,
                       lowest,
                       highest};
  if (accuratePositions_)
    frame.rounds.accuratePositionsRound(context);
  else
    frame.rounds.round(context);
}

void HeatAdjustmentCycle::clearOffsets(const Frame& frame)
{
  adjustments_.fill(0.f);
  baseOffsets_.fill(0.f);
  fadingOut_.fill(false);
  frame.rounds.clear();
}
} // namespace nao
