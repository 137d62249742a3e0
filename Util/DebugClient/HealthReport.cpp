#include "Util/DebugClient/HealthReport.h"
#include <cstdio>

namespace nao
{
namespace
{
/// One line of a check that is not valid; columns as wide as the longest name, state and fault, so that a terminal
/// lines them up.
std::string line(std::string_view name, const SensorCheck& check)
{
  char text[128];
  std::snprintf(text, sizeof text, "%-15.*s %-8.*s %-13.*s since %.2f s\n", static_cast<int>(name.size()),
                name.data(), static_cast<int>(streams::enumName(check.state).size()),
                streams::enumName(check.state).data(),
                static_cast<int>(streams::enumName(check.fault).size()),
                streams::enumName(check.fault).data(), static_cast<double>(check.since));
  return text;
}
} // namespace

std::string healthReport(const SensorHealth& health)
{
  std::string report;
  for (std::size_t s = 0; s < numOfSensors; ++s)
    if (health.sensors.values[s].state != SensorState::valid)
      report += line(streams::enumNamesOf<Sensor>[s], health.sensors.values[s]);
  for (std::size_t j = 0; j < numOfJoints; ++j)
    if (health.joints.values[j].state != SensorState::valid)
      report += line(jointNames[j], health.joints.values[j]);
  if (report.empty()) report = "every sensor valid\n";
  char charge[80];
  std::snprintf(charge, sizeof charge, "battery charge %.1f %% (what the robot believes)\n",
                static_cast<double>(health.batteryCharge) * 100);
  return report + charge;
}
} // namespace nao
