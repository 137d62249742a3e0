#pragma once
// How far each joint can turn: the robot description's limits (Config/Robots/.../nao-v6.urdf), for modules
// that must never ask a joint to press against its mechanical stop.
#include "Representations/Infrastructure/Joints.h"
#include "Tools/Streams/Field.h"

namespace nao
{
struct JointLimits
{
  JointArray<float> min; ///< rad (Hands: 0..1); the lower end of each joint's range
  JointArray<float> max; ///< rad (Hands: 0..1); the upper end

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& streams::field("min", min).unit(streams::Unit::radians) &
        streams::field("max", max).unit(streams::Unit::radians);
  }
};
} // namespace nao
