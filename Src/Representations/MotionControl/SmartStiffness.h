#pragma once
// What the smart stiffness stage (SmartStiffnessProvider) did this frame, for logs and plots: the stiffness each
// joint needs to hold the posture, the stiffness sent on, and why the stage is not limiting when it is not.
// StiffnessJointRequest carries the result to the heat adjustment behind it.
#include "Representations/Infrastructure/Joints.h"
#include "Tools/Streams/Enum.h"
#include "Tools/Streams/Field.h"
#include <cstdint>

namespace nao
{
/// Whether the stage limits the stiffness, and if not, why not.
NAO_ENUM(
    SmartStiffnessState, std::uint8_t,
    active,       ///< static posture: stiffness = min(user, needed)
    disabled,     ///< switched off by parameter (`enabled`): user stiffness
    requestMoved, ///< a requested angle moved beyond the threshold this frame: user stiffness
    jointsMoving, ///< a measured joint speed is above the threshold (pushed, falling): user stiffness
    settling,     ///< static, but not yet for settleTime: user stiffness
    invalidInput, ///< NaN, stale frame or no static torques: user stiffness
    sensorsDistrusted, ///< the static torques rest on a sensor SensorHealth distrusts (FSRs, accelerometer): user stiffness
    takenOver, ///< a fall, the robot lying, the sit-down's or the protective fall's motion: user stiffness
);

/// Which rule of the stage's guard ("do no harm") gave a joint the user's stiffness back.
NAO_ENUM(
    SmartStiffnessGuardRule, std::uint8_t, none,
    currentRose, ///< under the limit the joint's current rose above the one it drew at the user's stiffness
    trackingErrorRose ///< under the limit the joint gave way (sagTolerance): sagging
);

struct SmartStiffness
{
  SmartStiffnessState state = SmartStiffnessState::invalidInput;
  JointArray<float> needed;      ///< 0..1, margin × |static torque| / max torque + floor (1 when sagging)
  JointArray<float> stiffnesses; ///< 0..1, what goes on: min(user, needed) when active, else user
  JointArray<float> torques;     ///< N·m, the static torque used (JointTorques)
  JointArray<float> maxTorques;  ///< N·m, the motor's torque at stiffness 1 under its temperature status
  JointArray<bool> sagging{};    ///< gave way beyond sagTolerance: user stiffness until the request moves
  JointArray<bool> pinned{}; ///< the motor worked at its limit: user stiffness until its current is below it
  /// The heat adjustment behind searches the joint's offset (EnergySaving::searching, last frame): user
  /// stiffness, so that its current comparisons see one stiffness.
  JointArray<bool> heatSearching{};
  /// Under the limit the joint's current rose above what it drew at the user's stiffness (the guard): the user's
  /// stiffness until the request moves.
  JointArray<bool> guarded{};
  JointArray<float> references;  ///< A, the joint's filtered current when its limit began (NaN: not limited)
  float staticTime = 0.f;        ///< s since the request and the joints last moved (or the input was bad)
  std::uint32_t guardEvents = 0; ///< how often the guard (a current that rose, a sag) acted since the start
  Joint lastGuardJoint = Joint::HeadYaw;                                 ///< the joint of the last event ...
  SmartStiffnessGuardRule lastGuardRule = SmartStiffnessGuardRule::none; ///< ... the rule that acted ...
  float lastGuardTime = 0.f;                                             ///< s, FrameInfo time

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& BOOST_SERIALIZATION_NVP(state) & BOOST_SERIALIZATION_NVP(needed) &
        BOOST_SERIALIZATION_NVP(stiffnesses) &
        streams::field("torques", torques).unit(streams::Unit::newtonMeters) &
        streams::field("maxTorques", maxTorques).unit(streams::Unit::newtonMeters) &
        BOOST_SERIALIZATION_NVP(sagging) & BOOST_SERIALIZATION_NVP(pinned) &
        BOOST_SERIALIZATION_NVP(heatSearching) & BOOST_SERIALIZATION_NVP(guarded) &
        streams::field("references", references).unit(streams::Unit::amperes) &
        streams::field("staticTime", staticTime).unit(streams::Unit::seconds) &
        BOOST_SERIALIZATION_NVP(guardEvents) & BOOST_SERIALIZATION_NVP(lastGuardJoint) &
        BOOST_SERIALIZATION_NVP(lastGuardRule) &
        streams::field("lastGuardTime", lastGuardTime).unit(streams::Unit::seconds);
  }
};
} // namespace nao
