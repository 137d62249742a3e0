#include "Modules/MotionControl/EnergySavingProvider/LeastCurrentRounds.h"

#include <cmath>
#include <limits>

namespace nao
{
LeastCurrentRounds::LeastCurrentRounds(const EnergySavingParameters& parameters) : p_(&parameters)
{
  lastStiffness_.fill(std::numeric_limits<float>::quiet_NaN());
}

void LeastCurrentRounds::restartSearch(std::size_t joint)
{
  searches_[joint].restart(p_->minGearStep);
  handOver_.forgetTries(joint);
}

void LeastCurrentRounds::clear()
{
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    searches_[j].forgetSag();
    restartSearch(j);
  }
}

void LeastCurrentRounds::enterState(EnergySavingState state)
{
  aboveThreshold_.fill(true); // until the first round has seen the currents: every adjusted joint is searched
  stiffnessChanged_.fill(false);
  handOver_.reset(); // a hand-over is part of a round's work: every state change ends it
  if (state == EnergySavingState::working) clear();
}

void LeastCurrentRounds::restartJoint(std::size_t joint)
{
  searches_[joint].forgetSag();
  restartSearch(joint);
}

void LeastCurrentRounds::everyFrame(const HeatAdjustmentInputs& in)
{
  const JointArray<float>& stiffnesses = in.request.stiffnesses;
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

float LeastCurrentRounds::loadDirection(std::size_t j, const RoundContext& context) const
{
  // The torque the motor must produce to hold the posture: gravity pulls the other way. B-Human's sign tables
  // are one robot's and disagree with the model where the load is large.
  const JointTorques& torques = context.in.torques;
  const float holding = torques.torques[j];
  if (torques.valid && std::isfinite(holding) && std::abs(holding) >= p_->loadDirectionTorque)
    return holding > 0.f ? -1.f : 1.f;
  return context.signs[j] != 0 ? static_cast<float>(context.signs[j]) : -1.f;
}

void LeastCurrentRounds::round(RoundContext& context)
{
  const FilteredCurrent& filtered = context.in.filtered;
  // A joint below its threshold has succeeded: its next rise above is a new search from the start.
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const float threshold = p_->currentThreshold(jointAt(j), context.adjustments[j]);
    aboveThreshold_[j] = !std::isfinite(filtered.currents[j]) || std::abs(filtered.currents[j]) > threshold;
    if (!aboveThreshold_[j])
    {
      restartSearch(j);
      context.status.counters[j] = p_->stepsBeforeEmergencyStep;
    }
  }
  for (std::size_t j = 0; j < numOfJoints; ++j)
    adjustJoint(j, context);
  HandOverRound handOver{context.in.request.angles,
                         filtered.currents,
                         context.enabled,
                         context.fadingOut,
                         aboveThreshold_,
                         context.in.torques,
                         context.status.groundContact,
                         searches_,
                         context.adjustments};
  handOver_.round(handOver, *p_);
  stiffnessChanged_.fill(false);
}

void LeastCurrentRounds::adjustJoint(std::size_t j, RoundContext& context)
{
  const Joint joint = jointAt(j);
  const float current = context.in.filtered.currents[j];
  const float measured = context.in.sensors.angles[j];
  const float requested = context.in.request.angles[j];
  const float threshold = p_->currentThreshold(joint, context.adjustments[j]);
  // A non-finite sample this frame (the filter keeps its last good mean) skips the joint: its output stays.
  // A joint pushing for its mirror, or being helped by it, holds its offset while the hand-over runs.
  if (handOver_.involves(j) || !context.enabled[j] || context.fadingOut[j] ||
      !std::isfinite(context.in.sensors.currents[j]) || !std::isfinite(current) || !std::isfinite(measured) ||
      !std::isfinite(requested) || std::abs(current) <= threshold)
    return;
  const SearchRound in{std::abs(current),
                       threshold,
                       measured,
                       requested,
                       context.baseOffsets[j],
                       context.adjustments[j],
                       isLegJoint(joint) ? p_->maxGearStepLegs : p_->maxGearStepArms,
                       loadDirection(j, context),
                       stiffnessChanged_[j]};
  OffsetSearch& search = searches_[j];
  const unsigned generation = search.generation();
  context.adjustments[j] = search.round(in, *p_);
  if (search.generation() != generation) handOver_.forgetTries(j); // the search started afresh
}

void LeastCurrentRounds::accuratePositionsRound(RoundContext& context)
{
  // B-Human's accuratePositions, with the emergency step towards the request (B-Human's is always positive and
  // moves a joint that must go down the wrong way).
  const JointSensorData& sensors = context.in.sensors;
  const StiffnessJointRequest& input = context.in.request;
  for (std::size_t j = index(Joint::LHipYawPitch); j <= index(Joint::RAnkleRoll); ++j)
  {
    if (!context.enabled[j] || !std::isfinite(sensors.angles[j]) || !std::isfinite(input.angles[j])) continue;
    const float error = input.angles[j] - sensors.angles[j];
    if (std::abs(error) <= p_->minGearStep) continue; // B-Human's dead band
    const float direction = error > 0.f ? 1.f : -1.f;
    if (--context.status.counters[j] <= 0)
    {
      context.status.counters[j] = p_->stepsBeforeEmergencyStep;
      context.adjustments[j] += direction * p_->maxGearStepLegs;
      ++context.status.emergencySteps;
      continue;
    }
    const float size = std::abs(error) > p_->maxGearStepLegs ? p_->maxGearStepLegs
                                                             : p_->accurateFineStepFraction * p_->minGearStep;
    context.adjustments[j] += direction * size;
  }
  stiffnessChanged_.fill(false);
}
} // namespace nao
