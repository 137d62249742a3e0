#pragma once
// Each joint's readings: readable (angle, current, temperature, status), a temperature status that does not flap
// and a temperature that does not jump (a winding heats over seconds), and an angle reading that follows a stiff
// motor's request (a stuck encoder reads the same while the joint is driven elsewhere). README.md of this folder.
#include "Modules/Sensing/SensorHealthProvider/SensorHealthParameters.h"
#include "Modules/Sensing/SensorHealthProvider/SensorJudge.h"
#include "Representations/MotionControl/JointRequest.h"
#include "Representations/Sensing/JointSensorData.h"
#include "Representations/Sensing/UnreadableReadings.h"
#include <array>

namespace nao
{
class JointChecks
{
public:
  static constexpr int maxFlaps = 16; ///< status changes remembered per joint (statusFlaps ≤ this)

  /// This frame's finding per joint; `request`: last frame's final request (what the motors were sent).
  JointArray<Finding> check(const JointSensorData& joints, const UnreadableReadings& unreadable,
                            const JointRequest& request, double now, const SensorHealthParameters& p);

private:
  struct JointState
  {
    bool seen = false;
    TemperatureStatus status = TemperatureStatus::regular;
    float temperature = 0;                  ///< °C, last frame
    std::array<double, maxFlaps> changes{}; ///< s, times of the last status changes (0 with count below)
    int changeCount = 0;                    ///< changes remembered, up to maxFlaps
    int next = 0;
    float angle = 0;           ///< rad, the reading when it last changed
    double angleSince = 0;     ///< s, since when the reading has not changed
    float requestAtChange = 0; ///< rad, the request when the reading last changed
    bool requestSeen = false;  ///< a request (finite, some stiffness) had come when the reading last changed
  };
  std::array<JointState, numOfJoints> joints_{};
};
} // namespace nao
