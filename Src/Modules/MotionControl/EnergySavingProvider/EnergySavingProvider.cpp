// The heat adjustment, rule by rule against B-Human's released EnergySavingProvider
// (bhuman/BHumanCodeRelease, Src/Modules/MotionControl/EnergySaving/, its .cfg in Config/Robots/Default/).
// "B-Human" is what that code does; where ours differs, the reason follows, with the figures of the simulated
// ensemble (20 robots, 3 of them worn, 10 minutes of B-Human's stand; README "Heat adjustment"). States
// (EnergySaving.h): off -> waiting -> working -> resetState.
//
// Start (off -> waiting) whenever the motion source asks (EnergySavingRequest), with or without ground
// contact.
//   B-Human: in the normal stand, base offsets = measured − requested, one sample. Ours: the same, faded in
//   over baseOffsetFadeInTime (B-Human's baseOffsetInterpolationTime) and clamped to ±maxBaseOffset (3°, the
//   offsets' own cap): a broken reading must not move a joint further than the offsets ever may.
// Waiting -> working after motionChangeWaitTime; counters refilled, the contact noted. Same.
// A round every adjustWaitTime. B-Human: 500 ms. Ours: 250 ms, one current window (FilteredCurrent, 240 ms)
// plus a
//   frame: the search below needs a few rounds per joint (500 ms: all legs below 300 mA after a median 5.1 s,
//   worst 22 s; 250 ms: 2.0 s, worst 5.1 s).
// Which joints per round. B-Human, in the normal stand: only the leg joint of highest current (and all arm
// joints);
//   every joint in the other postures. Ours: every joint, every round (oneLegJointPerRound brings B-Human's
//   rule back): with the search below, one leg joint per round took a median 7.6 s (worst 13 s) to bring all
//   legs below 300 mA, every joint 2.0 s (worst 5.1 s), with 20 % less energy.
// Thresholds. A joint is adjusted while its filtered current is above legCurrentThreshold (100 mA; 300 mA
// once its
//   round offset exceeds largeOffset) or armCurrentThreshold (30 mA). Same as B-Human.
// The step. B-Human: towards the reading from the request plus base offset, d = measured − (requested +
// base):
//   maxGearStep when |d| > maxGearStep, else minGearStep, and d exactly 0 steps down; every
//   stepsBeforeEmergencyStep-th round above the threshold an emergency step of maxGearStep along the
//   posture's sign table (standSigns, highStandSigns). On the simulated robots (boards that hold whole counts
//   of their own 14-bit angle, LoLA's 12-bit reading with calibration offsets, gears that stick and slip)
//   these rules settle nowhere: where request and reading agree the steps go down whatever the load, a joint
//   that slips is followed until the offsets reset, and the 0.2° emergency steps (9 board counts, ~3 N·m on a
//   leg) make joints slip: all legs below 300 mA first after a median 200 s, never below 50 mA, worst leg
//   still 750 mA after 10 minutes, 4 A peaks (searchLeastCurrent = false runs them). Ours searches, per
//   joint, the offset of least current:
//   - the first step goes from the motor's target (request + base + offset) towards the reading, by
//   maxGearStep
//     when farther than that, else minGearStep; where target and reading agree to within one reading count
//     (agreementBand) the reading cannot tell where the board's own angle lies: the step goes the way the
//     posture's load pulls: by the robot model's static torque (JointTorques) where it is at least
//     loadDirectionTorque, else by B-Human's sign table (the tables disagree with the model where the load is
//     large: RShoulderRoll, the knees in the high stand);
//   - each further round compares the filtered current with the one before the last step: higher by more than
//     searchCurrentTolerance: turn round, half the step; not lower: half the step; lower: the same step
//     again; never below minGearStep × minSearchStepFraction (sub-count steps move the board's rounding);
//   - a joint at or below its threshold has succeeded: its next rise starts a new search;
//   - B-Human's emergency steps only with searchEmergencySteps (off: with them the ensemble used 13 % more
//   energy in
//     the median, 33 % at the 90th percentile, and joints slipped to 1.0 A after 10 s instead of 0.75 A);
//     when on, towards the reading where it differs from the target;
//   - a joint that has given way from request + base by more than maxSag (0.5°) no longer follows: its offset
//   may
//     move that way only up to where the reading then was, plus one count. B-Human's steps follow a worn knee
//     whose gears cannot hold its load (the plant's worn knees: static friction 0.62 N·m under 0.64-0.68 N·m
//     of load) to the 3° cap within a minute, reset, and start again.
//   - hand-over (not in B-Human): a hip, knee or ankle pitch whose search stalls above its threshold holds a load
//     its gears cannot (with the motors' supply-voltage limit in the plant, robots rose into the stand so that a
//     hip or knee pitch drew one board count, 330-350 mA, at every offset for ten minutes: 1 robot of 20 in the
//     stand, 2 in the high stand). Both legs share the body's pitching load in a split friction locks in: the
//     same joint of the other leg pushes one minGearStep more each round (handOverRounds at most, then the other
//     way) until the stuck joint's current falls, then that joint searches again and the pusher's own search
//     relaxes it. Only while both requests stand still (under a balancer's wobble it only added current: the
//     ensemble's standjitter legs drew 87-89 % of no adjustment instead of 66-80 %).
// After a round, caps and resets. Offsets are capped at ±maxOffset; when largeOffsetJointsForReset leg joints
// are
//   beyond largeOffset, or one hit maxOffset, B-Human resets unless the centre of mass is "stable": never in
//   the normal stand or without ground contact; in the high stand when the centre of mass, taken in the
//   ground-aligned frame of the torso's IMU orientation relative to the point between the feet, lies in its
//   window. Same for the legs. An arm joint at the cap: B-Human resets every joint; ours fades that joint
//   alone back to 0 and lets it start over: an arm whose load its gears cannot hold walks its offset to the
//   cap again and again, and a global reset each time throws away the legs' offsets, which the arm's do not
//   affect.
// Ground contact changed since working began: reset (offsets fade over resetTime), then work resumes with the
// new
//   contact, without base offsets — B-Human does the same on pick-up and on put-down.
// The motion source stops asking (EnergySavingRequest::adjust false). B-Human: offsets 0 at once (shutDown).
//   Ours: a reset that fades them over resetTime, then off — nothing the robot does may jump.
// A limb the request no longer lets us adjust (an arm motion started). B-Human: its offsets 0 at once. Ours:
// they
//   fade at maxOffset per resetTime, for the same reason.
// Posture or accuratePositions changed. B-Human resets on a switch of mode; ours resets on either and then
// starts
//   afresh (new base offsets in the normal stand): the offsets belonged to the old posture.
// No motion-change detector on the request itself: B-Human relies on its engines, as ours on the motion
// source's
//   EnergySavingRequest. A stand with balance feedback (a request jittering by hundredths of a degree) is
//   adjusted like any stand.
// accuratePositions (legs only). B-Human: e = requested − measured; a joint with |e| > minGearStep counts
// down,
//   steps by maxGearStepLegs when |e| > maxGearStepLegs, else by minGearStep / 2, in the direction of e; at 0
//   an emergency step of +maxGearStepLegs. Ours: the same dead band and counter, the emergency step in the
//   direction of e: B-Human's always-positive step moves a joint that must go down the wrong way.
// Leg joint with the highest current (oneLegJointPerRound): B-Human's FilteredCurrent skips LHipYawPitch;
// ours
//   includes it (its one motor carries both legs' yaw-pitch load and heats like any other).
// Skipped joints: B-Human skips the head; ours also the hands, whose "angle" is an opening 0..1.
// Stiffness (ours; B-Human's stiffness does not change while it adjusts). The search compares filtered currents
//   from round to round, and a current is only comparable at the same stiffness: stiffness is a torque limit,
//   and a limit that binds or lets go between two rounds changes the current whatever the offset did (smart
//   stiffness cutting in during the search left 0.3-0.7 A on simulated legs, and settling back on the "best"
//   offset of another stiffness jumped an offset by 0.9° in one frame). So (1) a joint whose incoming stiffness
//   changed since the last round starts its search afresh and takes no step in that round (its current window
//   mixes both stiffnesses); (2) EnergySaving::searching tells the stage before (SmartStiffnessProvider) which
//   joints are being searched, and that stage leaves their stiffness as it is; a settled joint, or one at or
//   below its threshold, holds its offset and may be limited.
// Joint ranges: an offset never pushes a request that lies within its joint's range beyond it (JointLimits
// from
//   the robot description): the arms' rules otherwise walk an elbow requested 0.5° from its stop into the
//   stop, where the motor stalls and overheats within two minutes.
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

