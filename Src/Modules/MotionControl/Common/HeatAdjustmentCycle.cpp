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

bool HeatAdjustmentCycle::active() const
{
  return in_->sourceHolds && in_->get<EnergySavingRequest>().adjust &&
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
  p_ = &parameters;
  in_ = &in;
  rounds_ = &rounds;
  const double now = in.get<FrameInfo>().time;
  const float dt = hasTime_ ? static_cast<float>(std::max(0.0, now - lastTime_)) : 0.f;
  lastTime_ = now;
  hasTime_ = true;

  updateGroundContact(now);
  updateEnabledJoints();
  rounds_->everyFrame(in);
  if (status_.state == EnergySavingState::waiting || status_.state == EnergySavingState::working)
    updateGuards(dt);
  followRequest(now);
  advanceState(now);
  if (status_.state == EnergySavingState::waiting || status_.state == EnergySavingState::working)
    fadeDisabledJoints(dt);
  keepWithinBounds();
  composeOutput();
  updateStatus(now);
  p_ = nullptr; // kept for this call only: the next brings the module's parameters and rounds again
  in_ = nullptr;
  rounds_ = nullptr;
}

void HeatAdjustmentCycle::followRequest(double now)
{
  const EnergySavingRequest& request = in_->get<EnergySavingRequest>();
  const bool isActive = active();
  const bool modeChanged = request.posture != posture_ || request.accuratePositions != accuratePositions_;
  switch (status_.state)
  {
  case EnergySavingState::off:
    if (isActive) startWaiting(now);
    break;
  case EnergySavingState::waiting:
  case EnergySavingState::working:
    if (!isActive)
      startReset(in_->sourceHolds ? EnergySavingResetReason::notRequested
                                  : EnergySavingResetReason::takenOver,
                 EnergySavingState::off, now);
    else if (modeChanged)
      startReset(EnergySavingResetReason::modeChanged, EnergySavingState::off, now);
    else if (status_.state == EnergySavingState::working && status_.groundContact != contactAtWorkStart_)
      startReset(EnergySavingResetReason::contactChanged, EnergySavingState::working, now);
    break;
  case EnergySavingState::resetState:
    if (!isActive || modeChanged) afterReset_ = EnergySavingState::off; // restart afresh, or stay off
    break;
  }
}

void HeatAdjustmentCycle::advanceState(double now)
{
  switch (status_.state)
  {
  case EnergySavingState::off:
    break;
  case EnergySavingState::waiting:
    if (now - stateStart_ >= p_->motionChangeWaitTime) enterState(EnergySavingState::working, now);
    break;
  case EnergySavingState::working:
    if (now - lastRound_ >= p_->adjustWaitTime)
    {
      lastRound_ = now;
      runRound();
      capOffsetsAndCheckReset(now);
    }
    break;
  case EnergySavingState::resetState:
    fadeReset(now);
    break;
  }
}

void HeatAdjustmentCycle::updateStatus(double now)
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
    status_.guard[j] = guarding() && adjustingState && enabled_[j] ? guards_[j].state() : HeatGuardState::off;
    status_.references[j] = guards_[j].reference();
  }
  const bool adjusting =
      (status_.state == EnergySavingState::waiting || status_.state == EnergySavingState::working) &&
      !accuratePositions_; // accuratePositions' rounds follow the reading, they compare no currents
  for (std::size_t j = 0; j < numOfJoints; ++j)
    status_.searching[j] = adjusting && enabled_[j] && !fadingOut_[j] && !held_[j] && rounds_->searching(j);
}

void HeatAdjustmentCycle::composeOutput()
{
  // The incoming request plus offsets; a non-finite incoming angle keeps the last good output. An offset never
  // pushes a request that lies within the joint's range beyond it: a motor asked to press on its stop stalls at
  // full current.
  const StiffnessJointRequest& input = in_->get<StiffnessJointRequest>();
  const JointLimits& limits = in_->get<JointLimits>();
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const float base = appliedBase(j);
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

void HeatAdjustmentCycle::updateGroundContact(double now)
{
  const FsrSensorData& fsr = in_->get<FsrSensorData>();
  const float total = fsr.left.totalWeight + fsr.right.totalWeight;
  if (!std::isfinite(total)) return; // keep the last contact state
  const bool raw = total > p_->groundContactWeight;
  if (raw == status_.groundContact)
  {
    contactPendingSince_ = -1;
    return;
  }
  if (contactPendingSince_ < 0) contactPendingSince_ = now;
  if (now - contactPendingSince_ >= p_->groundContactDebounceTime)
  {
    status_.groundContact = raw;
    contactPendingSince_ = -1;
  }
}

void HeatAdjustmentCycle::updateEnabledJoints()
{
  const EnergySavingRequest& request = in_->get<EnergySavingRequest>();
  // A joint is adjusted when every limb it belongs to is (both legs for the one hip-yaw-pitch motor); arm and head
  // joints (the head when removed from skipJoints) not while positions must be accurate.
  const LimbArray<bool> limbAllowed{{request.adjustLeftArm && !request.accuratePositions,
                                     request.adjustRightArm && !request.accuratePositions,
                                     request.adjustLeftLeg, request.adjustRightLeg}};
  JointArray<bool> skip{};
  for (Joint joint : p_->skipJoints) // reads the vector, never resizes it: no allocation
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
      status_.counters[j] = p_->stepsBeforeEmergencyStep;
      guards_[j].reset();
      rounds_->restartJoint(j);
    }
  }
}

