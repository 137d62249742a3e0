#pragma once
// What the heat adjustment (EnergySavingProvider) is doing, for logs and plots. The offsets are what it adds
// to the joint request it receives (StiffnessJointRequest) to give the final JointRequest.
#include "Representations/Infrastructure/Joints.h"
#include "Tools/Streams/Enum.h"
#include "Tools/Streams/Field.h"
#include <cstdint>

namespace nao
{
NAO_ENUM(EnergySavingState, std::uint8_t,
         off,       ///< not requested, or no ground contact: offsets are 0
         waiting,   ///< the request or the contact just changed: wait for the motion to settle
         working,   ///< one adjustment round every adjustWaitTime
         resetState ///< offsets fade linearly to 0, then the adjustment restarts
);

/// Why the last reset began.
NAO_ENUM(
    EnergySavingResetReason, std::uint8_t,
    none,            ///< no reset yet
    offsetsTooLarge, ///< offsets large while the centre of mass left its window or the feet lost contact
    contactChanged,  ///< picked up or put down
    notRequested,    ///< the motion source stopped asking
    modeChanged,     ///< posture or accuratePositions changed: the offsets belong to the old one
    takenOver ///< a fall, or the sit-down or the protective fall took the motion over (MotionSourceHolds.h)
);

/// Where a joint stands with the stage's guard ("do no harm", README of EnergySavingProvider).
NAO_ENUM(
    HeatGuardState, std::uint8_t,
    off,       ///< the guard is switched off, or the joint is not adjusted
    measuring, ///< no reference yet: held at zero offset until its current at zero offset is known
    watching,  ///< adjusted; its current is compared with the reference every round
    heldAtBest, ///< it drew more than without the stage: held at the best offset it saw until the posture changes
    heldAtZero, ///< the same, at zero offset: as without the stage
    restless ///< its reading swings: it does not rest on its gears; at zero offset until the posture changes
);

/// Which rule of the guard acted.
NAO_ENUM(
    HeatGuardRule, std::uint8_t, none,
    currentAboveReference, ///< the filtered current stayed above the reference plus margin for rounds
    heatingAboveReference, ///< the mean square current (the winding's heating) rose above the margin's square
    handOverWithoutEffect, ///< a hand-over push did not lower the helped joint's current: undone, not tried again
    pusherAboveHelped,     ///< a hand-over push took the pushing joint above the helped one's current: undone
    notItsOwnOffset,       ///< at zero offset, or moved since its reference, still above: it searches again
    jointRestless,         ///< the reading went back and forth within rounds: held at zero offset
    stepAboveBound ///< a change of the offset took the current far above the reference: undone, that way barred
);

struct EnergySaving
{
  EnergySavingState state = EnergySavingState::off;
  JointArray<float> offsets;     ///< rad, total added to the incoming request (base offsets included)
  JointArray<float> baseOffsets; ///< rad, the part of offsets taken from measured - requested at the start
  JointArray<std::int32_t>
      counters;                     ///< rounds over the threshold left before the joint's next emergency step
  float timeInState = 0.f;          ///< s since the state began
  std::uint32_t rounds = 0;         ///< adjustment rounds since the last (re)start
  std::uint32_t emergencySteps = 0; ///< emergency steps since the last (re)start
  bool groundContact = false;       ///< debounced: both feet together carry more than the threshold
  EnergySavingResetReason lastResetReason = EnergySavingResetReason::none;
  /// The joint's offset search is under way (waiting or working, adjusted, above its threshold, not settled; or
  /// in a hand-over, pushing for the same joint of the other leg or helped by it):
  /// its rounds compare currents drawn at the stiffness it has now, so a stage before this one (smart
  /// stiffness) leaves its stiffness as it is. false: the offset is held (settled, at or below the threshold,
  /// or not adjusted), and a lower stiffness changes no comparison.
  JointArray<bool> searching{};
  JointArray<HeatGuardState> guard{};    ///< each joint's guard
  JointArray<float> references;          ///< A, what each joint drew without the stage (NaN: not measured)
  std::uint32_t guardEvents = 0;         ///< how often a guard rule acted since the start
  Joint lastGuardJoint = Joint::HeadYaw; ///< the joint of the last event ...
  HeatGuardRule lastGuardRule = HeatGuardRule::none; ///< ... the rule that acted ...
  float lastGuardTime = 0.f;                         ///< s, FrameInfo time ...
  float lastGuardCurrent = 0.f;                      ///< A, ... and the current that made it act

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& BOOST_SERIALIZATION_NVP(state) & streams::field("offsets", offsets).unit(streams::Unit::radians) &
        streams::field("baseOffsets", baseOffsets).unit(streams::Unit::radians) &
        BOOST_SERIALIZATION_NVP(counters) &
        streams::field("timeInState", timeInState).unit(streams::Unit::seconds) &
        BOOST_SERIALIZATION_NVP(rounds) & BOOST_SERIALIZATION_NVP(emergencySteps) &
        BOOST_SERIALIZATION_NVP(groundContact) & BOOST_SERIALIZATION_NVP(lastResetReason) &
        BOOST_SERIALIZATION_NVP(searching) & BOOST_SERIALIZATION_NVP(guard) &
        streams::field("references", references).unit(streams::Unit::amperes) &
        BOOST_SERIALIZATION_NVP(guardEvents) & BOOST_SERIALIZATION_NVP(lastGuardJoint) &
        BOOST_SERIALIZATION_NVP(lastGuardRule) &
        streams::field("lastGuardTime", lastGuardTime).unit(streams::Unit::seconds) &
        streams::field("lastGuardCurrent", lastGuardCurrent).unit(streams::Unit::amperes);
  }
};
} // namespace nao
