#pragma once
// The chest button's sit-down and the low-battery sit-down, as a stage of the joint request:
// MotionJointRequest in, SafeMotionJointRequest out. A debounced press of the chest button (or the battery's charge
// falling below a threshold while not charging, once per discharge) takes over from where the joints are, moves
// smoothly into the sitting posture, holds it and then lets the stiffness go to 0. The next press stands the robot
// up, smoothly from the measured posture to the motion source's request, and hands back. It names the sitting posture
// (limp) for the thermal forecast "if the robot sat down now" (ForecastPosture). README.md of this folder.
#include "Framework/Module.h"
#include "Modules/MotionControl/SitDownProvider/SitDownParameters.h"
#include "Representations/Infrastructure/BatteryData.h"
#include "Representations/Infrastructure/FrameInfo.h"
#include "Representations/MotionControl/ForecastPosture.h"
#include "Representations/MotionControl/JointRequest.h"
#include "Representations/MotionControl/SitDown.h"
#include "Representations/Sensing/JointSensorData.h"
#include "Representations/Sensing/TouchData.h"

namespace nao
{
class SitDownProvider
    : public Module<SitDownProvider,
                    Requires<FrameInfo, MotionJointRequest, JointSensorData, TouchData, BatteryData>,
                    Provides<SafeMotionJointRequest, SitDown, ForecastPosture>, Parameters<SitDownParameters>>
{
public:
  using Module::Module;
  void update(SafeMotionJointRequest& request, SitDown& sitDown, ForecastPosture& posture);

private:
  /// True once per debounced press of the chest button.
  bool pressed(double now);
  /// True once when the battery falls below the threshold (re-armed above threshold + hysteresis, or charging).
  bool batteryLow(SitDown& sitDown);
  void enter(SitDownPhase phase, double now);

  SitDownPhase phase_ = SitDownPhase::passThrough;
  SitDownReason reason_ = SitDownReason::none;
  double phaseStart_ = 0;    ///< s, FrameInfo time when `phase_` began
  JointArray<float> from_{}; ///< rad, the posture a transition starts from
  JointRequest last_;        ///< the previous output
  bool hasOutput_ = false;
  bool rawPressed_ = false;  ///< the chest button's last reading
  bool debounced_ = false;   ///< the debounced state
  double rawSince_ = 0;      ///< s, since when the reading has had its present value
  bool batteryArmed_ = true; ///< a low charge sits the robot down
  std::uint32_t presses_ = 0;
};
} // namespace nao
