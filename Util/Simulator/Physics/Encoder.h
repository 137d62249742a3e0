#pragma once
// Magnetic angle encoders as counts: the boards' own sensors and the reading LoLA sends.
#include <cmath>
#include <numbers>

namespace nao::sim
{
/// rad per count: 2π / 2^bits.
inline double encoderStep(int bits)
{
  return 2.0 * std::numbers::pi / std::ldexp(1.0, bits);
}

/// The nearest multiple of step.
inline double quantise(double value, double step)
{
  return step > 0.0 ? step * std::round(value / step) : value;
}

/// A magnetic encoder IC's output count with hysteresis: the count follows the nearest multiple of step, but
/// switches only when the angle passes the boundary between two counts by more than half the hysteresis (in
/// counts). Such ICs have it (or filter) so that an angle resting on a boundary does not flicker between two
/// counts with the sensor's noise.
inline long long encoderCount(long long previousCount, double angle, double step, double hysteresis)
{
  const double counts = angle / step;
  if (std::abs(counts - static_cast<double>(previousCount)) <= 0.5 + 0.5 * hysteresis) return previousCount;
  return std::llround(counts);
}
} // namespace nao::sim
