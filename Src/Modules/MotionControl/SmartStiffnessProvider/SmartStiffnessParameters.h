#pragma once
// Every number of SmartStiffnessProvider. Code holds rad, rad/s and s; Config/Modules/SmartStiffnessProvider.toml
// holds degrees, deg/s and ms.
#include "Tools/Streams/Field.h"

#include <numbers>

namespace nao
{
struct SmartStiffnessParameters
{
  static constexpr float degree = std::numbers::pi_v<float> / 180.f;

  bool enabled = true; ///< false: the user's stiffness passes unchanged (NAOqi's setSmartStiffnessEnabled)
  float margin =
      1.5f; ///< needed torque limit = margin × |static torque| (+ floor): covers what the static model
            ///< leaves out (accelerations, Coriolis, external forces, model and FSR errors)
  float floor =
      0.1f; ///< 0..1 stiffness added to every joint: a joint without static load stays position-held
  float requestThreshold = 0.5f * degree; ///< rad (deg): a requested angle moved farther from where it rested
  float settleTime = 5.f;                 ///< s (ms): the posture must be static this long before limiting
  float maxJointSpeed = 30.f * degree;    ///< rad/s (deg/s): a faster measured joint releases at once
  float maxFrameGap = 0.05f;              ///< s (ms): a longer gap between two frames is stale input
  bool raiseOnSag = true;                 ///< a joint that gives way gets the user's stiffness back
  float sagTolerance = 1.f * degree;      ///< rad (deg): tracking error beyond the one at activation = sag
  int sagDelayFrames = 3; ///< frames: the measured angle is compared with the request this old
  /// A joint whose motor works at its limit (current ≥ pinnedFraction × the limit's current for pinnedTime) gets
  /// the user's stiffness for at least releaseTime, until its current is below the limit's again: a motor pinned
  /// at its limit hides its position error from the heat adjustment behind (its current no longer changes with
  /// the offsets). false: the limit holds however hard the motor pushes (NAOqi; no heat adjustment behind).
  bool releasePinnedJoints = false;
  float pinnedFraction = 0.9f;
  float pinnedTime = 0.25f; ///< s (ms)
  float releaseTime = 2.f;  ///< s (ms): a few of the heat adjustment's rounds (250 ms)
  /// The guard ("do no harm"): a joint whose filtered current (over currentFilterTime) rises under its limit above
  /// the one it drew when the limit began by more than guardMarginFraction × that + guardMarginCurrent, for
  /// guardTime, gets the user's stiffness until the request moves.
  bool guardEnabled = true;
  float guardMarginFraction = 0.1f; ///< (percent in the file)
  float guardMarginCurrent = 0.02f; ///< A (mA)
  float guardTime = 1.f;            ///< s (ms)
  float currentFilterTime = 0.25f;  ///< s (ms): time constant of the current the guard compares

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    using streams::Unit;
    ar& field("enabled", enabled);
    ar& field("margin", margin).range(1.0, 10.0);
    ar& field("floor", floor).range(0.0, 1.0);
    ar& field("requestThreshold", requestThreshold).unit(Unit::degrees).range(0.0, 20.0);
    ar& field("settleTime", settleTime).unit(Unit::milliseconds).range(0.0, 60000.0);
    ar& field("maxJointSpeed", maxJointSpeed).unit(Unit::degreesPerSecond).range(1.0, 1000.0);
    ar& field("maxFrameGap", maxFrameGap).unit(Unit::milliseconds).range(12.0, 1000.0);
    ar& field("raiseOnSag", raiseOnSag);
    ar& field("sagTolerance", sagTolerance).unit(Unit::degrees).range(0.0, 20.0);
    ar& field("sagDelayFrames", sagDelayFrames).range(1, 8);
    ar& field("releasePinnedJoints", releasePinnedJoints);
    ar& field("pinnedFraction", pinnedFraction).range(0.1, 1.0);
    ar& field("pinnedTime", pinnedTime).unit(Unit::milliseconds).range(0.0, 10000.0);
    ar& field("releaseTime", releaseTime).unit(Unit::milliseconds).range(0.0, 60000.0);
    ar& field("guardEnabled", guardEnabled);
    ar& field("guardMarginFraction", guardMarginFraction).unit(Unit::percent).range(0.0, 1000.0);
    ar& field("guardMarginCurrent", guardMarginCurrent).unit(Unit::milliamperes).range(0.0, 5000.0);
    ar& field("guardTime", guardTime).unit(Unit::milliseconds).range(0.0, 60000.0);
    ar& field("currentFilterTime", currentFilterTime).unit(Unit::milliseconds).range(12.0, 10000.0);
  }
};
} // namespace nao
