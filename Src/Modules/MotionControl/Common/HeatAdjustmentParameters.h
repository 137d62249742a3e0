#pragma once
// The numbers every heat adjustment shares (HeatAdjustmentCycle: states, thresholds, caps, resets, fades, base
// offsets), with B-Human's name where it differs (bhuman/BHumanCodeRelease, Config/Robots/Default/
// energySavingProvider.cfg). EnergySavingParameters and BHumanEnergySavingParameters add their rounds' own.
// Code holds rad, A, s and m; the files hold degrees, mA, ms and mm.
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
  float adjustWaitTime = 0.25f;
  float resetTime = 3.f;
  float baseOffsetFadeInTime = 0.06f;
  float maxBaseOffset = 3.f * degree;
  float legCurrentThreshold = 0.1f;
  float legCurrentThresholdLargeOffset = 0.3f;
  float armCurrentThreshold = 0.03f;
  JointArray<float> currentThresholdOverrides;
  float largeOffset = 1.5f * degree;
  float maxOffset = 3.f * degree;
  int largeOffsetJointsForReset = 4;
  int stepsBeforeEmergencyStep = 10;
  float maxGearStepLegs = 0.2f * degree;
  float maxGearStepArms = 0.458366f * degree;
  float minGearStep = 0.0286479f * degree;
  float accurateFineStepFraction = 0.5f;
  // The ground-aligned frame takes the torso orientation from the IMU.
  std::array<float, 2> centerOfMassMin{-0.02f, -0.05f};
  std::array<float, 2> centerOfMassMax{0.05f, 0.05f};
  float groundContactWeight = 1.f;
  float groundContactDebounceTime = 0.1f;
  std::vector<Joint> skipJoints{Joint::HeadYaw, Joint::HeadPitch, Joint::LHand, Joint::RHand};
  // B-Human's standSigns and highStandSigns, in Joint order (the knees differ: +1 in the stand, -1 in the high stand).
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
