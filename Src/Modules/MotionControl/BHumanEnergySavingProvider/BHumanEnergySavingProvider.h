#pragma once
// B-Human's released heat adjustment rounds (bhuman/BHumanCodeRelease, Src/Modules/MotionControl/EnergySaving/) on
// the cycle EnergySavingProvider shares (HeatAdjustmentCycle): the reference the comparisons measure ours against,
// selected like any provider (`--provider JointRequest=BHumanEnergySavingProvider --provider
// EnergySaving=BHumanEnergySavingProvider`). Its numbers are B-Human's where B-Human has them
// (HeatAdjustmentParameters' defaults, with adjustWaitTime and the guard set by BHumanEnergySavingParameters).
// Rules: README.md of this folder.
#include "Modules/MotionControl/Common/HeatAdjustmentModule.h"

namespace nao
{
struct BHumanEnergySavingParameters : HeatAdjustmentParameters
{
  /// B-Human's rounds as released: a round every 500 ms (B-Human's adjustWaitTime), without our guard. A team that
  /// runs these rounds on a robot should switch the guard on (guard.enabled = true in
  /// Config/Modules/BHumanEnergySavingProvider.toml).
  BHumanEnergySavingParameters()
  {
    adjustWaitTime = 0.5f;
    guard.enabled = false;
  }
};

/// B-Human's rounds: each joint above its threshold steps towards the reading from the request plus base offset
/// (maxGearStep when farther than that, else minGearStep; a difference of exactly 0 steps down), every
/// stepsBeforeEmergencyStep-th round an emergency step along the posture's sign table instead; in the normal
/// stand only the leg joint of highest current per round. accuratePositions: the emergency step always positive.
/// It keeps no state: the parameters come with each round (RoundsWithParameters).
class BHumanRounds
{
public:
  explicit BHumanRounds(const HeatAdjustmentParameters&) {}

  // As HeatAdjustmentRounds.
  void clear(const HeatAdjustmentParameters&) {}
  void enterState(EnergySavingState, const HeatAdjustmentParameters&) {}
  void restartJoint(std::size_t, const HeatAdjustmentParameters&) {}
  void round(RoundContext& context, const HeatAdjustmentParameters& p);
  void accuratePositionsRound(RoundContext& context, const HeatAdjustmentParameters& p);
  /// B-Human's rounds compare no currents: a stage before may change the stiffness at any time.
  bool searching(std::size_t) const { return false; }
};

/// Reads HeatAdjustmentRequires (Common/HeatAdjustmentCycle.h), writes JointRequest and EnergySaving, tuned by
/// BHumanEnergySavingParameters; its rounds: BHumanRounds. Everything else is HeatAdjustmentModule's.
class BHumanEnergySavingProvider
    : public HeatAdjustmentModule<BHumanEnergySavingProvider, BHumanRounds, BHumanEnergySavingParameters>
{
public:
  using HeatAdjustmentModule::HeatAdjustmentModule;
};
} // namespace nao
