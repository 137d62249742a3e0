#include "Modules/Sensing/SensorHealthProvider/BatteryCheck.h"
#include <algorithm>
#include <cmath>

namespace nao
{
Finding BatteryCheck::check(const BatteryData& battery, const UnreadableReadings& unreadable, float dt,
                            const SensorHealthParameters& p)
{
  constexpr float secondsPerHour = 3600.f;
  if (!unreadable.battery[2] && std::isfinite(battery.current)) current_ = battery.current;
  const float drawn = current_ * dt / (p.batteryCapacity * secondsPerHour); // 0..1 of full charge, signed
  counted_ = std::clamp(counted_ + drawn, 0.f, 1.f);
  if (unreadable.battery[0]) return Finding::glitchOf(SensorFault::notFinite);
  const float reading = battery.charge;
  if (!(reading >= 0.f && reading <= 1.f)) return Finding::glitchOf(SensorFault::outOfRange);
  if (!anchored_)
  {
    anchored_ = true;
    counted_ = lastReading_ = reading;
    haveReading_ = true;
    return Finding::clean();
  }
  // The reading's own change since its last frame, against what the current drew: a gauge's steps included.
  const bool changedAsDrawn = haveReading_ && std::abs(reading - lastReading_ - drawn) <= p.chargeTolerance;
  lastReading_ = reading;
  haveReading_ = true;
  const float off = reading - counted_;
  if (std::abs(off) <= p.chargeTolerance)
  {
    counted_ = reading;
    settledFor_ = 0;
    return Finding::clean();
  }
  // A gauge that corrected itself by a little: its new level once it has behaved for chargeSettleTime.
  settledFor_ = changedAsDrawn && std::abs(off) <= p.largeChargeJump ? settledFor_ + dt : 0.f;
  if (settledFor_ >= p.chargeSettleTime)
  {
    counted_ = reading;
    settledFor_ = 0;
    return Finding::clean();
  }
  return Finding::suspectOf(SensorFault::jump);
}
} // namespace nao
