// One adjustment round of EnergySavingProvider, the accuratePositions round, the caps and reset check that
// follow each, and the fades (a reset, a joint no longer adjusted). The hand-over: EnergySavingHandOver.cpp.
// The rules and how they compare with B-Human's: the opening comment of EnergySavingProvider.cpp.
#include "Modules/MotionControl/EnergySavingProvider/EnergySavingProvider.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace nao
{
float EnergySavingProvider::threshold(Joint joint) const
{
  const float override = params().currentThresholdOverrides[joint];
  if (override > 0.f) return override;
  if (!isLegJoint(joint)) return params().armCurrentThreshold;
  return std::abs(adjustments_[joint]) > params().largeOffset ? params().legCurrentThresholdLargeOffset
                                                              : params().legCurrentThreshold;
}

float EnergySavingProvider::loadDirection(std::size_t j, const JointArray<int>& signs) const
{
  // The torque the motor must produce to hold the posture: gravity pulls the other way. B-Human's sign tables
  // are one robot's and disagree with the model where the load is large (RShoulderRoll holds -0.12 N·m in both
  // postures, the knees -0.25 N·m in the high stand, both tables say -1).
  const JointTorques& torques = get<JointTorques>();
  const float holding = torques.torques[j];
  if (torques.valid && std::isfinite(holding) && std::abs(holding) >= params().loadDirectionTorque)
    return holding > 0.f ? -1.f : 1.f;
  return signs[j] != 0 ? static_cast<float>(signs[j]) : -1.f;
}

void EnergySavingProvider::runRound()
{
  const JointArray<int>& signs = posture_ == EnergySavingPosture::highStand
                                     ? params().emergencyStepSignsHighStand
                                     : params().emergencyStepSignsStand;
  const FilteredCurrent& filtered = get<FilteredCurrent>();
  // A joint below its threshold has succeeded: its next rise above is a new search from the start.
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    aboveThreshold_[j] =
        !std::isfinite(filtered.currents[j]) || std::abs(filtered.currents[j]) > threshold(jointAt(j));
    if (!aboveThreshold_[j])
    {
      restartSearch(j);
      if (params().searchLeastCurrent) status_.counters[j] = params().stepsBeforeEmergencyStep;
    }
  }
  // B-Human adjusts, in the normal stand, only the leg joint with the highest current per round (the base
  // offsets relieved them all at the start). Ours, by default, every joint each round: on the ensemble, with
  // the current search below, all legs fall below 300 mA in a median 2.0 s (90 %: 3.9 s) instead of 7.6 s
  // (12.1 s), and with less energy (EnergySavingProvider.cpp's opening comment). oneLegJointPerRound brings
  // B-Human's rule back.
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    if (oneLegJointPerRound_ && isLegJoint(jointAt(j)) && jointAt(j) != filtered.highestLegJoint) continue;
    adjustJoint(j, signs);
  }
  handOverLoads();
}

