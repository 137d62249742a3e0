#pragma once
// Every number of EnergySavingProvider: the ones every heat adjustment shares (HeatAdjustmentParameters) and those
// of its own rounds (the search for the least current, the sag bound, the hand-over; none of them in B-Human).
// Config/Modules/EnergySavingProvider.toml states only what differs from these defaults, in degrees, mA, ms and mm;
// README.md of this folder says what each rule does ("The search", "The hand-over").
#include "Modules/MotionControl/Common/HeatAdjustmentParameters.h"

namespace nao
{
struct EnergySavingParameters : HeatAdjustmentParameters
{
  // One count of the 12-bit encoder: request and reading within it agree, since the reading cannot tell where the
  // motor board's target lies.
  float agreementBand = 0.088f * degree;
  // While the current rises, the search turns round with half its step, down to minGearStep / 8.
  float minSearchStepFraction = 0.125f;
  float searchCurrentTolerance = 0.005f;
  // Settled: the search holds the offset of the least current it saw until the current rises by the joint's
  // threshold.
  int stalledRoundsToSettle = 4;
  // A settled leg joint still above its threshold lets its mirror joint push (one minGearStep more each round)
  // before that joint tries the other way.
  int handOverRounds = 7;
  // The hand-over's guard: the pusher's current is compared with what the helped joint drew when the hand-over
  // began, plus the guard's margin (guard.marginFraction, guard.marginCurrent).
  int pusherAboveRounds = 3;
  // The sag: how far a joint has given way from request + base offset. Beyond maxSag its offset no longer follows
  // it (B-Human's offsets follow a slipping joint up to maxOffset).
  float maxSag = 0.5f * degree;
  // The static torque is JointTorques'. A smaller one, or no valid robot model: the load's way comes from the
  // posture's sign table.
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
