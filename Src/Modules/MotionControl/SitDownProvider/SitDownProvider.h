#pragma once
// The chest button's sit-down and the low-battery sit-down, as a stage of the joint request:
// MotionJointRequest in, SafeMotionJointRequest out. A press of the chest button (debounced, at least minPressTime
// long, counted at its release; not while SensorHealth distrusts the button, nor while the robot falls or lies), or
// the battery's charge as SensorHealth believes it staying below a threshold for lowBatteryTime while not charging
// (once per discharge), takes over from where the joints are, moves smoothly into the sitting posture, holds it and
// then lets the stiffness go to 0. The next press stands the robot up, smoothly from the measured posture to the
// motion source's request, and hands back. It names the sitting posture
// (limp) for the thermal forecast "if the robot sat down now" (ForecastPosture). README.md of this folder.
#include "Framework/Module.h"
#include "Modules/MotionControl/SitDownProvider/SitDownParameters.h"
#include "Representations/Infrastructure/BatteryData.h"
#include "Representations/Infrastructure/FrameInfo.h"
#include "Representations/Modeling/FallDownState.h"
#include "Representations/MotionControl/ForecastPosture.h"
#include "Representations/MotionControl/JointRequest.h"
#include "Representations/MotionControl/SitDown.h"
#include "Representations/Sensing/JointSensorData.h"
#include "Representations/Sensing/SensorHealth.h"
#include "Representations/Sensing/TouchData.h"

namespace nao
{
class SitDownProvider
    : public Module<SitDownProvider,
                    Requires<FrameInfo, MotionJointRequest, JointSensorData, TouchData, BatteryData,
                             SensorHealth, FallDownState>,
                    Provides<SafeMotionJointRequest, SitDown, ForecastPosture>, Parameters<SitDownParameters>>
{
public:
  using Module::Module;
  void update(SafeMotionJointRequest& request, SitDown& sitDown, ForecastPosture& posture);

private:
  /// True once per press of the chest button, at its release.
  bool pressed(double now);
  /// True once when the believed charge has stayed below the threshold for lowBatteryTime (re-armed above
  /// threshold + hysteresis, or charging).
  bool batteryLow(SitDown& sitDown, double now);
  void enter(SitDownPhase phase, double now);
  /// A press or a low battery starts a sit-down or a stand-up; a finished one moves on.
  void advancePhase(bool press, bool lowBattery, double now);
  /// The request of the present phase: the motion source's, the move into or out of the sitting posture, or limp.
  void writeRequest(JointRequest& request, const JointRequest& input, double now) const;

  SitDownPhase phase_ = SitDownPhase::passThrough;
  SitDownReason reason_ = SitDownReason::none;
  double phaseStart_ = 0;    ///< s, FrameInfo time when `phase_` began
  JointArray<float> from_{}; ///< rad, the posture a transition starts from
  JointRequest last_;        ///< the previous output
  bool hasOutput_ = false;
  bool rawPressed_ = false; ///< the chest button's last reading
  bool debounced_ = false;  ///< the debounced state
  double rawSince_ = 0;     ///< s, since when the reading has had its present value
  double pressedSince_ = 0; ///< s, when the debounced press began
  bool pressValid_ = false; ///< the debounced press began while the button was trusted and the robot not down
  double lowSince_ = -1;    ///< s, since when the believed charge has been below the threshold; < 0: not
  bool batteryArmed_ = true; ///< a low charge sits the robot down
  std::uint32_t presses_ = 0;
};
} // namespace nao
