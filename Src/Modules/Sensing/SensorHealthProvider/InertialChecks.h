#pragma once
// The inertial unit's checks: the gyroscope (range, stuck, against a steady accelerometer), the accelerometer
// (range, stuck, a norm far from g for too long) and LoLA's Angles (stuck, against the accelerometer's tilt at rest).
// README.md of this folder.
#include "Modules/Sensing/SensorHealthProvider/RepeatCounter.h"
#include "Modules/Sensing/SensorHealthProvider/SensorHealthParameters.h"
#include "Modules/Sensing/SensorHealthProvider/SensorJudge.h"
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

class InertialChecks
{
public:
  /// This frame's findings; `dt` s since the last frame, `gyroTrusted`: the gyroscope was trusted last frame.
  InertialFindings check(const InertialSensorData& imu, const UnreadableReadings& unreadable, float dt,
                         bool gyroTrusted, const SensorHealthParameters& p);

private:
  Finding checkGyroscope(const InertialSensorData& imu, const UnreadableReadings& unreadable,
                         bool accelerometerOk, float dt, const SensorHealthParameters& p);
  Finding checkAccelerometer(const InertialSensorData& imu, const UnreadableReadings& unreadable, float dt,
                             const SensorHealthParameters& p);
  Finding checkAngles(const InertialSensorData& imu, const UnreadableReadings& unreadable,
                      bool accelerometerOk, bool gyroTrusted, float dt, const SensorHealthParameters& p);

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
};
} // namespace nao
