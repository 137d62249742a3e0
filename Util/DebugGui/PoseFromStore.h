#pragma once
// What the 3D view reads from the SeriesStore (the debug channel's latest samples, or a log's frame at the timeline):
// the pose with the overlays' colours, and FallDownState's label. No OpenGL here, so that a test reads them alone.
#include "Util/DebugGui/RobotScene.h"
#include "Util/DebugGui/SeriesStore.h"
#include <optional>
#include <string>

namespace nao::gui
{
/// The pose in the store's latest values: angles of JointSensorData (missing joints 0), the torso's roll and pitch
/// filtered by InertialDataFilter (InertialData, while valid) or else LoLA's (InertialSensorData), LimbStiffness if
/// it was received, and the links' colours of the temperature, time-left and sensor health overlays.
RobotPose poseFromStore(const SeriesStore& store);

/// The simulator's truth in the store (truth.torso.*, truth.angles.*: SimulationTruth.h), when it has any.
std::optional<TruePose> truePoseFromStore(const SeriesStore& store);
/// rad of torso tilt from upright (the angle between its z axis and the world's) above which the truth label says
/// "tilted", and above which, with the torso origin below lyingHeight (m), "on the ground" (a NAO lying on its front,
/// back or side is tilted by about 90°, its torso origin ~0.1 m up; standing ~0.33 m).
inline constexpr double uprightTilt = 0.35, fallenTilt = 1.05, lyingHeight = 0.15;
/// "truth: upright", "truth: tilted 35°" (falling too), "truth: on the ground (tilt 88°)"; empty without truth.
std::string truthLabel(const SeriesStore& store);

/// The label the 3D view shows of FallDownState's latest values ("falling front", "fallen on back", "lifted"), while
/// falling or fallen with the witness that confirmed the fall ("falling front (soleEdge)"); empty when none was
/// received.
std::string fallStateLabel(const SeriesStore& store);
} // namespace nao::gui
