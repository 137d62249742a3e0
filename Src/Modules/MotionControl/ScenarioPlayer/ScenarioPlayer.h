#pragma once
// A motion source that plays the keyframes of the scenario's [Script] table (ScenarioScript.h): smooth
// transitions (zero velocity at every keyframe), holds, loops, a stiffness per keyframe. The first transition
// starts from the measured posture, so starting the script never makes the robot jump.
#include "Framework/Module.h"
#include "Modules/MotionControl/ScenarioPlayer/ScenarioScript.h"
#include "Representations/Infrastructure/FrameInfo.h"
#include "Representations/MotionControl/EnergySavingRequest.h"
#include "Representations/MotionControl/JointRequest.h"
#include "Representations/Sensing/JointSensorData.h"

namespace nao
{
class ScenarioPlayer : public Module<ScenarioPlayer,                       //
                                     Requires<FrameInfo, JointSensorData>, //
                                     Provides<MotionJointRequest, EnergySavingRequest>>
{
public:
  ScenarioPlayer();
  void update(MotionJointRequest& request);
  void update(EnergySavingRequest& request);

  /// s each keyframe's transition takes (from `duration`, or from `speed` and the joints' maximum speeds).
  const std::vector<float>& transitionTimes() const { return transitionTimes_; }

private:
  void beginSegment(std::size_t keyframe, double now, const JointArray<float>& from);
  /// rad, the held request's wobble of `joint` (keyframe jitter), `heldFor` s after the hold began
  static float wobble(std::size_t joint, double heldFor, float amplitude);

  ScenarioScript script_;
  std::vector<float> transitionTimes_; ///< s per keyframe
  std::vector<const ScriptPose*> targets_;
  bool started_ = false;
  bool finished_ = false;
  bool holding_ = false;    ///< the current keyframe's posture is reached: the request is static     ///< the
                            ///< last keyframe was reached and held, and the script does not loop
  std::size_t segment_ = 0; ///< keyframe being approached or held
  double segmentStart_ = 0; ///< s, FrameInfo time
  JointArray<float> from_;  ///< rad, posture at the segment start
  JointArray<float> current_; ///< rad, last output
};
} // namespace nao
