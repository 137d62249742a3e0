#pragma once
// A motion source that holds one posture from its parameters, reached smoothly from wherever the joints are
// (at start and after every live edit of the pose), so that a new pose never makes the robot jump.
#include "Framework/Module.h"
#include "Representations/Infrastructure/FrameInfo.h"
#include "Representations/MotionControl/JointRequest.h"
#include "Representations/Sensing/JointSensorData.h"
#include <numbers>

namespace nao
{
// The pose held, with its defaults; Config/Modules/StandPoseProvider.toml holds only values that differ.
struct StandPoseParameters
{
  // One limb per line, in Joint order: head; left arm; left leg; right leg (no RHipYawPitch); right arm; hands.
  // clang-format off
  // B-Human's keyframe "stand" (NaoFacts.md §13).
  JointArray<float> angles = jointAnglesFromDegrees({0, 0,
                                                     90, 7, 0, -2.5, -90,
                                                     0, 0, -20.0484, 48.0313, -27.9829, 0,
                                                     0, -20.0484, 48.0313, -27.9829, 0,
                                                     90, -7, 0, 2.5, 90,
                                                     0, 0});
  // The same keyframe's stiffness: head 0.4, arms and legs 0.75 (its limb base stiffness [40, 75, 75, 75, 75] %,
  // NaoFacts.md §17).
  JointArray<float> stiffnesses{{0.4f, 0.4f,
                                 0.75f, 0.75f, 0.75f, 0.75f, 0.75f,
                                 0.75f, 0.75f, 0.75f, 0.75f, 0.75f, 0.75f,
                                 0.75f, 0.75f, 0.75f, 0.75f, 0.75f,
                                 0.75f, 0.75f, 0.75f, 0.75f, 0.75f,
                                 0.f, 0.f}};
  // clang-format on
  float transitionTime = 1.f; // s

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::Unit;
    ar& streams::field("angles", angles)
        .unit(Unit::degrees)
        .range(-180.0, 180.0)
        .doc("the pose's joint angles; Hands 0..57.3 = closed..open (0..1 rad in code)");
    ar& streams::field("stiffnesses", stiffnesses).range(0.0, 1.0).doc("the pose's stiffness of each joint");
    ar& streams::field("transitionTime", transitionTime)
        .unit(Unit::milliseconds)
        .range(0.0, 60000.0)
        .doc("time from the measured posture to `angles`");
  }
};

class StandPoseProvider
    : public Module<StandPoseProvider, Requires<FrameInfo, JointSensorData>, // this frame's values, read-only
                    Provides<MotionJointRequest>,                            // filled in update()
                    Parameters<StandPoseParameters>>                         // Config/Modules/<Module>.toml
{
public:
  using Module::Module;                     // built from the framework's ModuleContext; no set-up of its own
  void update(MotionJointRequest& request); // once per frame (several outputs: update(A&, B&))

private:
  void onParametersChanged() override { restart_ = true; } // a live edit starts a new transition

  bool restart_ = true;        ///< begin a new transition from the current posture
  double transitionStart_ = 0; ///< s, FrameInfo time when the transition began
  JointArray<float> from_;     ///< rad, posture at the start of the transition
  JointRequest last_;          ///< the previous output, the start of a transition after a live edit
  bool hasOutput_ = false;
};
} // namespace nao
