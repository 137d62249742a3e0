#include "Modules/MotionControl/Common/StepBound.h"

#include <algorithm>
#include <cmath>

namespace nao
{
namespace
{
/// rad: offsets closer than this are the same (float rounding of base + adjustment).
constexpr float sameOffset = 1e-7f;
} // namespace

float StepBound::limit(float reference, float fraction, float current)
{
  return reference + std::max(fraction * reference, current);
}

void StepBound::round(float offset, float current, float latest, float reading, float margin)
{
  const bool known = std::isfinite(offset) && std::isfinite(current) && std::isfinite(reading);
  roundOffset_ = known ? offset : std::numeric_limits<float>::quiet_NaN();
  roundCurrent_ = std::isfinite(latest) ? std::max(current, latest) : current;
  // A whole round there (its current window holds nothing else) before it is judged there.
  const bool atBar = known && std::abs(offset - barOffset_) <= sameOffset;
  barRounds_ = atBar ? barRounds_ + 1 : 0;
  if (barRounds_ >= 2 && roundCurrent_ > barCurrent_ + margin) open();
  roundReading_ = reading;
  roundLowest_ = roundCurrent_;
  judged_ = false;
}

StepBound::Verdict StepBound::frame(float offset, float current, float reading, float limit, float margin,
                                    float gaveWay)
{
  if (std::isfinite(current)) roundLowest_ = std::min(roundLowest_, current);
  if (judged_ || std::isnan(roundOffset_) || !std::isfinite(offset) || !std::isfinite(current) ||
      !std::isfinite(reading) || current <= limit || current <= roundCurrent_ + margin)
    return Verdict::none;
  judged_ = true;
  const float change = offset - roundOffset_;
  const float moved = reading - roundReading_;
  // Its own change when it stayed where it was (the change asked its motor for more), or moved the change's way
  // with a current that only rose (the change pushed it against its load).
  const bool relievedFirst = roundLowest_ < roundCurrent_ - margin;
  if (std::abs(change) > sameOffset &&
      (std::abs(moved) < gaveWay || (moved * change > 0.f && !relievedFirst)))
  {
    undo(offset);
    return Verdict::own;
  }
  // Moved its change's way after the change had relieved its motor (its current fell first): it gave way under its
  // load, and going back would push it up against its gears.
  if (moved * change > 0.f) return Verdict::none;
  // No change of its own, or moved against its change: the joints that share its load moved it. Its load is
  // another now, and so is what its offset does: the ways it barred are open again.
  open();
  return Verdict::loaded;
}

bool StepBound::undo(float offset)
{
  if (std::isnan(roundOffset_) || !std::isfinite(offset) || std::abs(offset - roundOffset_) <= sameOffset)
    return false;
  judged_ = true;
  barOffset_ = roundOffset_;
  barCurrent_ = roundCurrent_;
  if (offset > roundOffset_)
    highest_ = std::min(highest_, roundOffset_);
  else
    lowest_ = std::max(lowest_, roundOffset_);
  return true;
}

void StepBound::open()
{
  lowest_ = -std::numeric_limits<float>::infinity();
  highest_ = std::numeric_limits<float>::infinity();
  barOffset_ = std::numeric_limits<float>::quiet_NaN();
}

float StepBound::clamp(float offset) const
{
  return std::clamp(offset, lowest_, std::max(lowest_, highest_));
}
} // namespace nao
