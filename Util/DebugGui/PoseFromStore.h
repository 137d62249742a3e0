#pragma once
// What the 3D view reads from the SeriesStore (the debug channel's latest samples, or a log's frame at the timeline):
// the pose with the overlays' colours, and FallDownState's label. No OpenGL here, so that a test reads them alone.
#include "Util/DebugGui/RobotScene.h"
#include "Util/DebugGui/SeriesStore.h"
#include <string>

namespace nao::gui
{
/// The pose in the store's latest values: angles of JointSensorData (missing joints 0), the torso's roll and pitch
/// filtered by InertialDataFilter (InertialData, while valid) or else LoLA's (InertialSensorData), LimbStiffness if
/// it was received, and the links' colours of the temperature, time-left and sensor health overlays.
RobotPose poseFromStore(const SeriesStore& store);

/// The label the 3D view shows of FallDownState's latest values ("falling front", "fallen on back", "lifted"), while
/// falling or fallen with the witness that confirmed the fall ("falling front (soleEdge)"); empty when none was
/// received.
std::string fallStateLabel(const SeriesStore& store);
} // namespace nao::gui
