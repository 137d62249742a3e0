#pragma once
// What the joints measure, as LoLA delivers it every 12 ms (currents in A, not B-Human's mA).
#include "Representations/Infrastructure/Joints.h"
#include "Tools/Streams/Enum.h"
#include "Tools/Streams/Field.h"
#include <cstdint>

namespace nao
{
/// LoLA's per-joint temperature status (NaoFacts.md §18); the firmware limits the torque from `hot` on.
NAO_ENUM(TemperatureStatus, std::uint8_t,
         regular,      ///< 0: normal
         hot,          ///< 1: firmware starts reducing the stiffness
         veryHot,      ///< 2: stiffness reduced by more than 30 %
         criticallyHot ///< 3: stiffness set to 0
);
static_assert(static_cast<int>(TemperatureStatus::criticallyHot) == 3, "LoLA's numbers");

struct JointSensorData
{
  JointArray<float> angles;             ///< rad, measured (Hands: 0 closed .. 1 open)
  JointArray<float> currents;           ///< A, motor current
  JointArray<float> temperatures;       ///< °C, motor temperature
  JointArray<TemperatureStatus> status; ///< firmware temperature status
  JointArray<float> stiffnesses;        ///< 0..1, stiffness the body reports as applied

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& streams::field("angles", angles).unit(streams::Unit::radians) &
        streams::field("currents", currents).unit(streams::Unit::amperes) &
        streams::field("temperatures", temperatures).unit(streams::Unit::degreesCelsius) &
        BOOST_SERIALIZATION_NVP(status) & BOOST_SERIALIZATION_NVP(stiffnesses);
  }
};
} // namespace nao
