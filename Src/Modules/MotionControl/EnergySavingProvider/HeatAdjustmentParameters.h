#pragma once
// The numbers every heat adjustment shares (HeatAdjustmentCycle: states, thresholds, caps, resets, fades, base
// offsets), with B-Human's name where it differs (bhuman/BHumanCodeRelease, Config/Robots/Default/
// energySavingProvider.cfg). EnergySavingParameters and BHumanEnergySavingParameters add their rounds' own.
// Code holds rad, A, s and m; the files hold degrees, mA, ms and mm.
#include "Modules/MotionControl/EnergySavingProvider/JointGuard.h"
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

  float motionChangeWaitTime = 0.1f; ///< s (ms in the file): waiting after a start before the first round
  float adjustWaitTime = 0.25f;      ///< s (ms): time between adjustment rounds
  float resetTime = 3.f;             ///< s (ms): a reset fades every offset linearly to 0 over this
  float baseOffsetFadeInTime =
      0.06f; ///< s (ms): base offsets fade in over this (baseOffsetInterpolationTime)
  float maxBaseOffset = 3.f * degree; ///< rad (deg): a base offset beyond this is clamped (a safety bound)
  float legCurrentThreshold = 0.1f; ///< A (mA): a leg joint is adjusted above this (currentThresholdLegs) ...
  float legCurrentThresholdLargeOffset = 0.3f; ///< A (mA): ... or above this once its |offset| > largeOffset
  float armCurrentThreshold = 0.03f;           ///< A (mA): arm and unskipped head joints
  JointArray<float> currentThresholdOverrides; ///< A (mA): replaces the joint's threshold when > 0
  float largeOffset = 1.5f * degree;     ///< rad (deg): maxAngleMultipleJoints, and maxAngleOneJoint / 2
  float maxOffset = 3.f * degree;        ///< rad (deg): maxAngleOneJoint, a joint's offset is capped at this
  int largeOffsetJointsForReset = 4;     ///< minNumberForHeatAdjustmentReset: leg joints beyond largeOffset
  int stepsBeforeEmergencyStep = 10;     ///< every this many rounds over the threshold: an emergency step
  float maxGearStepLegs = 0.2f * degree; ///< rad (deg): a leg step when the difference exceeds it
  float maxGearStepArms = 0.458366f * degree; ///< rad (deg): the same for arm joints
  float minGearStep = 0.0286479f * degree;    ///< rad (deg): the step otherwise
  float accurateFineStepFraction = 0.5f;      ///< accuratePositions' fine step = this × minGearStep
  /// m (mm): the centre of mass relative to the point between the feet on the ground, in the ground-aligned
  /// frame (torso orientation from the IMU); high stand only: offsets too large and the CoM outside -> reset
  std::array<float, 2> centerOfMassMin{-0.02f, -0.05f};
  std::array<float, 2> centerOfMassMax{0.05f, 0.05f};
  float groundContactWeight = 1.f;        ///< kg: both feet together carry more: ground contact
  float groundContactDebounceTime = 0.1f; ///< s (ms): a contact change counts after holding this long
  std::vector<Joint> skipJoints{Joint::HeadYaw, Joint::HeadPitch, Joint::LHand, Joint::RHand};
  /// B-Human's standSigns and highStandSigns, in Joint order (the knees differ: +1 in the stand, -1 in the high stand)
  JointArray<int> emergencyStepSignsStand{
      {-1, 0, -1, -1, -1, -1, -1, -1, -1, -1, 1, -1, -1, 1, -1, 1, -1, -1, -1, -1, -1, -1, -1, -1, -1}};
  JointArray<int> emergencyStepSignsHighStand{
      {-1, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1}};
  JointGuardParameters guard; ///< "do no harm" (not in B-Human)

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
    ar& field("motionChangeWaitTime", motionChangeWaitTime).unit(Unit::milliseconds).range(0.0, 10000.0);
    ar& field("adjustWaitTime", adjustWaitTime).unit(Unit::milliseconds).range(12.0, 60000.0);
    ar& field("resetTime", resetTime).unit(Unit::milliseconds).range(0.0, 60000.0);
    ar& field("baseOffsetFadeInTime", baseOffsetFadeInTime).unit(Unit::milliseconds).range(0.0, 10000.0);
    ar& field("maxBaseOffset", maxBaseOffset).unit(Unit::degrees).range(0.0, 10.0);
    ar& field("legCurrentThreshold", legCurrentThreshold).unit(Unit::milliamperes).range(0.0, 5000.0);
    ar& field("legCurrentThresholdLargeOffset", legCurrentThresholdLargeOffset)
        .unit(Unit::milliamperes)
        .range(0.0, 5000.0);
    ar& field("armCurrentThreshold", armCurrentThreshold).unit(Unit::milliamperes).range(0.0, 5000.0);
    ar& field("currentThresholdOverrides", currentThresholdOverrides)
        .unit(Unit::milliamperes)
        .range(0.0, 5000.0);
    ar& field("largeOffset", largeOffset).unit(Unit::degrees).range(0.0, 10.0);
    ar& field("maxOffset", maxOffset).unit(Unit::degrees).range(0.0, 10.0);
    ar& field("largeOffsetJointsForReset", largeOffsetJointsForReset).range(1, 11);
    ar& field("stepsBeforeEmergencyStep", stepsBeforeEmergencyStep).range(1, 1000);
    ar& field("maxGearStepLegs", maxGearStepLegs).unit(Unit::degrees).range(0.0, 2.0);
    ar& field("maxGearStepArms", maxGearStepArms).unit(Unit::degrees).range(0.0, 2.0);
    ar& field("minGearStep", minGearStep).unit(Unit::degrees).range(0.0, 2.0);
    ar& field("accurateFineStepFraction", accurateFineStepFraction).range(0.0, 1.0);
    ar& field("centerOfMassMin", centerOfMassMin).unit(Unit::millimeters).range(-200.0, 200.0);
    ar& field("centerOfMassMax", centerOfMassMax).unit(Unit::millimeters).range(-200.0, 200.0);
    ar& field("groundContactWeight", groundContactWeight).range(0.0, 10.0);
    ar& field("groundContactDebounceTime", groundContactDebounceTime)
        .unit(Unit::milliseconds)
        .range(0.0, 5000.0);
    ar& field("skipJoints", skipJoints);
    ar& field("emergencyStepSignsStand", emergencyStepSignsStand).range(-1, 1);
    ar& field("emergencyStepSignsHighStand", emergencyStepSignsHighStand).range(-1, 1);
    ar& field("guard", guard);
  }
};
} // namespace nao
