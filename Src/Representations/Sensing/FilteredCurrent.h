#pragma once
// Motor currents smoothed over a short window (B-Human: the last 20 frames, about 240 ms), so that decisions
// on currents do not follow single noisy packets.
#include "Representations/Infrastructure/Joints.h"
#include "Tools/Streams/Field.h"

namespace nao
{
struct FilteredCurrent
{
  JointArray<float> currents; ///< A, mean of the last window of finite samples; 0 before the first
  Joint highestLegJoint = Joint::LKneePitch; ///< the leg joint with the highest |currents|
  float highestLegCurrent = 0.f;             ///< A, |currents| of highestLegJoint
  bool windowFull = false;                   ///< every joint's window holds a full window of samples

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& streams::field("currents", currents).unit(streams::Unit::amperes) &
        BOOST_SERIALIZATION_NVP(highestLegJoint) &
        streams::field("highestLegCurrent", highestLegCurrent).unit(streams::Unit::amperes) &
        BOOST_SERIALIZATION_NVP(windowFull);
  }
};
} // namespace nao
