#pragma once
// The torso's filtered orientation and angular velocity (InertialDataFilter), from the IMU's gyroscope and
// accelerometer (InertialSensorData). Torso frame: x forward, y left, z up. The orientation is the rotation from the
// torso frame to a world frame whose z points up; its yaw is unobservable from the IMU and only integrated.
#include "Tools/Streams/Field.h"
#include <array>
#include <boost/serialization/array.hpp>
#include <boost/serialization/nvp.hpp>

namespace nao
{
struct InertialData
{
  /// Unit quaternion (w, x, y, z): torso frame → world frame (z up).
  std::array<float, 4> orientation{1, 0, 0, 0};
  std::array<float, 2> angles{}; ///< rad, torso roll (about x) and pitch (about y, forward positive)
  std::array<float, 3> gyro{};   ///< rad/s, angular velocity in the torso frame, bias removed
  std::array<float, 3>
      acceleration{}; ///< m/s², the torso's linear acceleration in the world frame, gravity removed
  std::array<float, 3> gyroBias{};     ///< rad/s, the estimated gyroscope bias in the torso frame
  std::array<float, 2> angleStdDevs{}; ///< rad, one standard deviation of roll and pitch
  std::array<bool, 2> soles{};         ///< the left and the right support sole's tilt corrected it this frame
  /// The gyroscope was trusted and used this frame; if not, `gyro` is 0 and the orientation follows the
  /// accelerometer and the soles alone (SensorHealth)
  bool gyroUsed = false;
  bool valid = false; ///< false until the filter has started, and while its input is bad (NaN, a stale frame)

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::Unit;
    ar& streams::field("orientation", orientation) & streams::field("angles", angles).unit(Unit::radians) &
        streams::field("gyro", gyro).unit(Unit::radiansPerSecond) &
        streams::field("acceleration", acceleration).unit(Unit::metersPerSecondSquared) &
        streams::field("gyroBias", gyroBias).unit(Unit::radiansPerSecond) &
        streams::field("angleStdDevs", angleStdDevs).unit(Unit::radians) & BOOST_SERIALIZATION_NVP(soles) &
        BOOST_SERIALIZATION_NVP(gyroUsed) & BOOST_SERIALIZATION_NVP(valid);
  }
};
} // namespace nao
