#pragma once
// B-Human's released heat adjustment rounds (bhuman/BHumanCodeRelease, Src/Modules/MotionControl/EnergySaving/) on
// the cycle EnergySavingProvider shares (HeatAdjustmentCycle): the reference the comparisons measure ours against,
// selected like any provider (`--provider JointRequest=BHumanEnergySavingProvider --provider
// EnergySaving=BHumanEnergySavingProvider`). Its numbers are B-Human's (Config/Modules/
// BHumanEnergySavingProvider.toml). Rules: README.md of this folder.
#include "Framework/Module.h"
#include "Modules/MotionControl/Common/HeatAdjustmentCycle.h"

namespace nao
{
struct BHumanEnergySavingParameters : HeatAdjustmentParameters
{
  /// B-Human's rounds as released: a round every 500 ms, without our guard (a team that wants it switches it on
  /// in the file).
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
class BHumanRounds : public HeatAdjustmentRounds
{
public:
  explicit BHumanRounds(const HeatAdjustmentParameters& parameters) : p_(&parameters) {}
  void use(const HeatAdjustmentParameters& parameters) { p_ = &parameters; } ///< before every frame

  void clear() override {}
  void enterState(EnergySavingState) override {}
  void restartJoint(std::size_t) override {}
  void round(RoundContext& context) override;
  void accuratePositionsRound(RoundContext& context) override;
  /// B-Human's rounds compare no currents: a stage before may change the stiffness at any time.
  bool searching(std::size_t) const override { return false; }

private:
  const HeatAdjustmentParameters* p_;
};

class BHumanEnergySavingProvider
    : public Module<BHumanEnergySavingProvider,
                    Requires<StiffnessJointRequest, JointSensorData, FilteredCurrent, RobotModel, JointLimits,
                             InertialSensorData, FsrSensorData, FrameInfo, EnergySavingRequest, JointTorques,
                             FallDownState, SitDown, FallProtection>,
                    Provides<JointRequest, EnergySaving>, Parameters<BHumanEnergySavingParameters>>
{
public:
  explicit BHumanEnergySavingProvider(const ModuleContext& context);
  void update(JointRequest& request, EnergySaving& energySaving);

private:
  void onParametersChanged() override { cycle_.parametersChanged(params()); }
  void runCycle();

  BHumanRounds rounds_;
  HeatAdjustmentCycle cycle_;
};
} // namespace nao
