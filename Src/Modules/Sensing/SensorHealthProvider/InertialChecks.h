#pragma once
// The inertial unit's checks: the gyroscope (range, stuck, against a steady accelerometer), the accelerometer and
// LoLA's Angles against the floor the soles stand on at rest (both feet loaded and level: the leg's kinematics give
// the world's up without the IMU), the accelerometer
// (range, stuck, a norm far from g for too long) and LoLA's Angles (stuck, against the accelerometer's tilt at rest).
// README.md of this folder.
#include "Modules/Sensing/SensorHealthProvider/RepeatCounter.h"
#include "Modules/Sensing/SensorHealthProvider/SensorHealthParameters.h"
#include "Modules/Sensing/SensorHealthProvider/SensorJudge.h"
#include "Representations/Modeling/RobotModel.h"
#include "Representations/Sensing/FsrSensorData.h"
#include "Representations/Sensing/InertialSensorData.h"
#include "Representations/Sensing/UnreadableReadings.h"
#include <Eigen/Core>
#include <Eigen/Geometry>

namespace nao
{
struct InertialFindings
{
  Finding gyroscope, accelerometer, angles;
};

/// The floor's up direction in the torso frame from the soles' kinematics, when both feet stand flat on it.
struct SoleFloor
{
  bool known = false; ///< both feet trusted and loaded, their soles level with each other
  Eigen::Vector3f up{0, 0, 1};
};

/// The floor from the soles of `model`, if both feet are `trusted` and carry `supportWeight` kg or more each.
SoleFloor soleFloor(const RobotModel& model, const FsrSensorData& fsr, bool trusted,
                    const SensorHealthParameters& p);

class InertialChecks
{
public:
  /// This frame's findings; `dt` s since the last frame, `gyroTrusted`: the gyroscope was trusted last frame.
  InertialFindings check(const InertialSensorData& imu, const UnreadableReadings& unreadable, float dt,
                         bool gyroTrusted, const SoleFloor& floor, const SensorHealthParameters& p);

private:
  Finding checkGyroscope(const InertialSensorData& imu, const UnreadableReadings& unreadable,
                         bool accelerometerOk, float dt, const SensorHealthParameters& p);
  Finding checkAccelerometer(const InertialSensorData& imu, const UnreadableReadings& unreadable, float dt,
                             const SensorHealthParameters& p);
  Finding checkAngles(const InertialSensorData& imu, const UnreadableReadings& unreadable,
                      const SensorHealthParameters& p);
  /// At rest on both feet, the accelerometer's mean and LoLA's Angles against the soles' floor.
  void checkAtRest(const InertialSensorData& imu, bool accelerometerOk, bool gyroTrusted,
                   const SoleFloor& floor, float dt, const SensorHealthParameters& p,
                   InertialFindings& findings);

  RepeatCounter<3> gyroRepeats_, accelerometerRepeats_;
  RepeatCounter<2> angleRepeats_;
  // The gyroscope against the accelerometer over a window in which the accelerometer stays steady.
  bool windowOpen_ = false;
  float windowTime_ = 0;   ///< s since the window began
  bool windowCalm_ = true; ///< every reading of the window stayed within stillAccelerationOff of its first
  Eigen::Vector3f windowStart_;  ///< m/s², the accelerometer's reading when it began
  Eigen::Vector3f turned_;       ///< rad, the turn about horizontal axes the gyroscope integrated since
  float accelerationOffFor_ = 0; ///< s the accelerometer's norm has been far from g
  Eigen::Vector3f lastDirection_{0, 0, 1};    ///< the accelerometer's direction last frame
  Eigen::Vector3f meanAcceleration_{0, 0, 0}; ///< m/s², the accelerometer's mean over about restTime
  float restFor_ = 0;                         ///< s the torso has been at rest
  // The last judgement of each comparison with another sensor, standing until the next that can be made.
  bool gyroDisagreed_ = false;          ///< the last steady window found the gyroscope turning
  bool accelerometerDisagreed_ = false; ///< the last rest on both feet found it off the soles' floor
  bool anglesDisagreed_ = false; ///< the last rest on both feet found LoLA's Angles off the soles' floor
};
} // namespace nao
