#pragma once
// Shared by the physics tests: the project's configuration, B-Human's stand posture and small helpers.
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
  JointValues angles{};
  auto set = [&](Joint joint, double degrees) { angles[index(joint)] = deg(degrees); };
  set(Joint::LShoulderPitch, 90.0);
  set(Joint::LShoulderRoll, 7.0);
  set(Joint::LElbowRoll, -2.5);
  set(Joint::LWristYaw, -90.0);
  set(Joint::RShoulderPitch, 90.0);
  set(Joint::RShoulderRoll, -7.0);
  set(Joint::RElbowRoll, 2.5);
  set(Joint::RWristYaw, 90.0);
  for (const Joint joint : {Joint::LHipPitch, Joint::RHipPitch})
    set(joint, -20.0484);
  for (const Joint joint : {Joint::LKneePitch, Joint::RKneePitch})
    set(joint, 48.0313);
  for (const Joint joint : {Joint::LAnklePitch, Joint::RAnklePitch})
    set(joint, -27.9829);
  return angles;
}

inline constexpr std::initializer_list<Joint> legPitchJoints = {Joint::LKneePitch, Joint::RKneePitch,
                                                                Joint::LAnklePitch, Joint::RAnklePitch};

/// Standing in B-Human's stand posture with stiffness 1 everywhere, settled for `seconds`.
inline void standStill(SimulatedRobot& robot, double seconds)
{
  robot.resetToPosture(standPosture());
  robot.setCommand(standPosture(), uniform(1.f));
  robot.advance(seconds);
}
} // namespace nao::sim::test
