#pragma once
// FallProtectionProvider's parameters: the protective posture while the robot falls. The defaults are declared here;
// Config/Modules/FallProtectionProvider.toml holds only values that differ. Code holds rad, s and fractions; the file
// holds degrees and ms. Why each number: README.md of this folder.
#include "Representations/Infrastructure/Joints.h"
#include "Tools/Streams/Field.h"
#include <numbers>

namespace nao
{
struct FallProtectionParameters
{
  // One limb per line, in Joint order: head; left arm; left leg; right leg (no RHipYawPitch); right arm; hands.
  // clang-format off
  // Falling forward: head back to its limit (-38.5°), arms forward below the shoulders, elbows bent, legs crouched.
  JointArray<float> frontPose = jointAnglesFromDegrees({0, -38,
                                                        20, 10, 0, -30, -90,
                                                        0, 0, -35, 75, -40, 0,
                                                        0, -35, 75, -40, 0,
                                                        20, -10, 0, 30, 90,
                                                        0, 0});
  // Falling backward: chin to the chest (29.5° limit), arms behind the torso (119.5° limit), legs crouched.
  JointArray<float> backPose = jointAnglesFromDegrees({0, 29,
                                                       119, 10, 0, -5, -90,
                                                       0, 0, -35, 75, -40, 0,
                                                       0, -35, 75, -40, 0,
                                                       119, -10, 0, 5, 90,
                                                       0, 0});
  // Falling sideways: chin to the chest, arms straight down at the sides (the upper arm and shoulder, not the hand or
  // the head, land first; arms in front let the head reach the floor).
  JointArray<float> sidePose = jointAnglesFromDegrees({0, 29,
                                                       90, 10, 0, -2.5, -90,
                                                       0, 0, -35, 75, -40, 0,
                                                       0, -35, 75, -40, 0,
                                                       90, -10, 0, 2.5, 90,
                                                       0, 0});
  JointArray<float> stiffnesses{{0.3f, 0.3f,
                                 0.2f, 0.2f, 0.2f, 0.2f, 0.2f,
                                 0.3f, 0.3f, 0.3f, 0.3f, 0.3f, 0.3f,
                                 0.3f, 0.3f, 0.3f, 0.3f, 0.3f,
                                 0.2f, 0.2f, 0.2f, 0.2f, 0.2f,
                                 0.f, 0.f}};
  // clang-format on
  /// the head joints' stiffness in a sideways fall, instead of `stiffnesses`': the arms at the sides keep the head off
  /// the floor, and a head motor that holds its target pushes its torque limit into the neck at impact
  float sideHeadStiffness = 0.f;
  float lieStillTime = 1.f; ///< s
  // passiveStiffness is held until the robot is upright again or a get-up moves it.
  float passiveStiffness = 0.f;
  float handBackTime = 1.f; ///< s

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    using streams::Unit;
    ar& field("frontPose", frontPose)
        .unit(Unit::degrees)
        .range(-180.0, 180.0)
        .doc("the posture while falling forward");
    ar& field("backPose", backPose)
        .unit(Unit::degrees)
        .range(-180.0, 180.0)
        .doc("the posture while falling back");
    ar& field("sidePose", sidePose)
        .unit(Unit::degrees)
        .range(-180.0, 180.0)
        .doc("the posture while falling to the left or right");
    ar& field("stiffnesses", stiffnesses)
        .range(0.0, 1.0)
        .doc("each joint's stiffness from the start of a fall until the hand-back");
    ar& field("sideHeadStiffness", sideHeadStiffness)
        .range(0.0, 1.0)
        .doc("the head joints' stiffness in a sideways fall (instead of stiffnesses')");
    ar& field("lieStillTime", lieStillTime)
        .unit(Unit::milliseconds)
        .range(0.0, 10000.0)
        .doc("the robot lies (FallDownState fallen) this long before it goes passive");
    ar& field("passiveStiffness", passiveStiffness)
        .range(0.0, 1.0)
        .doc("every joint's stiffness while the robot lies passive (NAOqi's fall manager: off)");
    ar& field("handBackTime", handBackTime)
        .unit(Unit::milliseconds)
        .range(0.0, 10000.0)
        .doc(
            "time from the measured posture and the protective stiffness to the request before (smoothstep)");
  }
};
} // namespace nao
