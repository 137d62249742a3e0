#pragma once
// Every number of SmartStiffnessProvider (NAOqi's Smart Stiffness). While the posture is static, each joint's
// stiffness = min(user, margin × |static torque| / max torque + floor); the motors' max torques and the firmware's
// temperature factors come from Config/Sim/motors.toml, the one motor table (MotorTorqueLimits). Code holds rad,
// rad/s, A, fractions and s; Config/Modules/SmartStiffnessProvider.toml, which states only what differs from these
// defaults, holds degrees, deg/s, mA, percent and ms.
#include "Tools/Streams/Field.h"

#include <numbers>

namespace nao
{
struct SmartStiffnessParameters
{
  static constexpr float degree = std::numbers::pi_v<float> / 180.f;

  bool enabled = true;
  // The margin covers what the static model leaves out (accelerations, Coriolis, external forces, model and FSR
  // errors).
  float margin = 1.5f;
  float floor = 0.1f;
  float requestThreshold = 0.5f * degree;
  // Long enough that a short pause within a motion is not limited. Joints the heat adjustment behind still searches
  // keep the user's stiffness anyway (EnergySaving::searching): a limit that cut in during its search would change
  // the currents it compares.
  float settleTime = 5.f;
  // Above the reading's flicker (LoLA's 12-bit reading flickers by one count: 7.3 deg/s per 12 ms frame); a faster
  // joint (a push, a fall) releases in the same frame.
  float maxJointSpeed = 30.f * degree;
  // Stale input: every joint gets the user's stiffness.
  float maxFrameGap = 0.05f;
  // A joint that gives way beyond sagTolerance gets the user's stiffness until its request moves.
  bool raiseOnSag = true;
  float sagTolerance = 1.f * degree;
  // The request compared is the final one (JointRequest), so the heat adjustment's offsets are not taken for a sag.
  int sagDelayFrames = 3;
  // A joint whose motor works at its limit (current ≥ pinnedFraction × the limit's current for pinnedTime) gets
  // the user's stiffness for at least releaseTime, until its current is below the limit's again: a motor pinned
  // at its limit hides its position error from the heat adjustment behind (its current no longer changes with
  // the offsets). false: the limit holds however hard the motor pushes (NAOqi; no heat adjustment behind). Off by
  // default: a joint that slipped (a hip) and is then pinned would get full stiffness back and draw more.
  bool releasePinnedJoints = false;
  // The limit's current = limited stiffness × max torque / the motor's torque constant (N·m/A).
  float pinnedFraction = 0.9f;
  float pinnedTime = 0.25f;
  // Eight of the heat adjustment's 250 ms rounds.
  float releaseTime = 2.f;
  // The guard ("do no harm"): a joint whose filtered current (over currentFilterTime) rises under its limit above
  // the one it drew when the limit began by more than guardMarginFraction × that + guardMarginCurrent, for
  // guardTime, gets the user's stiffness until the request moves. A joint that gives way is raiseOnSag's.
  bool guardEnabled = true;
  float guardMarginFraction = 0.1f;
  float guardMarginCurrent = 0.02f;
  float guardTime = 1.f;
  float currentFilterTime = 0.25f;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    using streams::Unit;
    ar& field("enabled", enabled)
        .doc("false: the user's stiffness passes unchanged (NAOqi's setSmartStiffnessEnabled)");
    ar& field("margin", margin)
        .range(1.0, 10.0)
        .doc("needed torque limit = margin × |static torque| (+ floor)");
    ar& field("floor", floor)
        .range(0.0, 1.0)
        .doc("stiffness added to every joint: a joint without static load stays position-held");
    ar& field("requestThreshold", requestThreshold)
        .unit(Unit::degrees)
        .range(0.0, 20.0)
        .doc("a requested angle moved farther from where it rested releases the joint");
    ar& field("settleTime", settleTime)
        .unit(Unit::milliseconds)
        .range(0.0, 60000.0)
        .doc("the posture must be static this long before limiting");
    ar& field("maxJointSpeed", maxJointSpeed)
        .unit(Unit::degreesPerSecond)
        .range(1.0, 1000.0)
        .doc("a faster measured joint releases at once");
    ar& field("maxFrameGap", maxFrameGap)
        .unit(Unit::milliseconds)
        .range(12.0, 1000.0)
        .doc("a longer gap between two frames is stale input");
    ar& field("raiseOnSag", raiseOnSag).doc("a joint that gives way gets the user's stiffness back");
    ar& field("sagTolerance", sagTolerance)
        .unit(Unit::degrees)
        .range(0.0, 20.0)
        .doc("tracking error beyond the one at activation = sag");
    ar& field("sagDelayFrames", sagDelayFrames)
        .range(1, 8)
        .doc("frames: the measured angle is compared with the request this old");
    ar& field("releasePinnedJoints", releasePinnedJoints)
        .doc("a joint whose motor works at its limit gets the user's stiffness for a while");
    ar& field("pinnedFraction", pinnedFraction)
        .range(0.1, 1.0)
        .doc("a current at least this × the limit's current counts as pinned ...");
    ar& field("pinnedTime", pinnedTime).unit(Unit::milliseconds).range(0.0, 10000.0).doc("... for this long");
    ar& field("releaseTime", releaseTime)
        .unit(Unit::milliseconds)
        .range(0.0, 60000.0)
        .doc("a pinned joint's least release: a few of the heat adjustment's rounds (250 ms)");
    ar& field("guardEnabled", guardEnabled)
        .doc("a joint whose current rises under its limit gets the user's stiffness back");
    ar& field("guardMarginFraction", guardMarginFraction)
        .unit(Unit::percent)
        .range(0.0, 1000.0)
        .doc("the guard's margin: this × the current at the limit's start ...");
    ar& field("guardMarginCurrent", guardMarginCurrent)
        .unit(Unit::milliamperes)
        .range(0.0, 5000.0)
        .doc("... plus this");
    ar& field("guardTime", guardTime)
        .unit(Unit::milliseconds)
        .range(0.0, 60000.0)
        .doc("how long the current must stay above the margin");
    ar& field("currentFilterTime", currentFilterTime)
        .unit(Unit::milliseconds)
        .range(12.0, 10000.0)
        .doc("time constant of the current the guard compares");
  }
};
} // namespace nao
