#pragma once
// Where the robot's parts are, from the measured joint angles and the robot description
// (Config/Robots/.../nao-v6.urdf with the robot's mass calibration). All poses in the torso frame (x forward,
// y left, z up).
#include "Representations/Infrastructure/Joints.h"
#include "Tools/Math/Pose3.h"
#include "Tools/Streams/Field.h"

namespace nao
{
struct RobotModel
{
  JointArray<Pose3> limbs;             ///< pose of the link each joint moves (LKneePitch -> LTibia), m
  Pose3 leftSole;                      ///< sole frame under the left ankle, m
  Pose3 rightSole;                     ///< sole frame under the right ankle, m
  std::array<float, 3> centerOfMass{}; ///< m, whole robot
  float totalMass = 0.f;               ///< kg, robot description plus calibration

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& BOOST_SERIALIZATION_NVP(limbs) & BOOST_SERIALIZATION_NVP(leftSole) &
        BOOST_SERIALIZATION_NVP(rightSole) &
        streams::field("centerOfMass", centerOfMass).unit(streams::Unit::meters) &
        streams::field("totalMass", totalMass).unit(streams::Unit::kilograms);
  }
};
} // namespace nao