EnergySavingProvider::EnergySavingProvider(const ModuleContext& context) : Module(context)
{
  onParametersChanged();
  status_.counters.fill(params().stepsBeforeEmergencyStep);
  clearOffsets();
  output_.fill(
      std::numeric_limits<float>::quiet_NaN()); // no good output yet: a non-finite input passes through
  lastStiffness_.fill(std::numeric_limits<float>::quiet_NaN());
  handOverFor_.fill(-1);
  handOverStart_.fill(0.f);
  handOverBase_.fill(0.f);
  lastRoundRequest_.fill(std::numeric_limits<float>::quiet_NaN());
  handOverDirection_.fill(1.f);
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
  updateEnabledJoints();
  const JointArray<float>& stiffnesses = get<StiffnessJointRequest>().stiffnesses;
  for (std::size_t j = 0; j < numOfJoints; ++j) // a NaN compares unequal: counts as a change
  {
    stiffnessChanged_[j] = stiffnessChanged_[j] || stiffnesses[j] != lastStiffness_[j];
    lastStiffness_[j] = stiffnesses[j];
  }
  const EnergySavingRequest& request = get<EnergySavingRequest>();
  const bool active = request.adjust && std::find(enabled_.begin(), enabled_.end(), true) != enabled_.end();
  const bool modeChanged = request.posture != posture_ || request.accuratePositions != accuratePositions_;

  switch (status_.state)
  {
  case EnergySavingState::off:
    if (active) startWaiting(now);
    break;
  case EnergySavingState::waiting:
  case EnergySavingState::working:
    if (!active)
      startReset(EnergySavingResetReason::notRequested, EnergySavingState::off, now);
    else if (modeChanged)
      startReset(EnergySavingResetReason::modeChanged, EnergySavingState::off, now);
    else if (status_.state == EnergySavingState::working && status_.groundContact != contactAtWorkStart_)
      startReset(EnergySavingResetReason::contactChanged, EnergySavingState::working, now);
    break;
  case EnergySavingState::resetState:
    if (!active || modeChanged) afterReset_ = EnergySavingState::off; // restart afresh, or stay off
    break;
  }

  switch (status_.state)
  {
  case EnergySavingState::off:
    break;
  case EnergySavingState::waiting:
    if (now - stateStart_ >= params().motionChangeWaitTime) enterState(EnergySavingState::working, now);
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
      capOffsetsAndCheckReset(now);
      stiffnessChanged_.fill(false);
    }
    break;
  case EnergySavingState::resetState:
    fadeReset(now);
    break;
  }
  if (status_.state == EnergySavingState::waiting || status_.state == EnergySavingState::working)
    fadeDisabledJoints(dt);

  // The output: incoming request plus offsets; a non-finite incoming angle keeps the last good output. An
  // offset never pushes a request that lies within the joint's range beyond it: a motor asked to press on its
  // stop stalls at full current.
  const StiffnessJointRequest& input = get<StiffnessJointRequest>();
  const JointLimits& limits = get<JointLimits>();
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
  status_.timeInState = static_cast<float>(now - stateStart_);
  updateSearching();
}

