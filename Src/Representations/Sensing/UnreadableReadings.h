#pragma once
// Which values of this LoLA frame could not be read: not finite, or outside what their key can hold (a Status
// beyond 0..3). The body keeps the last good value of each in the sensor representations, so that a bad value costs
// only itself and the rest of the frame is used; SensorHealthProvider judges what the marks mean.
#include "Representations/Infrastructure/Joints.h"
#include <array>
#include <boost/serialization/array.hpp>
#include <boost/serialization/nvp.hpp>
#include <cstdint>

namespace nao
{
struct UnreadableReadings
{
  // Named apart from JointSensorData's fields, so that a field's path names one quantity wherever it is shown.
  JointArray<bool> jointAngles{};       ///< LoLA Position
  JointArray<bool> jointCurrents{};     ///< LoLA Current
  JointArray<bool> jointTemperatures{}; ///< LoLA Temperature
  JointArray<bool> jointStatus{};       ///< LoLA Status (also: outside 0..3)
  JointArray<bool> jointStiffnesses{};  ///< LoLA Stiffness
  std::array<bool, 8> fsr{};            ///< LoLA FSR order
  std::array<bool, 3> gyro{};
  std::array<bool, 3> accelerometer{};
  std::array<bool, 2> imuAngles{}; ///< LoLA Angles (torso roll, pitch)
  std::array<bool, 4> battery{};   ///< LoLA Battery order: charge, status, current, temperature
  std::array<bool, 14> touch{};    ///< LoLA Touch order (an unreadable one reads 0: not pressed)
  std::uint16_t count = 0;         ///< values unreadable in this frame

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& BOOST_SERIALIZATION_NVP(jointAngles) & BOOST_SERIALIZATION_NVP(jointCurrents) &
        BOOST_SERIALIZATION_NVP(jointTemperatures) & BOOST_SERIALIZATION_NVP(jointStatus) &
        BOOST_SERIALIZATION_NVP(jointStiffnesses) & BOOST_SERIALIZATION_NVP(fsr) &
        BOOST_SERIALIZATION_NVP(gyro) & BOOST_SERIALIZATION_NVP(accelerometer) &
        BOOST_SERIALIZATION_NVP(imuAngles) & BOOST_SERIALIZATION_NVP(battery) &
        BOOST_SERIALIZATION_NVP(touch) & BOOST_SERIALIZATION_NVP(count);
  }
};
} // namespace nao
