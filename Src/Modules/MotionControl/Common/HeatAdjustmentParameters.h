#pragma once
// The numbers every heat adjustment shares (HeatAdjustmentCycle: states, thresholds, caps, resets, fades, base
// offsets): B-Human's values where B-Human has the parameter (all but adjustWaitTime), with B-Human's name where
// it differs (bhuman/BHumanCodeRelease, Config/Robots/Default/energySavingProvider.cfg). EnergySavingParameters
// and BHumanEnergySavingParameters add their rounds' own. Code holds rad, A, s and m; the files (which state only
// what differs from these defaults) hold degrees, mA, ms and mm.
#include "Modules/MotionControl/Common/JointGuard.h"
#include "Representations/Infrastructure/Joints.h"
#include "Tools/Streams/Field.h"

#include <cmath>
#include <numbers>
#include <vector>

namespace nao
{
struct HeatAdjustmentParameters
{
  static constexpr float degree = std::numbers::pi_v<float> / 180.f;

  float motionChangeWaitTime = 0.1f;
  // EnergySavingProvider's search compares the currents of successive rounds: a round per FilteredCurrent window
  // (20 × 12 ms) plus a frame. B-Human's rounds wait 500 ms (BHumanEnergySavingParameters).
  float adjustWaitTime = 0.25f;
  // B-Human: resetTimeNormal.
  float resetTime = 3.f;
  // The base offsets: measured − requested at a start in the normal stand, faded in and then clamped (the clamp is a
  // safety bound B-Human does not have).
  float baseOffsetFadeInTime = 0.06f;
  float maxBaseOffset = 3.f * degree;
  float legCurrentThreshold = 0.1f;
  // B-Human: currentThresholdLegsHighOffset.
  float legCurrentThresholdLargeOffset = 0.3f;
  // B-Human: currentThresholdArms.
  float armCurrentThreshold = 0.03f;
  // 0 (every joint's default): currentThreshold()'s rules.
  JointArray<float> currentThresholdOverrides;
  float largeOffset = 1.5f * degree;
  float maxOffset = 3.f * degree;
  int largeOffsetJointsForReset = 4;
  // B-Human's rounds make an emergency step every this many rounds over the threshold; EnergySavingProvider's search
  // makes none, only its accuratePositions rounds do.
  int stepsBeforeEmergencyStep = 10;
  // The steps, ≈ 0.0035, 0.008 and 0.0005 rad: a leg (arm) joint steps maxGearStepLegs (maxGearStepArms) while
  // |measured − requested| exceeds it, else minGearStep, finer than the encoder's resolution (one count of its 12
  // bits, 0.088°).
  float maxGearStepLegs = 0.2f * degree;
  float maxGearStepArms = 0.458366f * degree;
  float minGearStep = 0.0286479f * degree;
  // accuratePositions' step once the error is within maxGearStepLegs: minGearStep / 2.
  float accurateFineStepFraction = 0.5f;
  // (x, y) from the point between the feet in the ground-aligned frame, which takes the torso orientation from the
  // IMU. B-Human: comXDiffRangeBeforeReset and comYDiffRangeBeforeReset.
  std::array<float, 2> centerOfMassMin{-0.02f, -0.05f};
  std::array<float, 2> centerOfMassMax{0.05f, 0.05f};
  // The whole NAO weighs about 5.4 kg (Docs/NaoFacts.md).
  float groundContactWeight = 1.f;
  float groundContactDebounceTime = 0.1f;
  // The hands' requests are 0..1 open, not angles.
  std::vector<Joint> skipJoints{Joint::HeadYaw, Joint::HeadPitch, Joint::LHand, Joint::RHand};
  // B-Human's standSigns and highStandSigns with B-Human's values, in Joint order. In the stand the knees step +1
  // (the body's weight bends them: the holding torque falls as the request follows), every other joint -1 but
  // RHipRoll (+1, the mirror image of LHipRoll) and HeadPitch (0); in the high stand the knees too step -1. B-Human's
  // rounds step by them; EnergySavingProvider's take the way the load pulls from the static torque (JointTorques)
  // where it is at least loadDirectionTorque, and from these tables only below that: where the load is large the
  // tables disagree with the robot model (RShoulderRoll holds -0.12 N·m in both postures, the knees -0.25 N·m in the
  // high stand; the tables say -1).
  JointArray<int> emergencyStepSignsStand{
      {-1, 0, -1, -1, -1, -1, -1, -1, -1, -1, 1, -1, -1, 1, -1, 1, -1, -1, -1, -1, -1, -1, -1, -1, -1}};
  JointArray<int> emergencyStepSignsHighStand{
      {-1, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1}};
  JointGuardParameters guard;

  /// A: the joint's current threshold with its round offset `adjustment` (rad): above it the joint is adjusted.
  float currentThreshold(Joint joint, float adjustment) const
  {
    const float override = currentThresholdOverrides[joint];
    if (override > 0.f) return override;
    if (!isLegJoint(joint)) return armCurrentThreshold;
    return std::abs(adjustment) > largeOffset ? legCurrentThresholdLargeOffset : legCurrentThreshold;
  }

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    serializeTimesAndThresholds(ar);
    serializeSteps(ar);
    serializePosture(ar);
  }

