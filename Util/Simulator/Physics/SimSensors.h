#pragma once
// What the simulated NAO reports: the LoLA sensor values (LoLA order and units, lola.md) and, for tests and
// plots only, the ground truth no real robot can measure.
#include "Representations/Infrastructure/Joints.h"
#include "Util/Simulator/Physics/BatteryModel.h"

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <array>

namespace nao::sim
{
inline constexpr std::size_t numOfFsrs = 8; ///< LoLA order: L FL, FR, RL, RR, then R FL, FR, RL, RR
using JointValues = std::array<float, numOfJoints>;

struct SimSensors
{
  double time = 0.0;          ///< s of simulated time at the end of the last step
  JointValues positions{};    ///< rad, 12-bit reading with the robot's calibration offset and noise
  JointValues stiffnesses{};  ///< 0..1 as applied: requested × firmware torque factor
  JointValues currents{};     ///< A, the board's measurement averaged over the last LoLA frame
  JointValues temperatures{}; ///< °C, motor winding as the board reports it (whole degrees)
  std::array<int, numOfJoints> status{}; ///< temperature status 0..3
  std::array<float, 3> accelerometer{}; ///< m/s², specific force in the torso frame (+9.81 z upright), noisy
  std::array<float, 3> gyroscope{};     ///< rad/s, torso angular velocity in the torso frame, noisy
  std::array<float, 2> angles{};        ///< rad, torso roll (about x) and pitch (about y), noisy
  std::array<float, numOfFsrs> fsr{};   ///< kg, normal force / g on each FSR, noisy, never negative
  BatteryState battery;                 ///< charge 0..1, current A (negative: discharging), °C
  std::array<float, 14> touch{};        ///< 0 or 1, LoLA's Touch order (lola.md §5): 0 is the chest button
};

struct GroundTruth
{
  double torsoHeight = 0.0;                                ///< m, torso origin above the floor
  Eigen::Vector3d torsoPosition = Eigen::Vector3d::Zero(); ///< m, world frame
  Eigen::Quaterniond torsoOrientation = Eigen::Quaterniond::Identity();
  std::array<double, numOfJoints> angles{};       ///< rad, exact joint angles
  std::array<double, numOfJoints> velocities{};   ///< rad/s
  std::array<double, numOfJoints> boardAngles{};  ///< rad, what each motor board's own sensor counts
  std::array<double, numOfJoints> motorTorques{}; ///< N·m at the joint, what the motor produced last step
  std::array<double, numOfJoints>
      frictionTorques{};                          ///< N·m, gear (or bearing) friction on the joint last step
  std::array<double, numOfJoints> torqueLimits{}; ///< N·m, stiffness × maximum torque × firmware factor
  std::array<double, numOfJoints> currents{};     ///< A, true motor current, mean over the last LoLA frame
  std::array<bool, numOfJoints> gearEngaged{};    ///< false while the backlash is open
  std::array<double, numOfJoints> windingTemperatures{}; ///< °C, exact
  std::array<double, numOfJoints> housingTemperatures{}; ///< °C
  double airTemperature = 25.0;                          ///< °C inside the robot
  double fsrTotal = 0.0;                                 ///< kg, sum of the 8 FSRs without noise
  std::array<double, 2>
      footForces{}; ///< N, normal force of the ground on the left and right sole (FSRs 0..3, 4..7)
  /// A MuJoCo contact between a geom of the torso, the head or an upper arm (shoulder, biceps) and the world (the
  /// floor) this frame: the impact of a fall (a fall to the side lands on the arm; FallDownStateDetector's README)
  bool upperBodyOnGround = false;
  /// Fall impacts (FallProtectionProvider's README): whether a geom of the head, or of an arm (shoulder to hand),
  /// touches the floor this frame, and the largest linear speed of the group's bodies (m/s, world frame, at each
  /// body's centre of mass).
  bool headOnGround = false;
  bool armOnGround = false;
  double headSpeed = 0.0; ///< m/s
  double armSpeed = 0.0;  ///< m/s
};
} // namespace nao::sim