void HeatAdjustmentCycle::enterState(EnergySavingState state, double now)
{
  status_.state = state;
  stateStart_ = now;
  if (state == EnergySavingState::working)
  {
    contactAtWorkStart_ = status_.groundContact;
    lastRound_ = now; // the first round one adjustWaitTime after working begins (also after a reset)
    status_.counters.fill(p_->stepsBeforeEmergencyStep);
    for (JointGuard& guard : guards_) // a new posture or contact: every reference anew
      guard.reset();
  }
  rounds_->enterState(state);
}

void HeatAdjustmentCycle::startWaiting(double now)
{
  const EnergySavingRequest& request = in_->get<EnergySavingRequest>();
  posture_ = request.posture;
  accuratePositions_ = request.accuratePositions;
  clearOffsets();
  status_.rounds = 0;
  status_.emergencySteps = 0;
  baseFadeStart_ = now;
  for (JointGuard& guard : guards_)
    guard.reset();
  // With the guard, the base offsets wait until the references are taken at zero offset (the first round).
  const bool normalStand = posture_ == EnergySavingPosture::stand && !accuratePositions_;
  baseOffsetsDue_ = normalStand && guarding();
  if (normalStand && !baseOffsetsDue_) takeBaseOffsets();
  enterState(EnergySavingState::waiting, now);
}

void HeatAdjustmentCycle::takeBaseOffsets()
{
  const JointSensorData& sensors = in_->get<JointSensorData>();
  const StiffnessJointRequest& input = in_->get<StiffnessJointRequest>();
  for (std::size_t j = 0; j < numOfJoints; ++j)
    if (enabled_[j] && isLegJoint(jointAt(j)) && std::isfinite(sensors.angles[j]) &&
        std::isfinite(input.angles[j]))
      baseOffsets_[j] =
          std::clamp(sensors.angles[j] - input.angles[j], -p_->maxBaseOffset, p_->maxBaseOffset);
}

float HeatAdjustmentCycle::appliedBase(std::size_t joint) const
{
  const double fadeIn = p_->baseOffsetFadeInTime;
  const double ramp = fadeIn > 0 ? std::clamp((lastTime_ - baseFadeStart_) / fadeIn, 0.0, 1.0) : 1.0;
  return static_cast<float>(ramp) * baseOffsets_[joint];
}

void HeatAdjustmentCycle::runRound()
{
  ++status_.rounds;
  const double now = in_->get<FrameInfo>().time;
  held_.fill(false);
  if (guarding())
  {
    const bool settling = takeReferences(now); // the legs still settle, or the base offsets fade in now
    startStepRound(); // after the references: a new one starts its joint's bound afresh
    if (settling) return;
    guardRound(now);
    for (std::size_t j = 0; j < numOfJoints; ++j)
      held_[j] = guards_[j].holds();
  }
  JointArray<float> applied, lowest, highest;
  for (std::size_t j = 0; j < numOfJoints; ++j)
    applied[j] = appliedBase(j);
  openOffsets(lowest, highest);
  RoundContext context{*in_,
                       status_,
                       adjustments_,
                       applied,
                       enabled_,
                       fadingOut_,
                       held_,
                       posture_,
                       posture_ == EnergySavingPosture::highStand ? p_->emergencyStepSignsHighStand
                                                                  : p_->emergencyStepSignsStand,
                       lowest,
                       highest};
  if (accuratePositions_)
    rounds_->accuratePositionsRound(context);
  else
    rounds_->round(context);
}

void HeatAdjustmentCycle::clearOffsets()
{
  adjustments_.fill(0.f);
  baseOffsets_.fill(0.f);
  fadingOut_.fill(false);
  rounds_->clear();
}
} // namespace nao
