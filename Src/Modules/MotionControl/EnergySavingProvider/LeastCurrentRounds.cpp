#include "Modules/MotionControl/EnergySavingProvider/LeastCurrentRounds.h"

#include <cmath>
#include <limits>

namespace nao
{
LeastCurrentRounds::LeastCurrentRounds(const EnergySavingParameters& p)
{
  lastStiffness_.fill(std::numeric_limits<float>::quiet_NaN());
  clear(p);
}

void LeastCurrentRounds::restartSearch(std::size_t joint, const EnergySavingParameters& p)
{
  searches_[joint].restart(p.minGearStep);
}

void LeastCurrentRounds::clear(const EnergySavingParameters& p)
{
  for (std::size_t j = 0; j < numOfJoints; ++j)
    restartJoint(j, p);
}

void LeastCurrentRounds::enterState(EnergySavingState state, const EnergySavingParameters& p)
{
  aboveThreshold_.fill(true); // until the first round has seen the currents: every adjusted joint is searched
  stiffnessChanged_.fill(false);
  handOver_.reset(); // a hand-over is part of a round's work: every state change ends it
  if (state == EnergySavingState::working) clear(p);
}

void LeastCurrentRounds::restartJoint(std::size_t joint, const EnergySavingParameters& p)
{
  // A new posture for the joint: its sag bound and the hand-overs it has tried belong to the old one.
  searches_[joint].forgetSag();
  restartSearch(joint, p);
  handOver_.forgetTries(joint);
}

void LeastCurrentRounds::stepUndone(std::size_t joint, const EnergySavingParameters& p)
{
  // Its offset goes back to where the search stood before: the search starts afresh from there (the barred way
  // turns it round), and a hand-over it pushed in counts that way as tried.
  restartSearch(joint, p);
  handOver_.stepUndone(joint);
}

void LeastCurrentRounds::everyFrame(const HeatAdjustmentInputs& in)
{
  const JointArray<float>& stiffnesses = in.get<StiffnessJointRequest>().stiffnesses;
  for (std::size_t j = 0; j < numOfJoints; ++j) // a NaN compares unequal: counts as a change
  {
    stiffnessChanged_[j] = stiffnessChanged_[j] || stiffnesses[j] != lastStiffness_[j];
    lastStiffness_[j] = stiffnesses[j];
  }
}

bool LeastCurrentRounds::searching(std::size_t joint) const
{
  return (aboveThreshold_[joint] && !searches_[joint].settled()) || handOver_.involves(joint);
}

float LeastCurrentRounds::loadDirection(std::size_t j, const RoundContext& context,
                                        const EnergySavingParameters& p) const
{
  // The torque the motor must produce to hold the posture: gravity pulls the other way. B-Human's sign tables
  // are one robot's and disagree with the model where the load is large.
  const JointTorques& torques = context.in.get<JointTorques>();
  const float holding = torques.torques[j];
  if (torques.valid && std::isfinite(holding) && std::abs(holding) >= p.loadDirectionTorque)
    return holding > 0.f ? -1.f : 1.f;
  return context.signs[j] != 0 ? static_cast<float>(context.signs[j]) : -1.f;
}

void LeastCurrentRounds::round(RoundContext& context, const EnergySavingParameters& p)
{
  const FilteredCurrent& filtered = context.in.get<FilteredCurrent>();
  // A joint below its threshold has succeeded: its next rise above is a new search from the start.
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const float threshold = p.currentThreshold(jointAt(j), context.adjustments[j]);
    aboveThreshold_[j] = !std::isfinite(filtered.currents[j]) || std::abs(filtered.currents[j]) > threshold;
    if (!aboveThreshold_[j])
    {
      restartSearch(j, p);
      context.status.counters[j] = p.stepsBeforeEmergencyStep;
    }
  }
  for (std::size_t j = 0; j < numOfJoints; ++j)
    adjustJoint(j, context, p);
  JointArray<bool> blocked;
  JointArray<float> lowest, highest; // rad, the adjustments the step bound leaves open
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    blocked[j] = context.fadingOut[j] || context.held[j];
    lowest[j] = context.lowest[j] - context.baseOffsets[j];
    highest[j] = context.highest[j] - context.baseOffsets[j];
  }
  HandOverRound handOver{context.in.get<StiffnessJointRequest>().angles,
                         filtered.currents,
                         context.enabled,
                         blocked,
                         aboveThreshold_,
                         context.in.get<JointTorques>(),
                         context.status.groundContact,
                         searches_,
                         context.adjustments,
                         lowest,
                         highest};
  handOver_.round(handOver, p);
  reportHandOverEvents(context);
  stiffnessChanged_.fill(false);
}

void LeastCurrentRounds::reportHandOverEvents(RoundContext& context)
{
  if (handOver_.events() == handOverEvents_) return;
  context.status.guardEvents += handOver_.events() - handOverEvents_;
  handOverEvents_ = handOver_.events();
  const HandOver::Event& event = handOver_.lastEvent();
  context.status.lastGuardJoint = jointAt(event.joint);
  context.status.lastGuardRule = event.rule;
  context.status.lastGuardTime = static_cast<float>(context.in.get<FrameInfo>().time);
  context.status.lastGuardCurrent = event.current;
}

void LeastCurrentRounds::adjustJoint(std::size_t j, RoundContext& context, const EnergySavingParameters& p)
{
  const Joint joint = jointAt(j);
  const float current = context.in.get<FilteredCurrent>().currents[j];
  const float measured = context.in.get<JointSensorData>().angles[j];
  const float requested = context.in.get<StiffnessJointRequest>().angles[j];
  const float threshold = p.currentThreshold(joint, context.adjustments[j]);
  // A non-finite sample this frame (the filter keeps its last good mean) skips the joint: its output stays.
  // A joint pushing for its mirror, or being helped by it, holds its offset while the hand-over runs.
  if (handOver_.involves(j) || !context.enabled[j] || context.fadingOut[j] || context.held[j] ||
      !std::isfinite(context.in.get<JointSensorData>().currents[j]) || !std::isfinite(current) ||
      !std::isfinite(measured) || !std::isfinite(requested) || std::abs(current) <= threshold)
    return;
  const SearchRound in{std::abs(current),
                       threshold,
                       measured,
                       requested,
                       context.baseOffsets[j],
                       context.adjustments[j],
                       isLegJoint(joint) ? p.maxGearStepLegs : p.maxGearStepArms,
                       loadDirection(j, context, p),
                       stiffnessChanged_[j],
                       context.lowest[j] - context.baseOffsets[j],
                       context.highest[j] - context.baseOffsets[j]};
  context.adjustments[j] = searches_[j].round(in, p);
}

void LeastCurrentRounds::accuratePositionsRound(RoundContext& context, const EnergySavingParameters& p)
{
  // B-Human's accuratePositions, with the emergency step towards the request (B-Human's is always positive and
  // moves a joint that must go down the wrong way).
  stepLegsTowardsRequest(context, p, EmergencyStep::towardsRequest);
}
} // namespace nao
