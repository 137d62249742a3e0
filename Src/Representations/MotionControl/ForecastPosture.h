#pragma once
// A posture the robot can be sent to, named by the motion side, for the thermal forecast "if the robot took it now"
// (JointThermalState::posture). SitDownProvider names its sitting posture: limp, so that its motors draw no current.
#include "Representations/Infrastructure/Joints.h"
#include "Tools/Streams/Enum.h"
#include "Tools/Streams/Field.h"
#include <boost/serialization/nvp.hpp>
#include <cstdint>

namespace nao
{
NAO_ENUM(PostureName, std::uint8_t,
         none, ///< no posture named: no posture forecast
         sit   ///< SitDownProvider's sitting posture, limp (chest button, low battery)
);

struct ForecastPosture
{
  PostureName name = PostureName::none;
  /// 0..1, each joint's stiffness once the posture is reached: a joint at 0 holds nothing and draws no current; the
  /// forecast takes every other joint's present load (the posture's static torques are not used yet)
  JointArray<float> stiffnesses{};

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& BOOST_SERIALIZATION_NVP(name) & BOOST_SERIALIZATION_NVP(stiffnesses);
  }
};
} // namespace nao
