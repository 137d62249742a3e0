#pragma once
// The soles' FSRs, one check per foot: readable and within range, not stuck (four readings that repeat exactly frame
// after frame: a noisy load never does). README.md of this folder.
#include "Modules/Sensing/SensorHealthProvider/RepeatCounter.h"
#include "Modules/Sensing/SensorHealthProvider/SensorHealthParameters.h"
#include "Modules/Sensing/SensorHealthProvider/SensorJudge.h"
#include "Representations/Sensing/FsrSensorData.h"
#include "Representations/Sensing/UnreadableReadings.h"

namespace nao
{
class FootChecks
{
public:
  /// This frame's findings for the left and the right foot.
  std::array<Finding, 2> check(const FsrSensorData& fsr, const UnreadableReadings& unreadable,
                               const SensorHealthParameters& p);

private:
  std::array<RepeatCounter<4>, 2> repeats_;
};
} // namespace nao
