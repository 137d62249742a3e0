#include "Modules/MotionControl/Common/JointGuard.h"

#include <algorithm>
#include <cmath>

namespace nao
{
void JointGuard::setReference(float current, float request, float reading)
{
  reset();
  reference_ = current;
  request_ = request;
  reading_ = reading;
  bestCurrent_ = current; // zero offset: the least the joint is known to draw so far
  bestOffset_ = 0.f;
  state_ = HeatGuardState::watching;
}

bool JointGuard::offerReference(float current, float request, float reading, const JointGuardParameters& p)
{
  if (state_ != HeatGuardState::measuring) return false;
  const float halfMargin = 0.5f * (offeredCurrent_ * p.marginFraction + p.marginCurrent);
  const bool settled = std::abs(current - offeredCurrent_) <= halfMargin &&
                       std::abs(reading - offeredReading_) <= p.restlessSpan;
  if (settled || ++offers_ >= p.settleRounds)
  {
    setReference(current, request, reading);
    return true;
  }
  offeredCurrent_ = current;
  offeredReading_ = reading;
  return false;
}

void JointGuard::searchAgain(float current, float offset)
{
  released_ = true;
  state_ = HeatGuardState::watching;
  bestCurrent_ = current;
  bestOffset_ = offset;
}

StepBound::Verdict JointGuard::checkStep(float offset, float current, float reading,
                                         const JointGuardParameters& p)
{
  // A measuring joint is at zero offset, a restless one fades there: neither is the stage's doing.
  if (state_ == HeatGuardState::measuring || state_ == HeatGuardState::restless)
    return StepBound::Verdict::none;
  const float margin = reference_ * p.marginFraction + p.marginCurrent;
  return bound_.frame(offset, current, reading, stepLimit(p), margin, p.gaveWay);
}

void JointGuard::observe(float reading)
{
  if (!std::isfinite(reading)) return;
  if (std::isfinite(lastReading_)) travel_ += std::abs(reading - lastReading_);
  if (!std::isfinite(windowStart_)) windowStart_ = reading;
  lastReading_ = reading;
  lowestReading_ = std::min(lowestReading_, reading);
  highestReading_ = std::max(highestReading_, reading);
}

HeatGuardRule JointGuard::round(float current, float offset, float reading, const JointGuardParameters& p)
{
  restlessRounds_ = endReadingWindow(p) ? restlessRounds_ + 1 : 0;
  if (state_ == HeatGuardState::restless) return HeatGuardRule::none;
  if (restlessRounds_ >= p.restlessRounds)
  {
    state_ = HeatGuardState::restless;
    return HeatGuardRule::jointRestless;
  }
  if (state_ == HeatGuardState::measuring || released_ || !std::isfinite(current)) return HeatGuardRule::none;
  currents_[static_cast<std::size_t>(next_)] = current;
  next_ = (next_ + 1) % maxWindow;
  if (state_ == HeatGuardState::watching && current < bestCurrent_)
  {
    bestCurrent_ = current;
    bestOffset_ = offset;
  }
  if (state_ == HeatGuardState::watching && current < lowest_ - p.progress)
  {
    lowest_ = current;
    sinceLow_ = 0; // the search still finds lower currents: leave it to it
    return HeatGuardRule::none;
  }
  lowest_ = std::min(lowest_, current);
  const HeatGuardRule rule = judge(offset, p);
  if (rule == HeatGuardRule::none) return rule;
  sinceLow_ = 0;
  heldRounds_ = 0;
  lowest_ = std::numeric_limits<float>::infinity();
  return act(rule, current, offset, reading, p);
}

bool JointGuard::endReadingWindow(const JointGuardParameters& p)
{
  // Back and forth: the path beyond the net change (a joint following its offset moves one way).
  const float backAndForth =
      std::isfinite(windowStart_) ? travel_ - std::abs(lastReading_ - windowStart_) : 0.f;
  const float span = highestReading_ - lowestReading_;
  travel_ = 0.f;
  windowStart_ = lastReading_;
  lowestReading_ = highestReading_ = lastReading_;
  return backAndForth > p.restlessTravel && span > p.restlessSpan;
}

HeatGuardRule JointGuard::judge(float offset, const JointGuardParameters& p)
{
  const float limit = this->limit(p);
  const bool held = state_ == HeatGuardState::heldAtBest || state_ == HeatGuardState::heldAtZero;
  // A held joint searches nothing: once at the offset it is held at, `rounds` rounds all above say enough.
  heldRounds_ = held && std::abs(offset - heldOffset()) < 1e-6f ? heldRounds_ + 1 : 0;
  const int judged = std::clamp(p.rounds, 1, maxWindow);
  bool heldInVain = heldRounds_ >= judged;
  for (int k = 1; heldInVain && k <= judged; ++k)
    heldInVain = currents_[static_cast<std::size_t>((next_ - k + maxWindow) % maxWindow)] > limit;
  const int window = std::clamp(p.window, 1, maxWindow);
  if (++sinceLow_ < window && !heldInVain) return HeatGuardRule::none;
  // The last `window` rounds, none of them a new low: above the margin too often, or heating faster (I², so that
  // two joints taking turns, each above now and then, are caught too).
  const int heatWindow = std::clamp(p.heatWindow, 1, maxWindow);
  int above = 0;
  float meanSquare = 0.f;
  for (int k = 1; k <= std::max(window, heatWindow); ++k)
  {
    const float c = currents_[static_cast<std::size_t>((next_ - k + maxWindow) % maxWindow)];
    if (k <= window) above += c > limit;
    if (k > heatWindow) continue;
    meanSquare += c * c / static_cast<float>(heatWindow);
  }
  // A few rounds above are probes, not heating. A joint the guard does not hold and that is at zero offset draws
  // what the stage's other offsets or the plant make it draw, not what its own offset does (its own search may
  // still lower it): only one held at zero is judged there (is zero offset enough?).
  const bool ownOffset = offset != 0.f || state_ == HeatGuardState::heldAtZero;
  return !ownOffset                                 ? HeatGuardRule::none
         : above >= p.rounds || heldInVain          ? HeatGuardRule::currentAboveReference
         : above >= 2 && meanSquare > limit * limit ? HeatGuardRule::heatingAboveReference
                                                    : HeatGuardRule::none;
}

HeatGuardRule JointGuard::act(HeatGuardRule rule, float current, float offset, float reading,
                              const JointGuardParameters& p)
{
  // Zero offset gives the reference's current only while the joint is where it was then.
  const bool moved = std::isfinite(reading) && std::abs(reading - reading_) > p.movedTolerance;
  switch (state_)
  {
  case HeatGuardState::watching:
    if (released_) return HeatGuardRule::none; // neither its offset nor zero is the cause: its search goes on
    if (bestOffset_ != offset && bestOffset_ != 0.f && bestCurrent_ < reference_)
    {
      state_ = HeatGuardState::heldAtBest;
      return rule;
    }
    break;
  case HeatGuardState::heldAtBest:
    break;
  case HeatGuardState::heldAtZero:
    searchAgain(current, offset); // at zero offset and still above: its offset is not the cause
    return HeatGuardRule::notItsOwnOffset;
  default:
    return HeatGuardRule::none;
  }
  if (moved)
  {
    searchAgain(current, offset); // it slipped: zero offset would only push it against its gears
    return HeatGuardRule::notItsOwnOffset;
  }
  state_ = HeatGuardState::heldAtZero;
  return rule;
}
} // namespace nao
