#pragma once
// Shared by the physics tests: the project's configuration, B-Human's stand posture and small helpers.
#include "Util/Simulator/Physics/PlantCalibration.h"
#include "Util/Simulator/Physics/SimulatedRobot.h"

#include <cmath>
#include <initializer_list>
#include <numbers>

namespace nao::sim::test
{
inline constexpr double kilogramsOfRobot = 5.359; ///< geometry.md §1: sum of the URDF link masses
inline const double oneCount = 2.0 * std::numbers::pi / 4096.0; ///< rad

inline float deg(double degrees)
{
  return static_cast<float>(degrees * std::numbers::pi / 180.0);
}
inline double toDegrees(double radians)
{
  return radians * 180.0 / std::numbers::pi;
}

inline SimConfig projectConfig()
{
  return loadSimConfig(NAO_CONFIG_DIR);
}

inline JointValues uniform(float value)
{
  JointValues values;
  values.fill(value);
  return values;
}

/// B-Human's keyframe "stand" (geometry.md §5), rad.
inline JointValues standPosture()
{
  return bHumanStand();
}

inline constexpr std::initializer_list<Joint> legPitchJoints = {Joint::LKneePitch, Joint::RKneePitch,
                                                                Joint::LAnklePitch, Joint::RAnklePitch};

/// Standing in B-Human's stand posture with stiffness 1 everywhere, settled for `seconds`.
inline void standStill(SimulatedRobot& robot, double seconds)
{
  sim::standStill(robot, seconds);
}
} // namespace nao::sim::test
