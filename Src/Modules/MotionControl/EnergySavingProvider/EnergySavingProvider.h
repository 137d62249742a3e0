#pragma once
// B-Human's heat adjustment as a stage of the joint request: StiffnessJointRequest + small angle offsets =
// JointRequest. A motor whose position controller fights gear friction draws current without moving; moving its
// request a little lets the gears hold the load and the current falls. The motion source says what it wants in
// EnergySavingRequest; while a fall or a takeover holds the motion (FallDownState, SitDown, FallProtection) the
// offsets fade out and it stays off. EnergySaving shows the state for logs and plots. The cycle around the rounds is B-Human's
// (HeatAdjustmentCycle); the rounds are ours (LeastCurrentRounds: each joint searches the offset of least
// current). B-Human's released rounds: BHumanEnergySavingProvider. Every rule and why: README.md of this folder.
#include "Modules/MotionControl/Common/HeatAdjustmentModule.h"
#include "Modules/MotionControl/EnergySavingProvider/EnergySavingParameters.h"
#include "Modules/MotionControl/EnergySavingProvider/LeastCurrentRounds.h"

namespace nao
{
/// Reads HeatAdjustmentRequires (Common/HeatAdjustmentCycle.h), writes JointRequest and EnergySaving, tuned by
/// EnergySavingParameters; its rounds: LeastCurrentRounds. Everything else is HeatAdjustmentModule's.
class EnergySavingProvider
    : public HeatAdjustmentModule<EnergySavingProvider, LeastCurrentRounds, EnergySavingParameters>
{
public:
  using HeatAdjustmentModule::HeatAdjustmentModule;
};
} // namespace nao