void EnergySavingProvider::adjustJoint(std::size_t j, const JointArray<int>& signs)
{
  const Joint joint = jointAt(j);
  const JointSensorData& sensors = get<JointSensorData>();
  const float current = get<FilteredCurrent>().currents[j];
  const float measured = sensors.angles[j];
  const float requested = get<StiffnessJointRequest>().angles[j];
  // A non-finite sample this frame (the filter keeps its last good mean) skips the joint: its output stays.
  // A joint pushing for its mirror, or being helped by it, holds its offset while the hand-over runs.
  if (inHandOver(j)) return;
  if (!enabled_[j] || fadingOut_[j] || !std::isfinite(sensors.currents[j]) || !std::isfinite(current) ||
      !std::isfinite(measured) || !std::isfinite(requested) || std::abs(current) <= threshold(joint))
    return;
  const bool leg = isLegJoint(joint);
  const float maxStep = leg ? params().maxGearStepLegs : params().maxGearStepArms;
  if (!params().searchLeastCurrent)
  {
    adjustJointAsBHuman(j, signs);
    return;
  }
  const float magnitude = std::abs(current);
  const float finest = params().minGearStep * params().minSearchStepFraction;
  const float tolerance = params().searchCurrentTolerance;
  // The sag: how far the joint has given way from the request plus base offset (B-Human's d). A joint whose
  // gears cannot hold its load slips along with every step that unloads its motor; B-Human's steps follow it
  // until the offsets reset (a worn knee: 3° within a minute, again and again). Ours: once the sag exceeds
  // maxSag, the offset may move that way only until the request meets the joint where it is now, give or take
  // the reading's resolution (within one 12-bit count the board's own angle may lie several of its counts
  // away): the motor may stop holding the joint there, but no longer lets it go.
  const float difference = measured - (requested + appliedBase(j));
  if (std::abs(difference) > params().maxSag && std::isnan(sagBound_[j]))
    sagBound_[j] = difference + std::copysign(params().agreementBand, difference);
  // A settled joint (its search has spent stalledRoundsToSettle rounds at the finest step) holds its offset:
  // under a request that wobbles (a balancer) the current varies from round to round whatever the offset, and
  // a search that went on would walk the offset at random. It searches again when its current rises by its
  // threshold above the highest of its last search rounds, or stays that far above the least for
  // stalledRoundsToSettle rounds (the board's hysteresis can make the same offset draw more the second time,
  // a joint can slip after settling).
  if (settledCurrent_[j] >= 0.f)
  {
    const float rise = threshold(joint);
    settledHighRounds_[j] = magnitude > bestCurrent_[j] + rise ? settledHighRounds_[j] + 1 : 0;
    if (magnitude <= settledCurrent_[j] + rise && settledHighRounds_[j] < params().stalledRoundsToSettle)
      return;
    restartSearch(j);
  }
  if (stiffnessChanged_[j])
  {
    // The current window holds two stiffnesses (a torque limit that cut in or let go): no comparison with
    // the rounds before; the search starts afresh next round at the stiffness the joint has now.
    restartSearch(j);
    return;
  }
  if (magnitude < bestCurrent_[j]) // the current this round is the last step's: the offset it belongs to
  {
    bestCurrent_[j] = magnitude;
    bestAdjustment_[j] = adjustments_[j];
  }
  // Where the reading lies from the motor's target (request, base offset and adjustment): the way a step
  // relieves the motor, as far as a 12-bit reading can tell.
  const float fromTarget = measured - (requested + appliedBase(j) + adjustments_[j]);
  const bool readingDiffers = std::abs(fromTarget) > params().agreementBand;
  const float pull = loadDirection(j, signs);
  if (searchCurrent_[j] < 0.f)
  {
    // The first step of a search: towards the reading (by maxGearStep when farther than that). B-Human steps
    // towards the reading from the request plus base offset, not from the motor's target, so once its offset
    // has passed the reading its steps push on (and a `d > 0 ? 1 : -1` of exactly 0 steps down). Where target
    // and reading agree to within the reading's resolution, the step goes the way the posture's load pulls.
    searchDirection_[j] = readingDiffers ? (fromTarget > 0.f ? 1.f : -1.f) : pull;
    searchStep_[j] = readingDiffers && std::abs(fromTarget) > maxStep ? maxStep : params().minGearStep;
  }
  else if (magnitude > searchCurrent_[j] + tolerance)
  {
    // Worse: the least current lies behind; turn round with half the step.
    searchDirection_[j] = -searchDirection_[j];
    searchStep_[j] = std::max(0.5f * searchStep_[j], finest);
  }
  // Lower, or no different: on, the same way and by the same step. The current is a staircase over the offset
  // (the board holds whole counts of its own angle, 0.022°): between two of its steps it does not change at
  // all.
  if (searchStep_[j] <= finest)
  {
    ++stalledRounds_[j];
    stallPeak_[j] = std::max(stallPeak_[j], magnitude);
  }
  searchCurrent_[j] = magnitude;
  if (stalledRounds_[j] >= params().stalledRoundsToSettle)
  {
    if (params().searchEmergencySteps)
    {
      // B-Human's emergency step where ours settles: one maxGearStep the way the posture's load pulls (sign
      // table) — ours towards the reading when it differs from the target: the sign tables are one robot's,
      // the reading is this joint's. Then a new search.
      const float direction = readingDiffers ? (fromTarget > 0.f ? 1.f : -1.f) : pull;
      adjustments_[j] = withinSagBound(j, adjustments_[j] + maxStep * direction);
      ++status_.emergencySteps;
      restartSearch(j);
      return;
    }
    // Settle on the offset of the least current this search has seen.
    settledCurrent_[j] = stallPeak_[j];
    adjustments_[j] = bestAdjustment_[j];
    return;
  }
  adjustments_[j] = withinSagBound(j, adjustments_[j] + searchDirection_[j] * searchStep_[j]);
}

float EnergySavingProvider::withinSagBound(std::size_t joint, float adjustment) const
{
  // The way the joint gave way is the bound's sign (taken when the sag passed maxSag), not this round's sag: a
  // joint pushed back to the other side since must still be free to step away from the bound.
  const float bound = sagBound_[joint];
  if (std::isnan(bound)) return adjustment;
  return bound > 0.f ? std::min(adjustment, std::max(bound, adjustments_[joint]))
                     : std::max(adjustment, std::min(bound, adjustments_[joint]));
}

void EnergySavingProvider::adjustJointAsBHuman(std::size_t j, const JointArray<int>& signs)
{
  // B-Human's step, literally: towards the reading from the request plus base offset (by maxGearStep when
  // farther, else minGearStep; a difference of exactly 0 steps down), every stepsBeforeEmergencyStep-th round
  // over the threshold an emergency step of maxGearStep along the sign table instead.
  const bool leg = isLegJoint(jointAt(j));
  const float maxStep = leg ? params().maxGearStepLegs : params().maxGearStepArms;
  if (--status_.counters[j] <= 0)
  {
    status_.counters[j] = params().stepsBeforeEmergencyStep;
    adjustments_[j] += maxStep * static_cast<float>(signs[j]);
    status_.emergencySteps += signs[j] != 0;
    return;
  }
  const float difference =
      get<JointSensorData>().angles[j] - (get<StiffnessJointRequest>().angles[j] + appliedBase(j));
  const float size = std::abs(difference) > maxStep ? maxStep : params().minGearStep;
  adjustments_[j] += difference > 0.f ? size : -size;
}

