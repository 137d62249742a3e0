#pragma once
// TaskSpaceMotionProvider's parameters: the Stack of Tasks as a motion source. The defaults are declared here;
// Config/Modules/TaskSpaceMotionProvider.toml holds only values that differ. Code holds m, rad/s and 1/s; the file
// holds mm. Points are in the left sole's frame: x forward, y left, z up from the sole's centre.
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
    ar& field("x", x).unit(Unit::millimeters).range(-5000.0, 5000.0).doc("forward of the left sole");
    ar& field("y", y).unit(Unit::millimeters).range(-5000.0, 5000.0).doc("left of the left sole");
    ar& field("z", z).unit(Unit::millimeters).range(-5000.0, 5000.0).doc("above the left sole");
  }
};

struct TaskSpaceMotionParameters
{
  /// The scenario's [[Script.targets]] override a task's point from their time on (TaskSpaceMotionProvider.h).
  TaskSpacePoint leftHand, rightHand, lookAt, rightFoot;
  /// The direction a push will come from (any length; left sole's frame): an arm with a hand target turns, within
  /// what its target leaves free, toward the posture stiffest against it (Woolfrey et al., Eq 43; level 4).
  TaskSpacePoint stiffestAgainst;
  /// Eq 43's alpha over a joint damping of 1 N*m*s/rad (< 0: toward stiffness).
  double stiffnessRate = -5.0;
  // The centre of mass over both feet, in the left sole's frame, 20-30 mm inside their outline: a sole reaches
  // from 50 mm behind to 100 mm ahead of the point below the ankle and 50 mm outward; the soles are 100 mm apart
  // (shared/data/nao-v6/geometry.md, sections 2 and 4).
  double comMinX = -0.03, comMaxX = 0.06, comMinY = -0.12, comMaxY = 0.02;
  // With the right foot in the stack the centre of mass goes over the left foot first: to the middle of its four
  // FSRs (shared/data/nao-v6/geometry.md, section 4: x -30..70 mm, y -23..30 mm), where the measured centre of
  // pressure has the most room on every side.
  double singleSupportComX = 0.02, singleSupportComY = 0.003;
  /// m: the centre of mass counts as over the support foot when this close to its point; then the foot lifts.
  double supportShiftTolerance = 0.003;
  // Self-collision: every shape pair of selfCollision.toml closer than collisionActivation gets a velocity damper
  // row at level 0 that keeps it from closing below collisionMargin: the downstream stage's activation distance
  // (SelfCollisionProvider: 10 mm, safety 5 mm), so that the stage never has to act on this source.
  double collisionMargin = 0.01, collisionActivation = 0.05;
  // A new target is approached along a smooth reference (smoothstep: zero speed at both ends, its peak 1.5 times
  // the mean), so that a step of the target never asks for full joint speed at once.
  double taskSpeed = 0.15;       ///< m/s: the mean speed of a hand's or the foot's reference
  double taskAcceleration = 0.3; ///< m/s^2: its largest acceleration (about 1.5 rad/s^2 at a 0.2 m lever)
  double comSpeed = 0.04;        ///< m/s: the mean speed of the centre of mass's way over the support foot
  double comAcceleration = 0.1;  ///< m/s^2: its largest acceleration
  double taskGain = 4.0;         ///< 1/s: an error decays to 1/e in 0.25 s
  double postureGain = 1.0;      ///< 1/s
  double speed = 0.5;            ///< share of each joint's maximum speed (NAOqi's examples use half)
  double acceleration = 2.0;     ///< rad/s^2 per joint
  float stiffness = 0.8f;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    using streams::Unit;
    ar& field("leftHand", leftHand).doc("the left wrist's target (level 3)");
    ar& field("rightHand", rightHand).doc("the right wrist's target (level 3)");
    ar& field("lookAt", lookAt).doc("the point the head looks at (level 3)");
    ar& field("rightFoot", rightFoot).doc("the right sole's target; the left foot supports (level 3)");
    ar& field("stiffestAgainst", stiffestAgainst)
        .doc("direction of an expected push; arms with a target stiffen against it (level 4)");
    ar& field("stiffnessRate", stiffnessRate)
        .range(-100.0, 0.0)
        .doc("Eq 43's alpha over k_d: how fast an arm turns toward stiffness (0: never)");
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
    ar& field("singleSupportComX", singleSupportComX)
        .unit(Unit::millimeters)
        .range(-100.0, 150.0)
        .doc("centre of mass on the left foot alone: x");
    ar& field("singleSupportComY", singleSupportComY)
        .unit(Unit::millimeters)
        .range(-50.0, 60.0)
        .doc("centre of mass on the left foot alone: y");
    ar& field("supportShiftTolerance", supportShiftTolerance)
        .unit(Unit::millimeters)
        .range(0.5, 20.0)
        .doc("centre of mass this close to its point: the right foot may lift");
    ar& field("collisionMargin", collisionMargin)
        .unit(Unit::millimeters)
        .range(0.0, 100.0)
        .doc("shape pairs never close below this distance");
    ar& field("collisionActivation", collisionActivation)
        .unit(Unit::millimeters)
        .range(0.0, 300.0)
        .doc("shape pairs closer than this get a row");
    ar& field("taskSpeed", taskSpeed)
        .unit(Unit::millimeters)
        .range(10.0, 1000.0)
        .doc("mm/s: mean speed of a hand's or the foot's way to its target");
    ar& field("taskAcceleration", taskAcceleration)
        .unit(Unit::millimeters)
        .range(10.0, 10000.0)
        .doc("mm/s^2: largest acceleration of a hand's or the foot's way");
    ar& field("comSpeed", comSpeed)
        .unit(Unit::millimeters)
        .range(5.0, 500.0)
        .doc("mm/s: mean speed of the centre of mass's way over the support foot");
    ar& field("comAcceleration", comAcceleration)
        .unit(Unit::millimeters)
        .range(5.0, 5000.0)
        .doc("mm/s^2: largest acceleration of the centre of mass's way");
    ar& field("taskGain", taskGain).range(0.1, 20.0).doc("1/s: the rate a target and the balance close at");
    ar& field("postureGain", postureGain)
        .range(0.0, 20.0)
        .doc("1/s: the rate the posture returns to the start");
    ar& field("speed", speed).range(0.05, 1.0).doc("share of each joint's maximum speed a step may use");
    ar& field("acceleration", acceleration)
        .range(0.5, 100.0)
        .doc("rad/s^2: how fast a joint's velocity may change");
    ar& field("stiffness", stiffness)
        .range(0.0, 1.0)
        .doc("the request's stiffness of every joint but the hands");
  }
};
} // namespace nao
