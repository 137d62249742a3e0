#pragma once
// Every number of EnergySavingProvider: the ones every heat adjustment shares (HeatAdjustmentParameters) and those
// of its own rounds (the search for the least current, the sag bound, the hand-over). Config/Modules/
// EnergySavingProvider.toml holds degrees, mA, ms and mm; README.md of this folder says what each rule does.
#include "Modules/MotionControl/EnergySavingProvider/HeatAdjustmentParameters.h"

namespace nao
{
struct EnergySavingParameters : HeatAdjustmentParameters
{
  float agreementBand =
      0.088f * degree;                  ///< rad (deg): request and reading closer than this agree (one count)
  float minSearchStepFraction = 0.125f; ///< the search halves its step down to this × minGearStep
  float searchCurrentTolerance =
      0.005f;                    ///< A (mA): a current higher by more than this turns the search round
  int stalledRoundsToSettle = 4; ///< rounds at the finest step: the search settles
  /// rounds a settled leg joint still above its threshold lets its mirror joint push (one minGearStep more
  /// each round) before that joint tries the other way; 0: no hand-over
  int handOverRounds = 7;
  /// rounds in a row a pushing joint may draw more than the joint it helps drew when the hand-over began (by the
  /// guard's margin) before the push is undone
  int pusherAboveRounds = 3;
  float maxSag =
      0.5f * degree; ///< rad (deg): a joint given way this far from its request no longer follows it
  /// N·m: a joint whose static torque (JointTorques) is at least this large has its load's way from the robot
  /// model; a smaller one, or no valid model, from the posture's sign table
  float loadDirectionTorque = 0.05f;

  template<class Archive>
  void serialize(Archive& ar, const unsigned version)
  {
    using streams::field;
    using streams::Unit;
    HeatAdjustmentParameters::serialize(ar, version);
    ar& field("agreementBand", agreementBand).unit(Unit::degrees).range(0.0, 1.0);
    ar& field("minSearchStepFraction", minSearchStepFraction).range(0.01, 1.0);
    ar& field("searchCurrentTolerance", searchCurrentTolerance).unit(Unit::milliamperes).range(0.0, 1000.0);
    ar& field("stalledRoundsToSettle", stalledRoundsToSettle).range(1, 1000);
    ar& field("handOverRounds", handOverRounds).range(0, 100);
    ar& field("pusherAboveRounds", pusherAboveRounds).range(1, 100);
    ar& field("maxSag", maxSag).unit(Unit::degrees).range(0.0, 10.0);
    ar& field("loadDirectionTorque", loadDirectionTorque).unit(Unit::newtonMeters).range(0.0, 100.0);
  }
};
} // namespace nao
