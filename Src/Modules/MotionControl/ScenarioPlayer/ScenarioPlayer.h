#pragma once
// A motion source that plays the keyframes of the scenario's [Script] table (Framework/ScenarioScript.h):
// smooth transitions (zero velocity at every keyframe), holds, loops, a stiffness per keyframe. The first
// transition starts from the measured posture, so starting the script never makes the robot jump. Keyframes
// given by speed are timed with the joints' speed limits from the robot description, and postures are clipped
// to the joints' ranges.
#include "Framework/Module.h"
#include "Framework/RobotDescription.h"
#include "Framework/ScenarioScript.h"
#include "Representations/Infrastructure/FrameInfo.h"
#include "Representations/MotionControl/EnergySavingRequest.h"
#include "Representations/MotionControl/JointRequest.h"
#include "Representations/Sensing/JointSensorData.h"

namespace nao
{
class ScenarioPlayer : public Module<ScenarioPlayer,                                    //
                                     Requires<FrameInfo, JointSensorData>,              //
                                     Provides<MotionJointRequest, EnergySavingRequest>, //
                                     Loads<RobotDescription, ScenarioScript>>
{
public:
  explicit ScenarioPlayer(const ModuleContext& context);
  void update(MotionJointRequest& request, EnergySavingRequest& energySaving);

  /// s each keyframe's transition takes (from `duration`, or from `speed` and the joints' maximum speeds).
  const std::vector<float>& transitionTimes() const { return transitionTimes_; }

private:
  /// The script's request of this frame.
  void play(MotionJointRequest& request);
  /// Heat adjustment while a keyframe is held, as the keyframe asks.
  void askForEnergySaving(EnergySavingRequest& request);
  void beginSegment(std::size_t keyframe, double now, const JointArray<float>& from);
  /// rad, the held request's wobble of `joint` (keyframe jitter), `heldFor` s after the hold began
  static float wobble(std::size_t joint, double heldFor, float amplitude);

  ScenarioScript script_;              ///< the scenario's, postures clipped to the joints' ranges
  std::vector<float> transitionTimes_; ///< s per keyframe
  std::vector<const ScriptPose*> targets_;
  bool started_ = false;
  /// The last keyframe was reached and held, and the script does not loop.
  bool finished_ = false;
  /// The current keyframe's posture is reached: the request is static.
  bool holding_ = false;
  std::size_t segment_ = 0;   ///< keyframe being approached or held
  double segmentStart_ = 0;   ///< s, FrameInfo time
  JointArray<float> from_;    ///< rad, posture at the segment start
  JointArray<float> current_; ///< rad, last output
};
} // namespace nao
