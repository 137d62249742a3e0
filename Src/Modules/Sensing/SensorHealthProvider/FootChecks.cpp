#include "Modules/Sensing/SensorHealthProvider/FootChecks.h"
#include <cmath>

namespace nao
{
std::array<Finding, 2> FootChecks::check(const FsrSensorData& fsr, const UnreadableReadings& unreadable,
                                         const SensorHealthParameters& p)
{
  std::array<Finding, 2> findings;
  std::array<bool, 2> readable{true, true};
  for (std::size_t foot = 0; foot < 2; ++foot)
  {
    const FsrFoot& sole = foot == 0 ? fsr.left : fsr.right;
    const int repeats = repeats_[foot].update(sole.readings);
    for (std::size_t i = 0; i < 4; ++i)
    {
      if (unreadable.fsr[4 * foot + i])
        findings[foot] = worst(findings[foot], Finding::glitchOf(SensorFault::notFinite));
      else if (!(sole.readings[i] >= p.minFsrReading && sole.readings[i] <= p.maxFsrReading))
        findings[foot] = worst(findings[foot], Finding::glitchOf(SensorFault::outOfRange));
    }
    readable[foot] = !findings[foot];
    // Stuck: four loads that repeat exactly frame after frame. A few repeats in a row are suspect at once (the
    // load would be taken for real in the meantime), stuckFrames of them are confirmed. Readings beyond range are named as such, however constant.
    if (!readable[foot]) continue;
    if (repeats >= p.stuckFrames)
      findings[foot] = Finding::failedOf(SensorFault::stuck);
    else if (repeats_[foot].recentRepeats(5) >= 4)
      findings[foot] = Finding::suspectOf(SensorFault::stuck);
  }

  return findings;
}
} // namespace nao
