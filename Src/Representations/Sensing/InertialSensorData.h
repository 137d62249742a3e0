#pragma once
// The torso IMU (LoLA Gyroscope, Accelerometer, Angles), in the torso frame: x forward, y left, z up.
#include "Tools/Streams/Field.h"
#include <array>
#include <boost/serialization/array.hpp>
#include <boost/serialization/nvp.hpp>

namespace nao
{
struct InertialSensorData
{
  std::array<float, 3> gyro{}; ///< rad/s about x, y, z
  std::array<float, 3> accelerometer{0, 0,
                                     9.81f}; ///< m/s², specific force: +9.81 in z when upright and still
  std::array<float, 2> angles{};             ///< rad, torso roll (x) and pitch (y, forward positive)

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& streams::field("gyro", gyro).unit(streams::Unit::radiansPerSecond) &
        streams::field("accelerometer", accelerometer).unit(streams::Unit::metersPerSecondSquared) &
        streams::field("angles", angles).unit(streams::Unit::radians);
  }
};
} // namespace nao
