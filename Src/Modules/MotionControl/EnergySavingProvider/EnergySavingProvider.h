#pragma once
// B-Human's heat adjustment as a stage of the joint request: StiffnessJointRequest + small angle offsets =
// JointRequest. A motor whose position controller fights gear friction draws current without moving; moving its
// request a little lets the gears hold the load and the current falls. The motion source says what it wants in
// EnergySavingRequest; while a fall or a takeover holds the motion (FallDownState, SitDown, FallProtection) the
// offsets fade out and it stays off. EnergySaving shows the state for logs and plots. The cycle around the rounds is B-Human's
// (HeatAdjustmentCycle); the rounds are ours (LeastCurrentRounds: each joint searches the offset of least
// current). B-Human's released rounds: BHumanEnergySavingProvider. Every rule and why: README.md of this folder.
#include "Framework/Module.h"
#include "Modules/MotionControl/Common/HeatAdjustmentCycle.h"
#include "Modules/MotionControl/EnergySavingProvider/EnergySavingParameters.h"
#include "Modules/MotionControl/EnergySavingProvider/LeastCurrentRounds.h"

namespace nao
{
class EnergySavingProvider
    : public Module<EnergySavingProvider,
                    Requires<StiffnessJointRequest, JointSensorData, FilteredCurrent, RobotModel, JointLimits,
                             InertialSensorData, FsrSensorData, FrameInfo, EnergySavingRequest, JointTorques,
                             FallDownState, SitDown, FallProtection>,
                    Provides<JointRequest, EnergySaving>, Parameters<EnergySavingParameters>>
{
public:
  explicit EnergySavingProvider(const ModuleContext& context);
  void update(JointRequest& request, EnergySaving& energySaving);

private:
  void onParametersChanged() override { cycle_.parametersChanged(params()); }
  void runCycle();

  LeastCurrentRounds rounds_;
  HeatAdjustmentCycle cycle_;
};
} // namespace nao
