#include "Modules/Sensing/SensorHealthProvider/JointChecks.h"
#include <algorithm>
#include <cmath>

namespace nao
{
JointArray<Finding> JointChecks::check(const JointSensorData& joints, const UnreadableReadings& unreadable,
                                       const JointRequest& request, double now,
                                       const SensorHealthParameters& p)
{
  JointArray<Finding> findings;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    JointState& joint = joints_[j];
    Finding& finding = findings[j];
    if (unreadable.jointAngles[j] || unreadable.jointCurrents[j] || unreadable.jointTemperatures[j])
      finding = Finding::glitchOf(SensorFault::notFinite);
    else if (unreadable.jointStatus[j])
      finding = Finding::glitchOf(SensorFault::outOfRange);
    if (!joint.seen)
    {
      joint = {
          true, joints.status[j], joints.temperatures[j], {}, 0, 0, joints.angles[j], now, request.angles[j],
          false};
      continue;
    }
    if (joints.status[j] != joint.status)
    {
      joint.status = joints.status[j];
      joint.changes[static_cast<std::size_t>(joint.next)] = now;
      joint.next = (joint.next + 1) % maxFlaps;
      joint.changeCount = std::min(joint.changeCount + 1, maxFlaps);
    }
    const int flaps = std::min(p.statusFlaps, maxFlaps);
    if (joint.changeCount >= flaps &&
        now - joint.changes[static_cast<std::size_t>((joint.next + maxFlaps - flaps) % maxFlaps)] <=
            p.statusFlapTime)
      finding = worst(finding, Finding::suspectOf(SensorFault::flapping));
    if (std::abs(joints.temperatures[j] - joint.temperature) > p.temperatureJump)
      finding = worst(finding, Finding::suspectOf(SensorFault::jump));
    joint.temperature = joints.temperatures[j];

    // The reading follows a stiff motor's request: a reading that has not changed at all for followTime while the
    // request moved by followAngle and lies that far from it does not (a blocked joint's reading wavers by a count
    // now and then; a joint at its target has nothing to follow).
    if (joints.angles[j] != joint.angle || !std::isfinite(request.angles[j]) || !joint.requestSeen)
    {
      joint.angle = joints.angles[j];
      joint.angleSince = now;
      joint.requestAtChange = request.angles[j];
      joint.requestSeen = std::isfinite(request.angles[j]) && request.stiffnesses[j] > 0;
    }
    else if (request.stiffnesses[j] >= p.followStiffness && now - joint.angleSince >= p.followTime &&
             std::abs(request.angles[j] - joint.requestAtChange) >= p.followAngle &&
             std::abs(request.angles[j] - joints.angles[j]) >= p.followAngle)
      finding = worst(finding, Finding::suspectOf(SensorFault::notFollowing));
  }
  return findings;
}
} // namespace nao
