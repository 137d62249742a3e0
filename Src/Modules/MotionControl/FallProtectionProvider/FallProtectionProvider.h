#pragma once
// A protective fall as a stage of the joint request: SafeMotionJointRequest in, FallSafeJointRequest out. While
// FallDownState says falling it takes over: head pitched against the fall, arms in front (forward and sideways
// falls) or behind (backward falls), legs crouched, low stiffness on the joints that hit first. Once the robot has
// lain still (fallen) for a while it goes passive: every joint at passiveStiffness, so that no motor pushes into the
// floor and heats, until it stands again (it hands back smoothly) or the motion source asks for the joints
// (MotionJointRequest::getUp). While the sit-down stage sits the robot down, keeps it sitting limp or stands it up,
// nothing is taken over. The self-collision stage after it keeps the arms out of the body. README.md of this folder.
#include "Framework/Module.h"
#include "Modules/MotionControl/FallProtectionProvider/FallProtectionParameters.h"
#include "Representations/Infrastructure/FrameInfo.h"
#include "Representations/Modeling/FallDownState.h"
#include "Representations/MotionControl/FallProtection.h"
#include "Representations/MotionControl/JointRequest.h"
#include "Representations/MotionControl/SitDown.h"
#include "Representations/Sensing/JointSensorData.h"

namespace nao
{
class FallProtectionProvider
    : public Module<FallProtectionProvider,
                    Requires<FrameInfo, SafeMotionJointRequest, MotionJointRequest, JointSensorData,
                             FallDownState, SitDown>,
                    Provides<FallSafeJointRequest, FallProtection>, Parameters<FallProtectionParameters>>
{
public:
  using Module::Module;
  void update(FallSafeJointRequest& request, FallProtection& protection);

private:
  void enter(FallProtectionPhase phase, double now);
  /// A fall starts the protection, lying still makes it passive, a recovery or a get-up hands back.
  void advancePhase(double now);
  /// The request of the present phase: the motion source's, the fall's pose, limp where it lies, or the hand-back.
  void writeRequest(JointRequest& request, const JointRequest& input, double now) const;

  FallProtectionPhase phase_ = FallProtectionPhase::passThrough;
  FallDirection direction_ = FallDirection::none;
  double phaseStart_ = 0;             ///< s, FrameInfo time when `phase_` began
  double fallenSince_ = -1;           ///< s, when FallDownState last became fallen; < 0: not fallen
  JointArray<float> from_{};          ///< rad, the posture the hand-back starts from
  JointArray<float> fromStiffness_{}; ///< the stiffness the hand-back starts from
  JointRequest last_;                 ///< the previous output
  bool hasOutput_ = false;
  std::uint32_t protectedFalls_ = 0;
  std::uint32_t passiveFalls_ = 0;
};
} // namespace nao
