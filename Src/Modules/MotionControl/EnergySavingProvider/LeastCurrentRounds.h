#pragma once
// The rounds of EnergySavingProvider: every adjusted joint above its current threshold searches the offset of
// least current (OffsetSearch), a stuck hip, knee or ankle pitch gets its mirror joint's help (HandOver), and a
// joint whose stiffness changed starts afresh. accuratePositions: B-Human's, with the emergency step towards the
// request. Rules and why: README.md of this folder.
#include "Modules/MotionControl/Common/HeatAdjustmentCycle.h"
#include "Modules/MotionControl/EnergySavingProvider/EnergySavingParameters.h"
#include "Modules/MotionControl/EnergySavingProvider/HandOver.h"
#include "Modules/MotionControl/EnergySavingProvider/OffsetSearch.h"

namespace nao
{
/// The module's parameters come with every call that reads them (RoundsWithParameters): the rounds keep none.
class LeastCurrentRounds
{
public:
  /// Every joint starts afresh.
  explicit LeastCurrentRounds(const EnergySavingParameters& p);

  // As HeatAdjustmentRounds.
  void clear(const EnergySavingParameters& p);
  void enterState(EnergySavingState state, const EnergySavingParameters& p);
  void restartJoint(std::size_t joint, const EnergySavingParameters& p);
  void stepUndone(std::size_t joint, const EnergySavingParameters& p);
  void everyFrame(const HeatAdjustmentInputs& in);
  void round(RoundContext& context, const EnergySavingParameters& p);
  void accuratePositionsRound(RoundContext& context, const EnergySavingParameters& p);
  bool searching(std::size_t joint) const;
  int pushedBy(std::size_t joint) const { return handOver_.pusherOf(joint); }

private:
  void adjustJoint(std::size_t joint, RoundContext& context, const EnergySavingParameters& p);
  /// ±1: the way the posture's load pulls the joint (the robot model's static torque, else the sign table)
  float loadDirection(std::size_t joint, const RoundContext& context, const EnergySavingParameters& p) const;
  void restartSearch(std::size_t joint, const EnergySavingParameters& p);
  /// The hand-over's guard events into the status.
  void reportHandOverEvents(RoundContext& context);

  JointArray<OffsetSearch> searches_;
  HandOver handOver_;
  unsigned handOverEvents_ = 0;       ///< HandOver::events() reported so far
  JointArray<bool> aboveThreshold_{}; ///< the joint's current was above its threshold at the last round
  JointArray<float> lastStiffness_;   ///< 0..1, last frame's incoming stiffness
  /// The incoming stiffness changed since the last round: the round's current window mixes two stiffnesses.
  JointArray<bool> stiffnessChanged_{};
};
} // namespace nao
