#pragma once
// How far a timed transition is: the motion sources and stages that move the joints from one posture to another.
#include <algorithm>

namespace nao
{
/// Fraction 0..1 of a transition of `duration` s after `elapsed` s, linear in time; 1 for a zero duration.
inline double transitionProgress(double elapsed, double duration)
{
  return duration > 0 ? std::clamp(elapsed / duration, 0.0, 1.0) : 1.0;
}

/// Smoothstep of a progress 0..1: the same path, with no velocity jump at either end (its speed peaks at 1.5 times the
/// mean).
inline float smoothstep(double progress)
{
  return static_cast<float>(progress * progress * (3.0 - 2.0 * progress));
}
} // namespace nao
