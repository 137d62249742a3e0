#pragma once
// Whether the joint request is still the motion source's own posture: not while a fall is under way or the robot
// lies, nor while a stage that takes the motion over (the sit-down, the protective fall) sends its own. The stages
// behind them that tune a held posture (the heat adjustment, smart stiffness) pass the request through then: what
// they learned belongs to the source's posture, and their models (the robot on its feet) do not hold.
#include "Representations/Modeling/FallDownState.h"
#include "Representations/MotionControl/FallProtection.h"
#include "Representations/MotionControl/SitDown.h"

namespace nao
{
inline bool motionSourceHolds(const FallDownState& fall, const SitDown& sitDown,
                              const FallProtection& protection)
{
  return fall.state != FallState::falling && fall.state != FallState::fallen &&
         sitDown.phase == SitDownPhase::passThrough && protection.phase == FallProtectionPhase::passThrough;
}
} // namespace nao
