// The cycle's side of the guard (JointGuard.h, EnergySavingProvider/README.md, "The guard: do no harm"): references
// taken at zero offset, one judgement per joint and round, the step bound every frame, and the fades towards what a
// held joint is held at.
#include "Modules/MotionControl/Common/HeatAdjustmentCycle.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace nao
{
namespace
{
/// Whether `a` and `b` carry a share of the same load: joints of one limb (of both legs while both feet are on the
/// floor, a closed chain) that turn in the same plane. A leg's pitch joints hold the body's weight in front and
/// behind, its roll joints hold it sideways; the hip yaw-pitch joint, tilted 45°, does both.
bool sharesLoad(Joint a, Joint b, bool bothFeetDown)
{
  const auto sagittal = [](Joint j)
  {
    return j == Joint::LHipYawPitch || j == Joint::LHipPitch || j == Joint::LKneePitch ||
           j == Joint::LAnklePitch || j == Joint::RHipPitch || j == Joint::RKneePitch ||
           j == Joint::RAnklePitch;
  };
  const auto frontal = [](Joint j)
  {
    return j == Joint::LHipYawPitch || j == Joint::LHipRoll || j == Joint::LAnkleRoll ||
           j == Joint::RHipRoll || j == Joint::RAnkleRoll;
  };
  const bool chain =
      (limbsOfJoint[a] & limbsOfJoint[b]) != 0 || (bothFeetDown && isLegJoint(a) && isLegJoint(b));
  if (!chain) return false;
  if (!isLegJoint(a) || !isLegJoint(b)) return true; // an arm: every joint of it carries the arm's weight
  return (sagittal(a) && sagittal(b)) || (frontal(a) && frontal(b));
}
} // namespace

bool HeatAdjustmentCycle::guarding(const Frame& frame) const
{
  return frame.parameters.guard.enabled && !accuratePositions_;
}

bool HeatAdjustmentCycle::bounded(const Frame& frame, std::size_t joint) const
{
  const HeatGuardState state = guards_[joint].state();
  return guarding(frame) && enabled_[joint] && status_.state == EnergySavingState::working &&
         state != HeatGuardState::measuring && state != HeatGuardState::restless;
}

bool HeatAdjustmentCycle::takeReferences(const Frame& frame, double now)
{
  const FilteredCurrent& filtered = frame.in.get<FilteredCurrent>();
  const JointSensorData& sensors = frame.in.get<JointSensorData>();
  const StiffnessJointRequest& input = frame.in.get<StiffnessJointRequest>();
  bool legsMeasured = true;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    if (!enabled_[j] || guards_[j].state() != HeatGuardState::measuring) continue;
    // The current window of the round holds nothing but zero offset: what the joint draws without the stage.
    const bool zeroForAWindow =
        zeroSince_[j] >= 0 && now - zeroSince_[j] >= frame.parameters.adjustWaitTime - 1e-6;
    const bool taken = zeroForAWindow && std::isfinite(filtered.currents[j]) &&
                       std::isfinite(input.angles[j]) && std::isfinite(sensors.angles[j]) &&
                       guards_[j].offerReference(std::abs(filtered.currents[j]), input.angles[j],
                                                 sensors.angles[j], frame.parameters.guard);
    legsMeasured = legsMeasured && (taken || !isLegJoint(jointAt(j)));
  }
  // B-Human's base offsets (measured − requested) belong to the settled posture, and at zero offset the legs'
  // references: until every leg joint has settled the stand's rounds wait, nothing moves.
  if (!baseOffsetsDue_) return false;
  if (!legsMeasured) return true;
  baseOffsetsDue_ = false;
  takeBaseOffsets(frame); // B-Human's, one round later: measured − requested of the settled posture
  baseFadeStart_ = now;
  return true;
}

void HeatAdjustmentCycle::guardRound(const Frame& frame, double now)
{
  const FilteredCurrent& filtered = frame.in.get<FilteredCurrent>();
  bool shaking = false;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    if (!enabled_[j]) continue;
    const float current = std::abs(filtered.currents[j]);
    const HeatGuardRule rule =
        guards_[j].round(current, appliedBase(frame, j) + adjustments_[j],
                         frame.in.get<JointSensorData>().angles[j], frame.parameters.guard);
    if (rule == HeatGuardRule::none) continue;
    guardEvent(j, rule, current, now);
    frame.rounds.restartJoint(j); // what its rounds learnt led here; a released joint searches afresh
    if (rule == HeatGuardRule::jointRestless && isLegJoint(jointAt(j))) shaking = true;
  }
  if (!shaking) return;
  // A leg that oscillates shakes the body: no joint rests on its gears, and an offset anywhere changes how it
  // shakes (it started the same in a quiet elbow). Every joint the stage adjusts is left at zero offset.
  for (std::size_t j = 0; j < numOfJoints; ++j)
    if (enabled_[j] && guards_[j].state() != HeatGuardState::restless)
    {
      guards_[j].shaken();
      frame.rounds.restartJoint(j);
    }
}

void HeatAdjustmentCycle::guardEvent(std::size_t joint, HeatGuardRule rule, float current, double now)
{
  ++status_.guardEvents;
  status_.lastGuardJoint = jointAt(joint);
  status_.lastGuardRule = rule;
  status_.lastGuardTime = static_cast<float>(now);
  status_.lastGuardCurrent = current;
}

