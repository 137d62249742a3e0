#pragma once
// The battery's charge against its own current: the charge can fall only as fast as the current draws it (and rise
// only while charging). The charge the robot believes is the reading while the two agree, else the last reading that
// agreed less what the current drew since (coulomb counting). A reading that jumped comes back (a glitch) or is
// taken as the gauge's new level after it has changed only as its current allows for a while, unless the jump was
// larger than a gauge corrects itself by. README.md of this folder.
#include "Modules/Sensing/SensorHealthProvider/SensorHealthParameters.h"
#include "Modules/Sensing/SensorHealthProvider/SensorJudge.h"
#include "Representations/Infrastructure/BatteryData.h"
#include "Representations/Sensing/UnreadableReadings.h"

namespace nao
{
class BatteryCheck
{
public:
  /// This frame's finding; `dt` s since the last frame.
  Finding check(const BatteryData& battery, const UnreadableReadings& unreadable, float dt,
                const SensorHealthParameters& p);
  /// 0..1, the charge the robot believes.
  float believed() const { return counted_; }

private:
  bool anchored_ = false; ///< a reading has been believed
  float counted_ = 1.f;   ///< 0..1: the last believed reading, less what the current drew since
  float lastReading_ = 0; ///< 0..1, the last usable reading
  bool haveReading_ = false;
  float settledFor_ = 0; ///< s the disagreeing reading has changed only as its current allows
  float current_ = 0;    ///< A, the last readable current (negative: discharging)
};
} // namespace nao
