// FallProtectionProvider: passThrough → protecting (falling, then lying) → lyingPassive → handingBack → passThrough.
// Why each choice and number: README.md of this folder.
#include "Modules/MotionControl/FallProtectionProvider/FallProtectionProvider.h"
#include "Tools/Math/Smoothstep.h"
#include <algorithm>
#include <cmath>

namespace nao
{
void FallProtectionProvider::enter(FallProtectionPhase phase, double now)
{
  const JointSensorData& measured = get<JointSensorData>();
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    // With low stiffness the request says little about where a joint is: the hand-back starts from the measurement.
    from_[j] = std::isfinite(measured.angles[j]) ? measured.angles[j] : last_.angles[j];
    fromStiffness_[j] = last_.stiffnesses[j];
  }
  phase_ = phase;
  phaseStart_ = now;
}

void FallProtectionProvider::update(FallSafeJointRequest& request, FallProtection& protection)
{
  const double now = get<FrameInfo>().time;
  const JointRequest input = finiteRequest(get<SafeMotionJointRequest>(), last_);
  if (!hasOutput_) last_ = input;
  advancePhase(now);
  writeRequest(request, input, now);

  last_ = request;
  hasOutput_ = true;
  protection.phase = phase_;
  protection.direction = direction_;
  protection.timeInPhase = static_cast<float>(now - phaseStart_);
  protection.protectedFalls = protectedFalls_;
  protection.passiveFalls = passiveFalls_;
}

void FallProtectionProvider::advancePhase(double now)
{
  const FallProtectionParameters& p = params();
  const FallDownState& fall = get<FallDownState>();
  if (fall.state != FallState::fallen)
    fallenSince_ = -1;
  else if (fallenSince_ < 0)
    fallenSince_ = now;

  // The sit-down's own motions and its limp sitting are not taken over, as B-Human's fall engine takes over no
  // keyframe motion or get-up: the posture is deliberate, and a robot made limp by hand stays limp.
  const bool sitDownActive = get<SitDown>().phase != SitDownPhase::passThrough;
  // The motion source moves the fallen robot itself (a get-up): nothing is taken over, a passive robot is handed back.
  const bool getUp = get<MotionJointRequest>().getUp;
  const bool liesStill = fallenSince_ >= 0 && now - fallenSince_ >= p.lieStillTime - 1e-6;
  // Upright or staggering again (caught, stood up, or a detection that was wrong), or held in the air.
  const bool recovered = fall.state == FallState::upright || fall.state == FallState::staggering ||
                         fall.state == FallState::lifted;
  if (fall.state == FallState::falling && phase_ != FallProtectionPhase::protecting && !sitDownActive &&
      !getUp)
  {
    // The direction is kept for the whole fall: a posture that follows a flickering direction would swing the arms.
    direction_ = fall.direction;
    ++protectedFalls_;
    enter(FallProtectionPhase::protecting, now);
  }
  else if (phase_ == FallProtectionPhase::protecting)
  {
    if (recovered || getUp)
      enter(FallProtectionPhase::handingBack, now);
    else if (liesStill)
    {
      ++passiveFalls_;
      enter(FallProtectionPhase::lyingPassive, now);
    }
  }
  else if (phase_ == FallProtectionPhase::lyingPassive)
  {
    if (recovered || getUp) enter(FallProtectionPhase::handingBack, now);
  }
  else if (liesStill && !sitDownActive && !getUp &&
           (phase_ == FallProtectionPhase::passThrough || phase_ == FallProtectionPhase::handingBack))
  {
    // Lying without a fall seen (it started on the floor, or fell while the sit-down moved it): passive as well.
    ++passiveFalls_;
    enter(FallProtectionPhase::lyingPassive, now);
  }
  if (phase_ == FallProtectionPhase::handingBack && now - phaseStart_ >= p.handBackTime)
    enter(FallProtectionPhase::passThrough, now);
}

void FallProtectionProvider::writeRequest(JointRequest& request, const JointRequest& input, double now) const
{
  const FallProtectionParameters& p = params();
  switch (phase_)
  {
  case FallProtectionPhase::passThrough:
    request = input;
    break;
  case FallProtectionPhase::protecting:
  {
    const JointArray<float>& pose = direction_ == FallDirection::back ? p.backPose
                                    : direction_ == FallDirection::left || direction_ == FallDirection::right
                                        ? p.sidePose
                                        : p.frontPose;
    for (std::size_t j = 0; j < numOfJoints; ++j)
    {
      request.angles[j] = pose[j];
      request.stiffnesses[j] = p.stiffnesses[j];
    }
    if (&pose == &p.sidePose)
      for (const Joint joint : {Joint::HeadYaw, Joint::HeadPitch})
        request.stiffnesses[joint] = p.sideHeadStiffness;
    break;
  }
  case FallProtectionPhase::lyingPassive:
    // Limp where it lies: the request follows the measurement, so that the hand-back starts from there.
    for (std::size_t j = 0; j < numOfJoints; ++j)
    {
      const float measured = get<JointSensorData>().angles[j];
      request.angles[j] = std::isfinite(measured) ? measured : last_.angles[j];
      request.stiffnesses[j] = p.passiveStiffness;
    }
    break;
  case FallProtectionPhase::handingBack:
  {
    const float s = smoothstep(transitionProgress(now - phaseStart_, p.handBackTime));
    for (std::size_t j = 0; j < numOfJoints; ++j)
    {
      request.angles[j] = from_[j] + s * (input.angles[j] - from_[j]);
      request.stiffnesses[j] = fromStiffness_[j] + s * (input.stiffnesses[j] - fromStiffness_[j]);
    }
    break;
  }
  }
}

MAKE_MODULE(FallProtectionProvider);
} // namespace nao
