#pragma once
// What the body is asked to do: the final request that goes out in the LoLA answer (Position, Stiffness).
#include "Representations/Infrastructure/Joints.h"

namespace nao
{
struct JointRequest
{
  JointArray<float> angles;      ///< rad, target angles (Hands: 0 closed .. 1 open)
  JointArray<float> stiffnesses; ///< 0..1, torque limit as a fraction of the motor's maximum; 0 = joint free

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& BOOST_SERIALIZATION_NVP(angles) & BOOST_SERIALIZATION_NVP(stiffnesses);
  }
};
} // namespace nao
