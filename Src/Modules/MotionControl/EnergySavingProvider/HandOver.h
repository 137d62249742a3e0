#pragma once
// The hand-over of LeastCurrentRounds: a hip, knee or ankle pitch whose search stalls above its threshold holds a
// load its gears cannot, and the same joint of the other leg pushes a little more each round to take a share. A
// plain value over per-joint arrays; the rules and why: README.md of this folder, "The rules", its hand-over.
#include "Modules/MotionControl/EnergySavingProvider/OffsetSearch.h"
#include "Representations/Infrastructure/Joints.h"
#include "Representations/Modeling/JointTorques.h"
#include "Representations/MotionControl/EnergySaving.h"

namespace nao
{
struct EnergySavingParameters;

/// What one round of the hand-over reads and changes.
struct HandOverRound
{
  const JointArray<float>& requested;     ///< rad, this round's incoming request
  const JointArray<float>& currents;      ///< A, filtered
  const JointArray<bool>& enabled;        ///< the request lets the stage adjust the joint
  const JointArray<bool>& blocked;        ///< the joint's offset fades to 0 or the guard holds it
  const JointArray<bool>& aboveThreshold; ///< the joint's current was above its threshold this round
  const JointTorques& torques;            ///< the robot model's static torques
  bool groundContact = false;             ///< both feet share the load only on the ground
  JointArray<OffsetSearch>& searches; ///< a hand-over that took a share starts the helped joint's search anew
  JointArray<float>& adjustments;     ///< rad, the pushing joint's adjustment changes
  const JointArray<float>& lowest;    ///< rad, the adjustments the guard's step bound leaves open ...
  const JointArray<float>& highest;   ///< ... (a push beyond counts that way as tried)
};

class HandOver
{
public:
  HandOver();

  /// One round: hand-overs under way go on or end, new ones begin.
  void round(HandOverRound& in, const EnergySavingParameters& p);
  /// Every hand-over ends and the tries are forgotten (a state change): the pushing joints keep their
  /// adjustments.
  void reset();
  /// A new posture for the joint: the hand-overs it has tried count from 0 again.
  void forgetTries(std::size_t joint) { tries_[joint] = 0; }
  /// The guard's step bound undid a change of the joint: a hand-over it is part of ends, that way tried.
  void stepUndone(std::size_t joint);

  /// A push the hand-over's guard undid (HeatGuardRule handOverWithoutEffect or pusherAboveHelped).
  struct Event
  {
    std::size_t joint = 0; ///< the pushing joint
    HeatGuardRule rule = HeatGuardRule::none;
    float current = 0.f; ///< A, its current when the push was undone
  };
  unsigned events() const { return events_; } ///< counts every Event since construction
  const Event& lastEvent() const { return lastEvent_; }

  /// The joint pushes for its mirror joint or is helped by it: it holds its offset meanwhile.
  bool involves(std::size_t joint) const;
  /// The joint pushing for `joint` (-1: none).
  int pusherOf(std::size_t joint) const;

  /// The same pitch joint of the other leg (-1: not a hip, knee or ankle pitch).
  static int mirrorOf(std::size_t joint);

private:
  /// Each push under way goes one step further, ends (it took a share, or is no longer possible) or is undone.
  void continuePushes(HandOverRound& in, const JointArray<bool>& still, const EnergySavingParameters& p);
  /// A stuck joint whose free mirror draws less gets its mirror pushing (with ground contact).
  void startPushes(HandOverRound& in, const JointArray<bool>& still, const EnergySavingParameters& p);
  void stop(std::size_t pusher);
  /// The push of `pusher` goes back to where it began; the way counts as tried (both: no more in this posture); an
  /// Event unless `rule` is none.
  void undo(std::size_t pusher, HandOverRound& in, HeatGuardRule rule);

  JointArray<int> helping_;     ///< per pushing joint: the joint whose load it takes (-1: none)
  JointArray<float> direction_; ///< per pushing joint: ±1 the way it pushes
  JointArray<int> round_{};     ///< per pushing joint: rounds pushed this way
  JointArray<int>
      pusherAbove_{};       ///< per pushing joint: rounds in a row above the helped joint's start current
  JointArray<float> start_; ///< rad per pushing joint: its adjustment when it began
  JointArray<float> stuckCurrent_; ///< A per pushing joint: the helped joint's current when it began
  JointArray<int> tries_{};        ///< per helped joint: the ways tried (2: both)
  JointArray<float> lastRequest_;  ///< rad, the request at the last round (NaN: none yet)
  unsigned events_ = 0;
  Event lastEvent_;
};
} // namespace nao
