#pragma once
// Every number of EnergySavingProvider, with B-Human's name where it differs (bhuman/BHumanCodeRelease,
// Config/Robots/Default/energySavingProvider.cfg). Code holds rad, A, s and m; Config/Modules/
// EnergySavingProvider.toml holds degrees, mA, ms and mm.
#include "Representations/Infrastructure/Joints.h"
#include "Tools/Streams/Field.h"

#include <numbers>
#include <vector>

namespace nao
{
struct EnergySavingParameters
{
  static constexpr float degree = std::numbers::pi_v<float> / 180.f;

  float motionChangeWaitTime = 0.1f;  ///< s (ms in the file): waiting after a start before the first round
  float adjustWaitTime = 0.5f;        ///< s (ms): time between adjustment rounds
  float resetTime = 3.f;              ///< s (ms): a reset fades every offset linearly to 0 over this
  float baseOffsetFadeInTime = 0.06f; ///< s (ms): the base offsets fade in over this (B-Human's
                                      ///< baseOffsetInterpolationTime)
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
  float agreementBand =
      0.088f * degree;                  ///< rad (deg): request and reading closer than this agree (one count)
  float minSearchStepFraction = 0.125f; ///< the current search halves its step down to this × minGearStep
  float searchCurrentTolerance =
      0.005f;                    ///< A (mA): a current higher by more than this turns the search round
  int stalledRoundsToSettle = 4; ///< rounds at the finest step: the search settles
  /// rounds a settled leg joint still above its threshold lets its mirror joint push (one minGearStep more
  /// each round) before that joint tries the other way; 0: no hand-over
  int handOverRounds = 7;
  bool searchLeastCurrent = true;    ///< ours; false: B-Human's steps towards the reading from the request
  bool searchEmergencySteps = false; ///< B-Human's emergency steps while searching (B-Human: always)
  bool oneLegJointPerRound =
      false; ///< normal stand: only the leg joint of highest current per round (B-Human)
  float maxSag =
      0.5f * degree; ///< rad (deg): a joint given way this far from its request no longer follows it
  /// m (mm): the centre of mass relative to the point between the feet on the ground, in the ground-aligned
  /// frame (torso orientation from the IMU); high stand only: offsets too large and the CoM outside -> reset
  std::array<float, 2> centerOfMassMin{-0.02f, -0.05f};
  std::array<float, 2> centerOfMassMax{0.05f, 0.05f};
  float groundContactWeight = 1.f;        ///< kg: both feet together carry more: ground contact
  float groundContactDebounceTime = 0.1f; ///< s (ms): a contact change counts after holding this long
  std::vector<Joint> skipJoints{Joint::HeadYaw, Joint::HeadPitch, Joint::LHand, Joint::RHand};
  /// N·m: a joint whose static torque (JointTorques) is at least this large has its load's way from the robot
  /// model; a smaller one, or no valid model, from the posture's sign table
  float loadDirectionTorque = 0.05f;
  JointArray<int> emergencyStepSignsStand;     ///< B-Human's standSigns
  JointArray<int> emergencyStepSignsHighStand; ///< B-Human's highStandSigns

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
    ar& field("agreementBand", agreementBand).unit(Unit::degrees).range(0.0, 1.0);
    ar& field("minSearchStepFraction", minSearchStepFraction).range(0.01, 1.0);
    ar& field("searchCurrentTolerance", searchCurrentTolerance).unit(Unit::milliamperes).range(0.0, 1000.0);
    ar& field("stalledRoundsToSettle", stalledRoundsToSettle).range(1, 1000);
    ar& field("handOverRounds", handOverRounds).range(0, 100);
    ar& field("searchLeastCurrent", searchLeastCurrent);
    ar& field("searchEmergencySteps", searchEmergencySteps);
    ar& field("oneLegJointPerRound", oneLegJointPerRound);
    ar& field("maxSag", maxSag).unit(Unit::degrees).range(0.0, 10.0);
    ar& field("centerOfMassMin", centerOfMassMin).unit(Unit::millimeters).range(-200.0, 200.0);
    ar& field("centerOfMassMax", centerOfMassMax).unit(Unit::millimeters).range(-200.0, 200.0);
    ar& field("groundContactWeight", groundContactWeight).range(0.0, 10.0);
    ar& field("groundContactDebounceTime", groundContactDebounceTime)
        .unit(Unit::milliseconds)
        .range(0.0, 5000.0);
    ar& field("skipJoints", skipJoints);
    ar& field("loadDirectionTorque", loadDirectionTorque).unit(Unit::newtonMeters).range(0.0, 100.0);
    ar& field("emergencyStepSignsStand", emergencyStepSignsStand).range(-1, 1);
    ar& field("emergencyStepSignsHighStand", emergencyStepSignsHighStand).range(-1, 1);
  }
};
} // namespace nao
