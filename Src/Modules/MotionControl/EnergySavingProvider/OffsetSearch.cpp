#include "Modules/MotionControl/EnergySavingProvider/OffsetSearch.h"

#include "Modules/MotionControl/EnergySavingProvider/EnergySavingParameters.h"

#include <algorithm>
#include <cmath>

namespace nao
{
void OffsetSearch::restart(float minGearStep)
{
  direction_ = 0.f;
  step_ = minGearStep;
  lastCurrent_ = -1.f;
  settledCurrent_ = -1.f;
  stallPeak_ = 0.f;
  settledHighRounds_ = 0;
  bestCurrent_ = std::numeric_limits<float>::infinity();
  stalledRounds_ = 0;
}

float OffsetSearch::round(const SearchRound& in, const EnergySavingParameters& p)
{
  const float finest = p.minGearStep * p.minSearchStepFraction;
  // The sag: how far the joint has given way from the request plus base offset (B-Human's d). Once it exceeds
  // maxSag the adjustment may move that way only until the request meets the joint where it is now, give or
  // take the reading's resolution.
  const float difference = in.measured - (in.requested + in.base);
  if (std::abs(difference) > p.maxSag && std::isnan(sagBound_))
    sagBound_ = difference + std::copysign(p.agreementBand, difference);
  // A settled joint holds its offset until its current rises by its threshold above the highest of its last
  // search rounds, or stays that far above the least for stalledRoundsToSettle rounds.
  if (settled())
  {
    settledHighRounds_ = in.current > bestCurrent_ + in.threshold ? settledHighRounds_ + 1 : 0;
    if (in.current <= settledCurrent_ + in.threshold && settledHighRounds_ < p.stalledRoundsToSettle)
      return in.adjustment;
    restart(p.minGearStep);
  }
  if (in.stiffnessChanged)
  {
    // The current window holds two stiffnesses: no comparison; afresh next round at the stiffness it has now.
    restart(p.minGearStep);
    return in.adjustment;
  }
  if (in.current < bestCurrent_) // this round's current is the last step's: the offset it belongs to
  {
    bestCurrent_ = in.current;
    bestAdjustment_ = in.adjustment;
  }
  // Where the reading lies from the motor's target: the way a step relieves the motor, as far as a 12-bit
  // reading can tell.
  const float fromTarget = in.measured - (in.requested + in.base + in.adjustment);
  const bool readingDiffers = std::abs(fromTarget) > p.agreementBand;
  if (lastCurrent_ < 0.f)
  {
    // The first step: towards the reading (by maxStep when farther than that); where target and reading agree
    // to within the reading's resolution, the way the posture's load pulls.
    direction_ = readingDiffers ? (fromTarget > 0.f ? 1.f : -1.f) : in.pull;
    step_ = readingDiffers && std::abs(fromTarget) > in.maxStep ? in.maxStep : p.minGearStep;
  }
  else if (in.current > lastCurrent_ + p.searchCurrentTolerance)
  {
    // Worse: the least current lies behind; turn round with half the step.
    direction_ = -direction_;
    step_ = std::max(0.5f * step_, finest);
  }
  // Lower, or no different: on, the same way and by the same step (the current is a staircase over the offset:
  // between two of the board's counts it does not change at all). A way the step bound barred took the current far
  // above the reference: turn round as from a worse one.
  if (in.adjustment + direction_ * step_ > in.highest || in.adjustment + direction_ * step_ < in.lowest)
  {
    direction_ = -direction_;
    step_ = std::max(0.5f * step_, finest);
  }
  if (step_ <= finest)
  {
    ++stalledRounds_;
    stallPeak_ = std::max(stallPeak_, in.current);
  }
  lastCurrent_ = in.current;
  if (stalledRounds_ >= p.stalledRoundsToSettle)
  {
    settledCurrent_ = stallPeak_; // settle on the offset of the least current this search has seen
    return std::clamp(bestAdjustment_, in.lowest, std::max(in.lowest, in.highest));
  }
  const float next =
      std::clamp(in.adjustment + direction_ * step_, in.lowest, std::max(in.lowest, in.highest));
  return withinSagBound(next, in.adjustment);
}

float OffsetSearch::withinSagBound(float adjustment, float current) const
{
  // The way the joint gave way is the bound's sign (taken when the sag passed maxSag), not this round's sag: a
  // joint pushed back to the other side since must still be free to step away from the bound.
  if (std::isnan(sagBound_)) return adjustment;
  return sagBound_ > 0.f ? std::min(adjustment, std::max(sagBound_, current))
                         : std::max(adjustment, std::min(sagBound_, current));
}
} // namespace nao
