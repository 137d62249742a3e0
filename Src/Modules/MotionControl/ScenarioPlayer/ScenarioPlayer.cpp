#include "Modules/MotionControl/ScenarioPlayer/ScenarioPlayer.h"
#include "Tools/Math/Smoothstep.h"
#include <algorithm>
#include <cmath>
#include <numbers>

namespace nao
{
ScenarioPlayer::ScenarioPlayer(const ModuleContext& context)
    : Module(context), script_(loaded<ScenarioScript>())
{
  // Speeds are fractions of each joint's velocity limit in the robot description (ScenarioScript::transitionTimes).
  const RobotDescription& robot = loaded<RobotDescription>();
  JointArray<double> velocityLimits{};
  for (std::size_t j = 0; j < numOfJoints; ++j)
    velocityLimits[j] = robot.limits(j).velocity;
  transitionTimes_ = script_.transitionTimes(velocityLimits);
  for (const ScriptKeyframe& keyframe : script_.keyframes)
    targets_.push_back(&script_.pose(keyframe.pose));
  // Targets beyond a joint's range (the NAOqi arm example asks for -150° elbow roll) are clipped to it, as
  // ALMotion does; the durations above use the unclipped moves, as NAOqi's timing does.
  for (ScriptPose& pose : script_.poses)
    for (std::size_t j = 0; j < numOfJoints; ++j)
    {
      const auto& limits = robot.limits(j);
      if (limits.bounded)
        pose.angles[j] =
            std::clamp(pose.angles[j], static_cast<float>(limits.lower), static_cast<float>(limits.upper));
    }
}

void ScenarioPlayer::beginSegment(std::size_t keyframe, double now, const JointArray<float>& from)
{
  segment_ = keyframe;
  segmentStart_ = now;
  from_ = from;
}

void ScenarioPlayer::update(MotionJointRequest& request, EnergySavingRequest& energySaving)
{
  play(request);
  askForEnergySaving(energySaving);
}

void ScenarioPlayer::play(MotionJointRequest& request)
{
  const double now = get<FrameInfo>().time;
  if (!started_)
  {
    JointArray<float> measured = get<JointSensorData>().angles;
    for (std::size_t j = 0; j < numOfJoints; ++j)
      if (!std::isfinite(measured[j])) measured[j] = targets_.front()->angles[j];
    beginSegment(0, now, measured);
    started_ = true;
  }
  // Advance past finished segments (a long frame gap may finish several).
  while (!finished_ && now - segmentStart_ >= transitionTimes_[segment_] + script_.keyframes[segment_].hold)
  {
    const double end = segmentStart_ + transitionTimes_[segment_] + script_.keyframes[segment_].hold;
    if (segment_ + 1 < targets_.size())
      beginSegment(segment_ + 1, end, targets_[segment_]->angles);
    else if (script_.loopFrom >= 0)
      beginSegment(static_cast<std::size_t>(script_.loopFrom), end, targets_[segment_]->angles);
    else
      finished_ = true; // stay in the last posture
  }
  const double duration = transitionTimes_[segment_];
  const double t = transitionProgress(now - segmentStart_, duration);
  holding_ = t >= 1.0;
  const float blend = smoothstep(t);
  const ScriptPose& target = *targets_[segment_];
  const ScriptKeyframe& keyframe = script_.keyframes[segment_];
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    current_[j] = from_[j] + blend * (target.angles[j] - from_[j]);
    request.angles[j] =
        current_[j] + (holding_ ? wobble(j, now - segmentStart_ - duration, keyframe.jitter) : 0.f);
    request.stiffnesses[j] = keyframe.stiffness;
  }
}

float ScenarioPlayer::wobble(std::size_t joint, double heldFor, float amplitude)
{
  // A balancer's feedback stand-in: each leg joint its own slow sine (0.5 to 2.3 Hz, phases spread), starting
  // at 0 when the hold begins so that nothing jumps.
  if (amplitude <= 0.f || !isLegJoint(jointAt(joint))) return 0.f;
  const double frequency = 0.5 + 0.17 * static_cast<double>(joint % 11); // Hz
  return amplitude * static_cast<float>(std::sin(2.0 * std::numbers::pi * frequency * heldFor));
}

void ScenarioPlayer::askForEnergySaving(EnergySavingRequest& request)
{
  // After play(), so holding_ is this frame's.
  const KeyframeEnergySaving wanted =
      started_ ? script_.keyframes[segment_].energySaving : KeyframeEnergySaving::off;
  const bool adjust = holding_ && wanted != KeyframeEnergySaving::off;
  request.adjust = adjust;
  request.adjustLeftLeg = request.adjustRightLeg = request.adjustLeftArm = request.adjustRightArm = adjust;
  request.accuratePositions = wanted == KeyframeEnergySaving::accuratePositions;
  request.posture = wanted == KeyframeEnergySaving::stand || wanted == KeyframeEnergySaving::accuratePositions
                        ? EnergySavingPosture::stand
                    : wanted == KeyframeEnergySaving::highStand ? EnergySavingPosture::highStand
                                                                : EnergySavingPosture::none;
}

MAKE_MODULE(ScenarioPlayer);
} // namespace nao
