#pragma once
// Every number of EnergySavingProvider: the ones every heat adjustment shares (HeatAdjustmentParameters) and those
// of its own rounds (the search for the least current, the sag bound, the hand-over). Config/Modules/
// EnergySavingProvider.toml holds degrees, mA, ms and mm; README.md of this folder says what each rule does.
#include "Modules/MotionControl/Common/HeatAdjustmentParameters.h"

namespace nao
{
struct EnergySavingParameters : HeatAdjustmentParameters
{
  float agreementBand = 0.088f * degree;
  float minSearchStepFraction = 0.125f;
  float searchCurrentTolerance = 0.005f;
  int stalledRoundsToSettle = 4;
  // A settled leg joint still above its threshold lets its mirror joint push (one minGearStep more each round)
  // before that joint tries the other way.
  int handOverRounds = 7;
  int pusherAboveRounds = 3;
  float maxSag = 0.5f * degree;
  // A smaller static torque, or no valid robot model: the load's way comes from the posture's sign table.
  float loadDirectionTorque = 0.05f;

  template<class Archive>
  void serialize(Archive& ar, const unsigned version)
  {
    using streams::field;
    using streams::Unit;
    HeatAdjustmentParameters::serialize(ar, version);
    ar& field("agreementBand", agreementBand)
        .unit(Unit::degrees)
        .range(0.0, 1.0)
        .doc("request and reading closer than this agree (one encoder count)");
    ar& field("minSearchStepFraction", minSearchStepFraction)
        .range(0.01, 1.0)
        .doc("the search halves its step down to this × minGearStep");
    ar& field("searchCurrentTolerance", searchCurrentTolerance)
        .unit(Unit::milliamperes)
        .range(0.0, 1000.0)
        .doc("a current higher by more than this turns the search round");
    ar& field("stalledRoundsToSettle", stalledRoundsToSettle)
        .range(1, 1000)
        .doc("rounds at the finest step after which the search settles");
    ar& field("handOverRounds", handOverRounds)
        .range(0, 100)
        .doc("rounds a settled leg joint above its threshold lets its mirror joint push; 0: no hand-over");
    ar& field("pusherAboveRounds", pusherAboveRounds)
        .range(1, 100)
        .doc("rounds in a row a pusher may draw more than its helped joint did (+ margin): push undone");
    ar& field("maxSag", maxSag)
        .unit(Unit::degrees)
        .range(0.0, 10.0)
        .doc("a joint given way this far from its request no longer follows it");
    ar& field("loadDirectionTorque", loadDirectionTorque)
        .unit(Unit::newtonMeters)
        .range(0.0, 100.0)
        .doc("a joint with at least this static torque takes its load's way from the robot model");
  }
};
} // namespace nao
