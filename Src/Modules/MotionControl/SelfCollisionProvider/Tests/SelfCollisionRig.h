#pragma once
// Shared by the SelfCollisionProvider tests: postures from ../shared/data/nao-v6/geometry.md §5 and NAOqi's
// example, and a loop that sends requests through the module with a robot that follows its command exactly.
#include "Framework/Testing/ModuleHarness.h"
#include "Modules/MotionControl/SelfCollisionProvider/SelfCollisionProvider.h"

#include <initializer_list>
#include <numbers>
#include <utility>

namespace nao::selfcollisiontest
{
inline constexpr float degree = std::numbers::pi_v<float> / 180.f;

/// B-Human's stand (geometry.md §5), arms at the side.
inline JointArray<float> standPosture()
{
  JointArray<float> q{};
  const std::pair<Joint, float> angles[] = {
      {Joint::LShoulderPitch, 90.f}, {Joint::LShoulderRoll, 7.f},   {Joint::LElbowRoll, -2.5f},
      {Joint::LWristYaw, -90.f},     {Joint::RShoulderPitch, 90.f}, {Joint::RShoulderRoll, -7.f},
      {Joint::RElbowRoll, 2.5f},     {Joint::RWristYaw, 90.f},      {Joint::LHipPitch, -20.05f},
      {Joint::LKneePitch, 48.03f},   {Joint::LAnklePitch, -27.98f}, {Joint::RHipPitch, -20.05f},
      {Joint::RKneePitch, 48.03f},   {Joint::RAnklePitch, -27.98f}};
  for (const auto& [joint, angle] : angles)
    q[joint] = angle * degree;
  return q;
}

/// The stand with NAOqi's LArm "Init" or "Final" (almotion_reflexesCollisionAvoidance.py, seed 001), clipped
/// to the joint range as NAOqi does (ElbowRoll -150° -> -88.5°).
inline JointArray<float> naoqiArm(bool final)
{
  JointArray<float> q = standPosture();
  q[Joint::LShoulderPitch] = (final ? 50.f : 80.f) * degree;
  q[Joint::LShoulderRoll] = (final ? 6.f : 20.f) * degree;
  q[Joint::LElbowYaw] = (final ? 0.f : -80.f) * degree;
  q[Joint::LElbowRoll] = (final ? -88.5f : -60.f) * degree;
  q[Joint::LWristYaw] = 0.f;
  return q;
}

inline JointArray<float> blend(const JointArray<float>& a, const JointArray<float>& b, float t)
{
  JointArray<float> q{};
  for (std::size_t j = 0; j < numOfJoints; ++j)
    q[j] = a[j] + t * (b[j] - a[j]);
  return q;
}

using Harness = ModuleHarness<SelfCollisionProvider>;

/// One frame: the robot stands at `measured` and the motion source asks for `angles` at `stiffness`.
inline void step(Harness& h, const JointArray<float>& angles, const JointArray<float>& measured,
                 float stiffness = 1.f)
{
  h.input<FallSafeJointRequest>().angles = angles;
  h.input<FallSafeJointRequest>().stiffnesses.fill(stiffness);
  h.input<JointSensorData>().angles = measured;
  h.run();
}

/// Plays from `from` to `to` in `frames` frames and holds `to` for `hold` more; the robot follows its command
/// exactly. Returns the smallest distance the module reported (at the command it sent the frame before).
inline float play(Harness& h, const JointArray<float>& from, const JointArray<float>& to, int frames,
                  int hold = 30)
{
  JointArray<float> sent = from;
  float smallest = 1.f;
  for (int f = 0; f <= frames + hold; ++f)
  {
    step(h, blend(from, to, std::min(1.f, static_cast<float>(f) / static_cast<float>(frames))), sent);
    sent = h.output<CollisionFreeJointRequest>().angles;
    smallest = std::min(smallest, h.output<SelfCollision>().minDistance);
  }
  step(h, to, sent); // reports the distance of the last command
  return std::min(smallest, h.output<SelfCollision>().minDistance);
}

inline SelfCollisionParameters protecting(std::initializer_list<bool SelfCollisionProtection::*> groups)
{
  SelfCollisionParameters p;
  p.protection = {false, false, false, false, false, false};
  for (bool SelfCollisionProtection::*group : groups)
    p.protection.*group = true;
  return p;
}
} // namespace nao::selfcollisiontest