  /// When the cycle works, and which currents it acts on.
  template<class Archive>
  void serializeTimesAndThresholds(Archive& ar)
  {
    using streams::field;
    using streams::Unit;
    ar& field("motionChangeWaitTime", motionChangeWaitTime)
        .unit(Unit::milliseconds)
        .range(0.0, 10000.0)
        .doc("waiting after a start before the first round");
    ar& field("adjustWaitTime", adjustWaitTime)
        .unit(Unit::milliseconds)
        .range(12.0, 60000.0)
        .doc("time between adjustment rounds");
    ar& field("resetTime", resetTime)
        .unit(Unit::milliseconds)
        .range(0.0, 60000.0)
        .doc("a reset fades every offset linearly to 0 over this");
    ar& field("baseOffsetFadeInTime", baseOffsetFadeInTime)
        .unit(Unit::milliseconds)
        .range(0.0, 10000.0)
        .doc("base offsets fade in over this (B-Human: baseOffsetInterpolationTime)");
    ar& field("maxBaseOffset", maxBaseOffset)
        .unit(Unit::degrees)
        .range(0.0, 10.0)
        .doc("a base offset beyond this is clamped (a safety bound)");
    ar& field("legCurrentThreshold", legCurrentThreshold)
        .unit(Unit::milliamperes)
        .range(0.0, 5000.0)
        .doc("a leg joint is adjusted above this (B-Human: currentThresholdLegs) ...");
    ar& field("legCurrentThresholdLargeOffset", legCurrentThresholdLargeOffset)
        .unit(Unit::milliamperes)
        .range(0.0, 5000.0)
        .doc("... or above this once its |offset| > largeOffset");
    ar& field("armCurrentThreshold", armCurrentThreshold)
        .unit(Unit::milliamperes)
        .range(0.0, 5000.0)
        .doc("the threshold of arm and unskipped head joints");
    ar& field("currentThresholdOverrides", currentThresholdOverrides)
        .unit(Unit::milliamperes)
        .range(0.0, 5000.0)
        .doc("replaces the joint's threshold when > 0");
  }

  /// Caps, resets and step sizes.
  template<class Archive>
  void serializeSteps(Archive& ar)
  {
    using streams::field;
    using streams::Unit;
    ar& field("largeOffset", largeOffset)
        .unit(Unit::degrees)
        .range(0.0, 10.0)
        .doc("B-Human: maxAngleMultipleJoints, and maxAngleOneJoint / 2");
    ar& field("maxOffset", maxOffset)
        .unit(Unit::degrees)
        .range(0.0, 10.0)
        .doc("a joint's offset is capped at this (B-Human: maxAngleOneJoint)");
    ar& field("largeOffsetJointsForReset", largeOffsetJointsForReset)
        .range(1, 11)
        .doc("leg joints beyond largeOffset that reset (B-Human: minNumberForHeatAdjustmentReset)");
    ar& field("stepsBeforeEmergencyStep", stepsBeforeEmergencyStep)
        .range(1, 1000)
        .doc("every this many rounds over the threshold: an emergency step");
    ar& field("maxGearStepLegs", maxGearStepLegs)
        .unit(Unit::degrees)
        .range(0.0, 2.0)
        .doc("a leg joint's step when the difference exceeds it");
    ar& field("maxGearStepArms", maxGearStepArms)
        .unit(Unit::degrees)
        .range(0.0, 2.0)
        .doc("the same for arm joints");
    ar& field("minGearStep", minGearStep).unit(Unit::degrees).range(0.0, 2.0).doc("the step otherwise");
    ar& field("accurateFineStepFraction", accurateFineStepFraction)
        .range(0.0, 1.0)
        .doc("accuratePositions' fine step = this × minGearStep");
  }

  /// The posture: the high stand's centre-of-mass window, ground contact, the joints and signs.
  template<class Archive>
  void serializePosture(Archive& ar)
  {
    using streams::field;
    using streams::Unit;
    ar& field("centerOfMassMin", centerOfMassMin)
        .unit(Unit::millimeters)
        .range(-200.0, 200.0)
        .doc("high stand: CoM box (x, y) from between the feet; CoM outside and offsets large: reset");
    ar& field("centerOfMassMax", centerOfMassMax)
        .unit(Unit::millimeters)
        .range(-200.0, 200.0)
        .doc("the box's upper corner");
    ar& field("groundContactWeight", groundContactWeight)
        .range(0.0, 10.0)
        .doc("kg; both feet together carry more: ground contact");
    ar& field("groundContactDebounceTime", groundContactDebounceTime)
        .unit(Unit::milliseconds)
        .range(0.0, 5000.0)
        .doc("a ground contact change counts after holding this long");
    ar& field("skipJoints", skipJoints).doc("joints never adjusted");
    ar& field("emergencyStepSignsStand", emergencyStepSignsStand)
        .range(-1, 1)
        .doc("direction of each joint's emergency step in the stand (B-Human: standSigns)");
    ar& field("emergencyStepSignsHighStand", emergencyStepSignsHighStand)
        .range(-1, 1)
        .doc("the same in the high stand (B-Human: highStandSigns)");
    ar& field("guard", guard).doc("\"do no harm\" (not in B-Human)");
  }
};
} // namespace nao