void EnergySavingProvider::restartSearch(std::size_t joint)
{
  searchDirection_[joint] = 0.f;
  searchStep_[joint] = params().minGearStep;
  searchCurrent_[joint] = -1.f;
  settledCurrent_[joint] = -1.f;
  stallPeak_[joint] = 0.f;
  settledHighRounds_[joint] = 0;
  bestCurrent_[joint] = std::numeric_limits<float>::infinity();
  stalledRounds_[joint] = 0;
  handOverTries_[joint] = 0;
}

void EnergySavingProvider::runAccuratePositionsRound()
{
  const JointSensorData& sensors = get<JointSensorData>();
  const StiffnessJointRequest& input = get<StiffnessJointRequest>();
  for (std::size_t j = index(Joint::LHipYawPitch); j <= index(Joint::RAnkleRoll); ++j)
  {
    if (!enabled_[j] || !std::isfinite(sensors.angles[j]) || !std::isfinite(input.angles[j])) continue;
    const float error = input.angles[j] - sensors.angles[j];
    if (std::abs(error) <= params().minGearStep) continue; // B-Human's dead band
    const float direction = error > 0.f ? 1.f : -1.f;
    if (--status_.counters[j] <= 0)
    {
      status_.counters[j] = params().stepsBeforeEmergencyStep;
      adjustments_[j] += direction * params().maxGearStepLegs;
      ++status_.emergencySteps;
      continue;
    }
    const float size = std::abs(error) > params().maxGearStepLegs
                           ? params().maxGearStepLegs
                           : params().accurateFineStepFraction * params().minGearStep;
    adjustments_[j] += direction * size;
  }
}

void EnergySavingProvider::capOffsetsAndCheckReset(double now)
{
  int largeLegOffsets = 0;
  bool legCapped = false;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const float offset = adjustments_[j];
    const bool leg = isLegJoint(jointAt(j));
    largeLegOffsets += leg && std::abs(offset) > params().largeOffset;
    const float capped = std::clamp(offset, -params().maxOffset, params().maxOffset);
    if (capped == offset) continue;
    adjustments_[j] = capped;
    if (leg)
      legCapped = true;
    else
      fadingOut_[j] = true; // an arm joint that hit the cap fades back on its own (B-Human: reset all)
  }
  if (largeLegOffsets < params().largeOffsetJointsForReset && !legCapped) return;
  // B-Human's isComStable: never in the normal stand or without ground contact; in the high stand the centre
  // of mass must lie in its window.
  const bool stable =
      status_.groundContact && posture_ == EnergySavingPosture::highStand && centerOfMassInWindow();
  if (!stable) startReset(EnergySavingResetReason::offsetsTooLarge, EnergySavingState::working, now);
}

bool EnergySavingProvider::centerOfMassInWindow() const
{
  const RobotModel& model = get<RobotModel>();
  const auto& angles = get<InertialSensorData>().angles;
  // The centre of mass relative to the point between the soles, turned by the torso's roll and pitch (IMU)
  // into the ground-aligned frame: where it is over the feet, whatever the legs' angles make of the torso
  // frame.
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
  return x >= params().centerOfMassMin[0] && x <= params().centerOfMassMax[0] &&
         y >= params().centerOfMassMin[1] && y <= params().centerOfMassMax[1];
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
  adjustments_.fill(0.f);
  baseOffsets_.fill(0.f);
  fadingOut_.fill(false);
  const bool active = get<EnergySavingRequest>().adjust &&
                      std::find(enabled_.begin(), enabled_.end(), true) != enabled_.end();
  if (afterReset_ == EnergySavingState::working && active)
    enterState(EnergySavingState::working, now); // B-Human: work resumes, without base offsets
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
    if (!enabled_[j] || fadingOut_[j])
    {
      // Base offset and adjustment each fade at this rate (a disabled leg joint may have both).
      adjustments_[j] = towardZero(adjustments_[j]);
      baseOffsets_[j] = towardZero(baseOffsets_[j]);
      if (!fadingOut_[j] || adjustments_[j] != 0.f) continue;
      fadingOut_[j] = false; // faded out: the joint starts over
      status_.counters[j] = params().stepsBeforeEmergencyStep;
      sagBound_[j] = std::numeric_limits<float>::quiet_NaN();
      restartSearch(j);
    }
}

void EnergySavingProvider::clearOffsets()
{
  adjustments_.fill(0.f);
  baseOffsets_.fill(0.f);
  oneLegJointPerRound_ = false;
  fadingOut_.fill(false);
  sagBound_.fill(std::numeric_limits<float>::quiet_NaN());
  for (std::size_t j = 0; j < numOfJoints; ++j)
    restartSearch(j);
}

} // namespace nao
