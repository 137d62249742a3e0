#pragma once
// TaskSpaceMotionProvider's parameters (Config/Modules/TaskSpaceMotionProvider.toml). Code holds m, rad/s and 1/s;
// the file holds mm. Points are in the left sole's frame: x forward, y left, z up from the sole's centre.
#include "Tools/Streams/Field.h"

namespace nao
{
/// A task's target point and whether the task is in the stack.
struct TaskSpacePoint
{
  bool active = false;
  double x = 0.0, y = 0.0, z = 0.0; ///< m, in the left sole's frame

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    using streams::Unit;
    ar& field("active", active).doc("the task is in the stack");
    ar& field("x", x).unit(Unit::millimeters).range(-1000.0, 1000.0).doc("forward of the left sole");
    ar& field("y", y).unit(Unit::millimeters).range(-1000.0, 1000.0).doc("left of the left sole");
    ar& field("z", z).unit(Unit::millimeters).range(-1000.0, 1000.0).doc("above the left sole");
  }
};

struct TaskSpaceMotionParameters
{
  TaskSpacePoint leftHand, rightHand, lookAt;
  // The centre of mass over both feet, in the left sole's frame, 20-30 mm inside their outline: a sole reaches
  // from 50 mm behind to 100 mm ahead of the point below the ankle and 50 mm outward; the soles are 100 mm apart
  // (shared/data/nao-v6/geometry.md, sections 2 and 4).
  double comMinX = -0.03, comMaxX = 0.06, comMinY = -0.12, comMaxY = 0.02;
  double taskGain = 4.0;    ///< 1/s: an error decays to 1/e in 0.25 s
  double postureGain = 1.0; ///< 1/s
  double speed = 0.5;       ///< share of each joint's maximum speed (NAOqi's examples use half)
  float stiffness = 0.8f;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    using streams::Unit;
    ar& field("leftHand", leftHand).doc("the left wrist's target (level 2)");
    ar& field("rightHand", rightHand).doc("the right wrist's target (level 2)");
    ar& field("lookAt", lookAt).doc("the point the head looks at (level 2)");
    ar& field("comMinX", comMinX)
        .unit(Unit::millimeters)
        .range(-200.0, 200.0)
        .doc("centre of mass: rearmost x");
    ar& field("comMaxX", comMaxX)
        .unit(Unit::millimeters)
        .range(-200.0, 200.0)
        .doc("centre of mass: foremost x");
    ar& field("comMinY", comMinY)
        .unit(Unit::millimeters)
        .range(-300.0, 200.0)
        .doc("centre of mass: rightmost y");
    ar& field("comMaxY", comMaxY)
        .unit(Unit::millimeters)
        .range(-300.0, 200.0)
        .doc("centre of mass: leftmost y");
    ar& field("taskGain", taskGain).range(0.1, 20.0).doc("1/s: the rate a target and the balance close at");
    ar& field("postureGain", postureGain)
        .range(0.0, 20.0)
        .doc("1/s: the rate the posture returns to the start");
    ar& field("speed", speed).range(0.05, 1.0).doc("share of each joint's maximum speed a step may use");
    ar& field("stiffness", stiffness)
        .range(0.0, 1.0)
        .doc("the request's stiffness of every joint but the hands");
  }
};
} // namespace nao
