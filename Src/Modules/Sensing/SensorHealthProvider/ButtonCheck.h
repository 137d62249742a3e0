#pragma once
// The chest button against what a press is: a human press lasts well under maxPressTime (a 3 s hold asks the Nao
// Devils' base for a shutdown), and a button does not change many times a second (bouncing contacts). README.md of
// this folder.
#include "Modules/Sensing/SensorHealthProvider/SensorHealthParameters.h"
#include "Modules/Sensing/SensorHealthProvider/SensorJudge.h"
#include "Representations/Sensing/TouchData.h"
#include <algorithm>
#include <array>

namespace nao
{
class ButtonCheck
{
public:
  static constexpr int maxFlaps = 32; ///< changes remembered (SensorHealthParameters::buttonFlaps ≤ this)

  Finding check(const TouchData& touch, double now, const SensorHealthParameters& p)
  {
    const bool pressed = touch.pressed(TouchData::chestButton);
    if (pressed != pressed_)
    {
      pressed_ = pressed;
      pressedSince_ = now;
      changes_[next_] = now;
      next_ = (next_ + 1) % maxFlaps;
    }
    if (pressed_ && now - pressedSince_ > p.maxPressTime) return Finding::suspectOf(SensorFault::heldTooLong);
    const int flaps = std::min(p.buttonFlaps, maxFlaps);
    const double oldest = changes_[(next_ + maxFlaps - flaps) % maxFlaps];
    if (oldest >= 0 && now - oldest <= 1.0) return Finding::suspectOf(SensorFault::flapping);
    return Finding::clean();
  }

private:
  bool pressed_ = false;
  double pressedSince_ = 0;                         ///< s, when the reading last changed
  std::array<double, maxFlaps> changes_ = filled(); ///< s, the times of the last changes (−1: none)
  int next_ = 0;

  static std::array<double, maxFlaps> filled()
  {
    std::array<double, maxFlaps> times;
    times.fill(-1);
    return times;
  }
};
} // namespace nao
