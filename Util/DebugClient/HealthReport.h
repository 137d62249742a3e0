#pragma once
// What `DebugClient health` prints of one SensorHealth sample: a line per sensor and per joint that is not valid, or
// "every sensor valid", and the charge the robot believes (Src/Modules/Sensing/SensorHealthProvider/README.md).
// Apart from main.cpp so that a test formats a health no robot of ours would report.
#include "Representations/Sensing/SensorHealth.h"
#include <string>

namespace nao
{
/// The sample's lines, each ending in a newline:
///   gyroscope       failed   stuck         since 1.13 s
///   LKneePitch      suspect  flapping      since 12.34 s
///   battery charge 87.3 % (what the robot believes)
std::string healthReport(const SensorHealth& health);
} // namespace nao
