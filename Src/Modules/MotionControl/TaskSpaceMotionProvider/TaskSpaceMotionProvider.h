#pragma once
// A motion source that moves the robot by tasks instead of joint angles (the Stack of Tasks, seed 003): each frame
// it writes a hierarchy of task rows at the posture it requested last, solves it (HqpSolver, damped mode: targets
// may be out of reach) and integrates the joint velocities into the request. Highest first:
//   0  the feet stay where they are relative to each other; every joint within its range and speed
//   1  the centre of mass over the feet (a box in the left sole's frame)
//   2  the targets that are active: left hand, right hand (wrist points), the head looking at a point
//   3  the posture the robot started in
// A target out of reach leaves its level's violation (TaskSpaceMotion's levelViolations) and disturbs nothing
// above. The safety stages downstream stay as they are. README.md of this folder.
#include "Framework/Module.h"
#include "Framework/RobotDescription.h"
#include "Modules/MotionControl/TaskSpaceMotionProvider/TaskSpaceMotionParameters.h"
#include "Representations/MotionControl/JointRequest.h"
#include "Representations/Sensing/JointSensorData.h"

#include <memory>

namespace nao
{
class TaskSpaceMotionProvider
    : public Module<TaskSpaceMotionProvider, Requires<JointSensorData>, // the start posture
                    Provides<MotionJointRequest>, Parameters<TaskSpaceMotionParameters>,
                    Loads<RobotDescription>>
{
public:
  explicit TaskSpaceMotionProvider(const ModuleContext& context);
  ~TaskSpaceMotionProvider() override;
  void update(MotionJointRequest& request);

  /// Per level of the last frame: the 2-norm of its violation (1/s-scaled rows; 0 = met). For tests and logs.
  const std::array<double, 4>& levelViolations() const { return levelViolations_; }
  /// Frames whose stack did not solve (the request held still).
  int failedFrames() const { return failedFrames_; }

  static constexpr double frameTime = 0.012; ///< s, the motion thread's frame (LoLA: 83 Hz)

private:
  struct State;
  std::unique_ptr<State>
      state_; ///< model, kinematics, features, the preallocated stack (TaskSpaceMotionProvider.cpp)
  std::array<double, 4> levelViolations_{};
  int failedFrames_ = 0;
};
} // namespace nao