void EnergySavingProvider::updateSearching()
{
  const bool adjusting =
      (status_.state == EnergySavingState::waiting || status_.state == EnergySavingState::working) &&
      !accuratePositions_; // accuratePositions' rounds follow the reading, they compare no currents
  for (std::size_t j = 0; j < numOfJoints; ++j)
    status_.searching[j] = adjusting && enabled_[j] && !fadingOut_[j] &&
                           ((aboveThreshold_[j] && settledCurrent_[j] < 0.f) || inHandOver(j));
}

void EnergySavingProvider::updateGroundContact(double now)
{
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
    const bool wasEnabled = enabled_[j];
    enabled_[j] = request.adjust && allowed && !skip_[j];
    if (enabled_[j] && !wasEnabled)
    {
      // Adjusted again (after an arm motion, say): the old search compared currents of another posture, and
      // the old sag bound belonged to it too. A new search, as after a fade from the cap.
      status_.counters[j] = params().stepsBeforeEmergencyStep;
      sagBound_[j] = std::numeric_limits<float>::quiet_NaN();
      restartSearch(j);
    }
  }
}

void EnergySavingProvider::enterState(EnergySavingState state, double now)
{
  status_.state = state;
  stateStart_ = now;
  aboveThreshold_.fill(true); // until the first round has seen the currents: every adjusted joint is searched
  stiffnessChanged_.fill(false);
  handOverFor_.fill(-1); // a hand-over is part of a round's work: every state change ends it
  handOverRound_.fill(0);
  handOverTries_.fill(0);
  if (state != EnergySavingState::working) return;
  contactAtWorkStart_ = status_.groundContact;
  lastRound_ = now; // the first round one adjustWaitTime after working begins (also after a reset)
  status_.counters.fill(params().stepsBeforeEmergencyStep);
  sagBound_.fill(std::numeric_limits<float>::quiet_NaN());
  for (std::size_t j = 0; j < numOfJoints; ++j)
    restartSearch(j);
}

void EnergySavingProvider::startWaiting(double now)
{
  const EnergySavingRequest& request = get<EnergySavingRequest>();
  posture_ = request.posture;
  accuratePositions_ = request.accuratePositions;
  clearOffsets();
  status_.rounds = 0;
  status_.emergencySteps = 0;
  const bool normalStand = posture_ == EnergySavingPosture::stand && !accuratePositions_;
  oneLegJointPerRound_ = normalStand && params().oneLegJointPerRound;
  baseFadeStart_ = now;
  if (normalStand) takeBaseOffsets();
  enterState(EnergySavingState::waiting, now);
}

void EnergySavingProvider::takeBaseOffsets()
{
  const JointSensorData& sensors = get<JointSensorData>();
  const StiffnessJointRequest& input = get<StiffnessJointRequest>();
  for (std::size_t j = 0; j < numOfJoints; ++j)
    if (enabled_[j] && isLegJoint(jointAt(j)) && std::isfinite(sensors.angles[j]) &&
        std::isfinite(input.angles[j]))
      baseOffsets_[j] =
          std::clamp(sensors.angles[j] - input.angles[j], -params().maxBaseOffset, params().maxBaseOffset);
}

float EnergySavingProvider::appliedBase(std::size_t joint) const
{
  const double fadeIn = params().baseOffsetFadeInTime;
  const double ramp = fadeIn > 0 ? std::clamp((lastTime_ - baseFadeStart_) / fadeIn, 0.0, 1.0) : 1.0;
  return static_cast<float>(ramp) * baseOffsets_[joint];
}

MAKE_MODULE(EnergySavingProvider);
} // namespace nao
