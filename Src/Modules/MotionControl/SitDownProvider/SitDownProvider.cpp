// SitDownProvider: the phases passThrough → sittingDown → sitting → standingUp → passThrough, and why each
// choice: README.md of this folder.
#include "Modules/MotionControl/SitDownProvider/SitDownProvider.h"
#include "Tools/Math/Smoothstep.h"
#include <algorithm>
#include <cmath>

namespace nao
{
namespace
{
/// Below this requested stiffness a joint is limp: its request says nothing about where it is.
constexpr float limpStiffness = 0.05f;

} // namespace

bool SitDownProvider::pressed(double now)
{
  const bool reading = get<TouchData>().pressed(TouchData::chestButton);
  if (reading != rawPressed_)
  {
    rawPressed_ = reading;
    rawSince_ = now;
  }
  // A button SensorHealth distrusts (held too long, bouncing) and a robot that falls or lies (the ground presses
  // the button: Nao Devils' base ignores it lying on the front) make no press.
  const FallState fall = get<FallDownState>().state;
  const bool believable = get<SensorHealth>()[Sensor::chestButton].trusted() && fall != FallState::falling &&
                          fall != FallState::fallen;
  if (debounced_ && !believable) pressValid_ = false;
  if (rawPressed_ == debounced_ || now - rawSince_ < params().debounceTime - 1e-6) return false;
  debounced_ = rawPressed_;
  if (debounced_)
  {
    pressedSince_ = rawSince_;
    pressValid_ = believable;
    return false;
  }
  // Released: a press as the teams count it (HULKs' tap detector, Nao Devils' base: at the release), if it lasted
  // long enough to be a finger's.
  return pressValid_ && believable && rawSince_ - pressedSince_ >= params().minPressTime - 1e-6;
}

bool SitDownProvider::batteryLow(SitDown& sitDown, double now)
{
  const SitDownParameters& p = params();
  const BatteryData& battery = get<BatteryData>();
  // The charge SensorHealth believes: the reading while it agrees with the battery's current, else counted from it.
  // A glitch of the gauge never gets here; a real discharge does, and must last lowBatteryTime.
  const float charge = get<SensorHealth>().batteryCharge;
  if (battery.charging || charge > p.lowBatteryCharge + p.batteryHysteresis)
  {
    batteryArmed_ = true;
    sitDown.lowBattery = false;
    lowSince_ = -1;
  }
  else if (charge < p.lowBatteryCharge)
  {
    if (lowSince_ < 0) lowSince_ = now;
    sitDown.lowBattery = now - lowSince_ >= p.lowBatteryTime - 1e-6;
  }
  else
    lowSince_ = -1; // between the threshold and the re-arm level: the time below starts again
  if (!batteryArmed_ || !sitDown.lowBattery) return false;
  batteryArmed_ = false;
  return true;
}

void SitDownProvider::enter(SitDownPhase phase, double now)
{
  // Where the transition starts: the last request, except for limp joints, whose request says nothing about where
  // they are (their measurement instead).
  const JointSensorData& measured = get<JointSensorData>();
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const bool limp = last_.stiffnesses[j] < limpStiffness;
    from_[j] = limp && std::isfinite(measured.angles[j]) ? measured.angles[j] : last_.angles[j];
  }
  phase_ = phase;
  phaseStart_ = now;
}

void SitDownProvider::update(SafeMotionJointRequest& request, SitDown& sitDown, ForecastPosture& posture)
{
  // Sitting ends limp: every motor draws nothing there.
  posture.name = PostureName::sit;
  posture.stiffnesses.fill(0.f);
  const double now = get<FrameInfo>().time;
  const SitDownParameters& p = params();
  const JointRequest input = finiteRequest(get<MotionJointRequest>(), last_);
  if (!hasOutput_) last_ = input;

  const bool press = pressed(now);
  presses_ += press;
  advancePhase(press, batteryLow(sitDown, now), now);
  writeRequest(request, input, now);

  last_ = request;
  hasOutput_ = true;
  sitDown.phase = phase_;
  sitDown.reason = reason_;
  sitDown.timeInPhase = static_cast<float>(now - phaseStart_);
  sitDown.presses = presses_;
  // Sat down for a low battery that now reads well above the threshold (charging, or a gauge that was wrong): said,
  // not acted on (a press stands the robot up).
  sitDown.lowBatteryReadsFull = reason_ == SitDownReason::lowBattery && !sitDown.lowBattery &&
                                get<SensorHealth>().batteryCharge > p.lowBatteryCharge + p.batteryHysteresis;
}

void SitDownProvider::advancePhase(bool press, bool lowBattery, double now)
{
  const SitDownParameters& p = params();
  const bool up = phase_ == SitDownPhase::passThrough || phase_ == SitDownPhase::standingUp;
  if (press && up)
  {
    reason_ = SitDownReason::chestButton;
    enter(SitDownPhase::sittingDown, now);
  }
  else if (press)
    enter(SitDownPhase::standingUp, now);
  else if (lowBattery && up)
  {
    reason_ = SitDownReason::lowBattery;
    enter(SitDownPhase::sittingDown, now);
  }

  const double t = now - phaseStart_;
  if (phase_ == SitDownPhase::sittingDown && t >= p.sitDownTime + p.settleTime + p.limpTime)
    enter(SitDownPhase::sitting, now);
  if (phase_ == SitDownPhase::standingUp && t >= p.standUpTime)
  {
    phase_ = SitDownPhase::passThrough;
    phaseStart_ = now;
    reason_ = SitDownReason::none;
  }
}

void SitDownProvider::writeRequest(JointRequest& request, const JointRequest& input, double now) const
{
  const SitDownParameters& p = params();
  const double t = now - phaseStart_;
  switch (phase_)
  {
  case SitDownPhase::passThrough:
    request = input;
    break;
  case SitDownPhase::sittingDown:
  {
    const float s = smoothstep(transitionProgress(t, p.sitDownTime));
    const double limping = t - p.sitDownTime - p.settleTime;
    const float k = limping <= 0     ? 1.f
                    : p.limpTime > 0 ? static_cast<float>(std::clamp(1.0 - limping / p.limpTime, 0.0, 1.0))
                                     : 0.f;
    for (std::size_t j = 0; j < numOfJoints; ++j)
    {
      request.angles[j] = from_[j] + s * (p.sitAngles[j] - from_[j]);
      request.stiffnesses[j] = k * p.sitStiffness;
    }
    break;
  }
  case SitDownPhase::sitting:
  {
    // Limp: the request follows the measurement, so that the stand-up and the stages after this one start from
    // where the joints are.
    const JointSensorData& measured = get<JointSensorData>();
    for (std::size_t j = 0; j < numOfJoints; ++j)
    {
      request.angles[j] = std::isfinite(measured.angles[j]) ? measured.angles[j] : last_.angles[j];
      request.stiffnesses[j] = 0.f;
    }
    break;
  }
  case SitDownPhase::standingUp:
  {
    const float s = smoothstep(transitionProgress(t, p.standUpTime));
    for (std::size_t j = 0; j < numOfJoints; ++j)
    {
      request.angles[j] = from_[j] + s * (input.angles[j] - from_[j]);
      request.stiffnesses[j] = input.stiffnesses[j];
    }
    break;
  }
  }
}

MAKE_MODULE(SitDownProvider);
} // namespace nao
