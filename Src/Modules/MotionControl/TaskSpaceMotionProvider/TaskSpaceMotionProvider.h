#pragma once
// A motion source that moves the robot by tasks instead of joint angles (the Stack of Tasks, seed 003): each frame
// it writes a hierarchy of task rows at the posture it requested last, solves it (HqpSolver, damped mode: targets
// may be out of reach) and integrates the joint velocities into the request. Highest first (Level):
//   0  every joint within its range, speed and acceleration (always feasible, so always met)
//   1  the feet stay where they are relative to each other (only the right sole's orientation and the floor while
//      the right foot has a target); no shape pair closer than a margin
//   2  the centre of mass over the feet (a box in the left sole's frame), or over the left foot alone
//   3  the targets that are active: left hand, right hand (wrist points), the head looking at a point, the right foot
//   4  an arm with a target: within what the target leaves free, toward the posture stiffest against the push
//      expected from `stiffestAgainst` (Woolfrey et al., Eq 43, Tools/TaskStack/Stiffness)
//   5  the posture the robot started in
// Targets are parameters (live over the debug channel) or the scenario's [[Script.targets]], which override a task
// from their time on. A target out of reach leaves its level's violation (levelViolations()) and disturbs nothing
// above. The safety stages downstream stay as they are. README.md of this folder.
#include "Framework/Module.h"
#include "Framework/RobotDescription.h"
#include "Framework/ScenarioScript.h"
#include "Framework/SelfCollisionShapes.h"
#include "Modules/MotionControl/TaskSpaceMotionProvider/TaskSpaceMotionParameters.h"
#include "Representations/MotionControl/EnergySavingRequest.h"
#include "Representations/MotionControl/JointRequest.h"
#include "Representations/Sensing/JointSensorData.h"

#include <memory>

namespace nao
{
class TaskSpaceMotionProvider
    : public Module<TaskSpaceMotionProvider,
                    Requires<JointSensorData>, // the start posture
                    Provides<MotionJointRequest, EnergySavingRequest>, Parameters<TaskSpaceMotionParameters>,
                    Loads<RobotDescription, SelfCollisionShapes, ScenarioTargets>>
{
public:
  explicit TaskSpaceMotionProvider(const ModuleContext& context);
  ~TaskSpaceMotionProvider() override;
  /// energySaving asks for nothing: the heat adjustment's offsets are for postures held still, and this source's
  /// may move in any frame.
  void update(MotionJointRequest& request, EnergySavingRequest& energySaving);

  /// The stack's levels, highest first.
  enum Level : std::size_t
  {
    jointLimits,
    feetAndCollisions,
    balance,
    targets,
    stiffness,
    posture,
    levelCount
  };
  /// Per Level of the last frame: the 2-norm of its violation (1/s-scaled rows; 0 = met). For tests and logs.
  const std::array<double, levelCount>& levelViolations() const { return levelViolations_; }
  /// Per arm (0 left, 1 right) of the last frame: Woolfrey's metric p against `stiffestAgainst` (N^2*m^2 for a unit
  /// push; smaller: stiffer), 0 while the arm has no target or no push is expected.
  const std::array<double, 2>& armCompliance() const { return armCompliance_; }
  /// Frames solved again without the stiffness level, whose rows had left the stack unsolvable.
  int framesWithoutStiffness() const { return framesWithoutStiffness_; }
  /// Frames whose stack did not solve (the request held still).
  int failedFrames() const { return failedFrames_; }

  static constexpr double frameTime = 0.012; ///< s, the motion thread's frame (LoLA: 83 Hz)
  /// Shape pairs that get a row in one frame at most: the closest ones.
  static constexpr int maxCollisionRows = 16;

private:
  struct State;
  std::unique_ptr<State> state_; ///< model, kinematics, features, the preallocated stack (.cpp)
  std::array<double, levelCount> levelViolations_{};
  std::array<double, 2> armCompliance_{};
  int failedFrames_ = 0;
  int framesWithoutStiffness_ = 0;

  void writeTop(const TaskSpaceMotionParameters& p);
  /// The feet fixed relative to each other on both; the free foot parallel to the floor and not below it.
  void addFeetTasks();
  /// Every joint's velocity within its range (stoppable before it), its speed and its acceleration.
  void addJointBounds(const TaskSpaceMotionParameters& p);
  /// A velocity damper per close shape pair (the closest maxCollisionRows), the legs kept out of an arm's way.
  void addCollisionRows(const TaskSpaceMotionParameters& p);
  void writeBalance(const TaskSpaceMotionParameters& p);
  void writeTargets(const TaskSpaceMotionParameters& p);
  void writeFootTarget(const TaskSpaceMotionParameters& p, const TaskSpacePoint& foot);
  void writeStiffness(const TaskSpaceMotionParameters& p);
};
} // namespace nao
