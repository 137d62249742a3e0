// The cycle's side of the guard (JointGuard.h, README "The guard: do no harm"): references taken at zero offset,
// one judgement per joint and round, and the fades towards what a held joint is held at.
#include "Modules/MotionControl/EnergySavingProvider/HeatAdjustmentCycle.h"

#include <algorithm>
#include <cmath>

namespace nao
{
bool HeatAdjustmentCycle::takeReferences(double now)
{
  const FilteredCurrent& filtered = in_->filtered;
  bool legsMeasured = true;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    if (!enabled_[j] || guards_[j].state() != HeatGuardState::measuring) continue;
    // The current window of the round holds nothing but zero offset: what the joint draws without the stage.
    const bool zeroForAWindow = zeroSince_[j] >= 0 && now - zeroSince_[j] >= p_->adjustWaitTime - 1e-6;
    const bool taken = zeroForAWindow && std::isfinite(filtered.currents[j]) &&
                       std::isfinite(in_->request.angles[j]) && std::isfinite(in_->sensors.angles[j]) &&
                       guards_[j].offerReference(std::abs(filtered.currents[j]), in_->request.angles[j],
                                                 in_->sensors.angles[j], p_->guard);
    legsMeasured = legsMeasured && (taken || !isLegJoint(jointAt(j)));
  }
  // B-Human's base offsets (measured − requested) belong to the settled posture, and at zero offset the legs'
  // references: until every leg joint has settled the stand's rounds wait, nothing moves.
  if (!baseOffsetsDue_) return false;
  if (!legsMeasured) return true;
  baseOffsetsDue_ = false;
  takeBaseOffsets(); // B-Human's, one round later: measured − requested of the settled posture
  baseFadeStart_ = now;
  return true;
}

void HeatAdjustmentCycle::guardRound(double now)
{
  const FilteredCurrent& filtered = in_->filtered;
  bool shaking = false;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    if (!enabled_[j]) continue;
    const float current = std::abs(filtered.currents[j]);
    const HeatGuardRule rule =
        guards_[j].round(current, appliedBase(j) + adjustments_[j], in_->sensors.angles[j], p_->guard);
    if (rule == HeatGuardRule::none) continue;
    guardEvent(j, rule, current, now);
    rounds_.restartJoint(j); // what its rounds learnt led here; a released joint searches afresh
    if (rule == HeatGuardRule::jointRestless && isLegJoint(jointAt(j))) shaking = true;
  }
  if (!shaking) return;
  // A leg that oscillates shakes the body: no joint rests on its gears, and an offset anywhere changes how it
  // shakes (it started the same in a quiet elbow). Every joint the stage adjusts is left at zero offset.
  for (std::size_t j = 0; j < numOfJoints; ++j)
    if (enabled_[j] && guards_[j].state() != HeatGuardState::restless)
    {
      guards_[j].shaken();
      rounds_.restartJoint(j);
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

void HeatAdjustmentCycle::updateGuards(float dt)
{
  if (!guarding()) return;
  const float stepSize = p_->resetTime > 0 ? p_->maxOffset * dt / p_->resetTime : p_->maxOffset;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    JointGuard& guard = guards_[j];
    if (!enabled_[j]) continue;
    const float request = in_->request.angles[j];
    if (guard.state() != HeatGuardState::measuring && std::isfinite(request) &&
        std::abs(request - guard.referenceRequest()) > p_->guard.postureTolerance)
    {
      guard.reset(); // another posture for this joint: its reference belongs to the old one
      rounds_.restartJoint(j);
    }
    guard.observe(in_->sensors.angles[j]);
    if (!guard.holds()) continue;
    // Towards the offset the guard holds the joint at, as fast as a disabled joint fades (nothing jumps).
    if (guard.state() == HeatGuardState::heldAtBest)
    {
      const float target = guard.heldOffset() - appliedBase(j);
      adjustments_[j] += std::clamp(target - adjustments_[j], -stepSize, stepSize);
    }
    else
    {
      adjustments_[j] -= std::clamp(adjustments_[j], -stepSize, stepSize);
      baseOffsets_[j] -= std::clamp(baseOffsets_[j], -stepSize, stepSize);
    }
  }
}
} // namespace nao
