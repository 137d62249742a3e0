#pragma once
// A motion source that holds one posture from its parameters, reached smoothly from wherever the joints are
// (at start and after every live edit of the pose), so that a new pose never makes the robot jump.
#include "Framework/Module.h"
#include "Representations/Infrastructure/FrameInfo.h"
#include "Representations/MotionControl/JointRequest.h"
#include "Representations/Sensing/JointSensorData.h"

namespace nao
{
struct StandPoseParameters
{
  JointArray<float> angles;      ///< rad (degrees in the file); Hands 0..1 rad = closed..open
  JointArray<float> stiffnesses; ///< 0..1
  float transitionTime = 1.f;    ///< s (ms in the file), from the measured posture to `angles`

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::Unit;
    ar& streams::field("angles", angles).unit(Unit::degrees).range(-180.0, 180.0);
    ar& streams::field("stiffnesses", stiffnesses).range(0.0, 1.0);
    ar& streams::field("transitionTime", transitionTime).unit(Unit::milliseconds).range(0.0, 60000.0);
  }
};

class StandPoseProvider
    : public Module<StandPoseProvider, Requires<FrameInfo, JointSensorData>, // this frame's values, read-only
                    Provides<MotionJointRequest>,                            // filled in update()
                    Parameters<StandPoseParameters>>                         // Config/Modules/<Module>.toml
{
public:
  using Module::Module;                     // built from the framework's ModuleContext; no set-up of its own
  void update(MotionJointRequest& request); // one update per provided representation

private:
  void onParametersChanged() override { restart_ = true; } // a live edit starts a new transition

  bool restart_ = true;        ///< begin a new transition from the current posture
  double transitionStart_ = 0; ///< s, FrameInfo time when the transition began
  JointArray<float> from_;     ///< rad, posture at the start of the transition
  JointRequest last_;          ///< the previous output, the start of a transition after a live edit
  bool hasOutput_ = false;
};
} // namespace nao