void HeatAdjustmentCycle::updateGuards(const Frame& frame, float dt)
{
  if (!guarding(frame)) return;
  const float stepSize = frame.parameters.resetTime > 0
                             ? frame.parameters.maxOffset * dt / frame.parameters.resetTime
                             : frame.parameters.maxOffset;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    JointGuard& guard = guards_[j];
    if (!enabled_[j]) continue;
    const float request = frame.in.get<StiffnessJointRequest>().angles[j];
    if (guard.state() != HeatGuardState::measuring && std::isfinite(request) &&
        std::abs(request - guard.referenceRequest()) > frame.parameters.guard.postureTolerance)
    {
      guard.reset(); // another posture for this joint: its reference belongs to the old one
      frame.rounds.restartJoint(j);
    }
    guard.observe(frame.in.get<JointSensorData>().angles[j]);
    if (!guard.holds()) continue;
    // Towards the offset the guard holds the joint at, as fast as a disabled joint fades (nothing jumps).
    if (guard.state() == HeatGuardState::heldAtBest)
    {
      const float target = guard.heldOffset() - appliedBase(frame, j);
      adjustments_[j] += std::clamp(target - adjustments_[j], -stepSize, stepSize);
    }
    else
    {
      adjustments_[j] -= std::clamp(adjustments_[j], -stepSize, stepSize);
      baseOffsets_[j] -= std::clamp(baseOffsets_[j], -stepSize, stepSize);
    }
  }
  checkSteps(frame);
}

void HeatAdjustmentCycle::startStepRound(const Frame& frame)
{
  const FilteredCurrent& filtered = frame.in.get<FilteredCurrent>();
  const JointSensorData& sensors = frame.in.get<JointSensorData>();
  for (std::size_t j = 0; j < numOfJoints; ++j)
    guards_[j].startStepRound(status_.offsets[j], std::abs(filtered.currents[j]),
                              std::abs(sensors.currents[j]), sensors.angles[j], frame.parameters.guard);
}

void HeatAdjustmentCycle::checkSteps(const Frame& frame)
{
  // Every frame: a change that takes a joint's current far above its reference goes back within the round that made
  // it (keepWithinBounds), and the rounds start the search of a joint that went back afresh.
  const double now = frame.in.get<FrameInfo>().time;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    if (!bounded(frame, j)) continue;
    const float current = std::abs(frame.in.get<FilteredCurrent>().currents[j]);
    const StepBound::Verdict verdict = guards_[j].checkStep(
        status_.offsets[j], current, frame.in.get<JointSensorData>().angles[j], frame.parameters.guard);
    if (verdict == StepBound::Verdict::own)
    {
      guardEvent(j, HeatGuardRule::stepAboveBound, current, now);
      frame.rounds.stepUndone(j);
    }
    if (verdict == StepBound::Verdict::loaded) undoLoading(frame, j, current, now);
  }
}

void HeatAdjustmentCycle::undoLoading(const Frame& frame, std::size_t j, float current, double now)
{
  // Not its own change. A hand-over's push moves load onto the joint it helps on purpose: it goes back. The other
  // joints' steps move a joint's load in passing: one that holds its load on its gears (it draws no more than its
  // threshold without the stage) answers that with its own search within its next round, but one that needs its
  // motor to hold it (a worn knee: its reference is above its threshold) gives way under more load, and the count it
  // gains does not come back: there, the steps of the joints that share its load go back.
  const Joint loaded = jointAt(j);
  const bool givesWay = guards_[j].reference() > frame.parameters.currentThreshold(loaded, adjustments_[j]);
  const int pusher = frame.rounds.pushedBy(j);
  for (std::size_t m = 0; m < numOfJoints; ++m)
  {
    const bool loads = static_cast<int>(m) == pusher ||
                       (givesWay && m != j && sharesLoad(loaded, jointAt(m), status_.groundContact));
    if (!loads || !bounded(frame, m) || !guards_[m].undoStep(status_.offsets[m])) continue;
    guardEvent(m, HeatGuardRule::stepAboveBound, current, now);
    frame.rounds.stepUndone(m);
  }
}

void HeatAdjustmentCycle::keepWithinBounds(const Frame& frame)
{
  // Back within the ways the step bound leaves open, as fast as a round's largest step (nothing jumps further).
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    if (!bounded(frame, j)) continue;
    const float offset = appliedBase(frame, j) + adjustments_[j];
    const float maxStep =
        isLegJoint(jointAt(j)) ? frame.parameters.maxGearStepLegs : frame.parameters.maxGearStepArms;
    adjustments_[j] += std::clamp(guards_[j].bound().clamp(offset) - offset, -maxStep, maxStep);
  }
}

void HeatAdjustmentCycle::openOffsets(const Frame& frame, JointArray<float>& lowest,
                                      JointArray<float>& highest) const
{
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const bool bound = bounded(frame, j);
    lowest[j] = bound ? guards_[j].bound().lowest() : -std::numeric_limits<float>::infinity();
    highest[j] = bound ? guards_[j].bound().highest() : std::numeric_limits<float>::infinity();
  }
}
} // namespace nao
