#pragma once
// TaskSpaceMotionProvider's state and the helpers its two source files share (TaskSpaceMotionProvider.cpp: start and
// the frame; TaskSpaceMotionLevels.cpp: the levels of the stack). Private to this module.
#include "Modules/MotionControl/TaskSpaceMotionProvider/TaskSpaceMotionProvider.h"
#include "Tools/Collision/BodyDistances.h"
#include "Tools/Collision/BodyOnModel.h"
#include "Tools/Kinematics/ForwardKinematics.h"
#include "Tools/Stiffness/ChainKinematics.h"
#include "Tools/TaskStack/Features/Features.h"
#include "Tools/TaskStack/HqpSolver.h"
#include "Tools/TaskStack/LevelRows.h"
#include "Tools/TaskStack/Stiffness/StiffnessTask.h"
#include "Tools/TaskStack/TargetTrajectory.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace nao
{
namespace taskspace
{
using taskstack::FeatureJacobian;
using taskstack::HqpMode;
using taskstack::HqpStatus;
using taskstack::LevelRows;

inline int linkNamed(const kinematics::Model& model, const char* name)
{
  const int link = model.findLink(name);
  if (link < 0)
    throw std::runtime_error(std::string("TaskSpaceMotionProvider: the robot description has no link '") +
                             name + "'");
  return link;
}

/// 1/s: the feet's relative pose takes back a quarter of its error per frame. They are the stack's top and the
/// error is only the integration's (first order over 12 ms), so they close much faster than the targets.
constexpr double feetGain = 0.25 / TaskSpaceMotionProvider::frameTime;
/// m: the right foot counts as back home when this close to where it started; then both feet support again.
constexpr double footHomeTolerance = 0.002;
/// s: the shortest way to a new target, however near (a reference's peak rate is 1.5 times its mean).
constexpr double minimumMoveTime = 0.3;

inline Eigen::Vector3d pointOf(const TaskSpacePoint& point)
{
  return {point.x, point.y, point.z};
}

/// Who carries the robot. The right foot's target moves it through these in order: the centre of mass goes over
/// the left foot (shifting), the foot leaves (single); after the target is gone the foot comes home, both feet
/// carry, and the centre of mass goes back to where it started (landing) before the box alone holds it (both).
enum class Support
{
  both,
  shifting,
  single,
  landing
};
/// An arm as a Woolfrey chain from the torso to its wrist, with its stiffness task's rows in the stack's columns.
struct ArmStiffness
{
  ArmStiffness(const kinematics::Model& model, const char* wrist, int variables)
      : chain(model, "torso", wrist), workspace(chain), task(chain, variables, columnsOf(chain)),
        q(chain.jointCount()), rows(chain.jointCount(), variables), targets(chain.jointCount())
  {
  }
  static std::vector<int> columnsOf(const stiffness::Chain& chain)
  {
    std::vector<int> columns;
    for (const stiffness::ChainJoint& joint : chain.joints())
      columns.push_back(joint.coordinate);
    return columns;
  }

  stiffness::Chain chain;
  stiffness::Workspace workspace;
  taskstack::StiffnessTask task;
  Eigen::VectorXd q; ///< rad, the chain's joints
  Eigen::MatrixXd rows;
  Eigen::VectorXd targets;
};
} // namespace taskspace

struct TaskSpaceMotionProvider::State
{
  State(const RobotDescription& robot, const SelfCollisionShapes& shapes, const ScenarioTargets& script)
      : model(robot.model), data(model), n(model.coordinateCount()), scratch(n), jacobian(3, n),
        rotationJacobian(3, n), joints(n, 0, n), top(n, 6, maxCollisionRows + 1), balance(n, 2, 2),
        targets(n, 11, 0), stiffnessRows(n, 10, 0), posture(n, n, 0),
        solver({n, levelCount, 6 + 2 + 11 + 10 + n, n + maxCollisionRows + 3},
               taskstack::HqpSettings{.mode = taskstack::HqpMode::damped}),
        q(n), start(n), velocity(Eigen::VectorXd::Zero(n)), lower(n), upper(n),
        identity(Eigen::MatrixXd::Identity(n, n)), errorN(n), error3(3), error2(2), lower2(2), upper2(2),
        rows2(2, n), row1(1, n), gradient(n), value1(1), lower1(1), upper1(1),
        body(collision::bodyOnModel(model, shapes)), bodyData(body.body), poses(body.modelLinks.size()),
        closePairs(static_cast<std::size_t>(body.body.pairCount())), schedule(script.targets),
        leftSole(taskspace::linkNamed(model, "l_sole")), rightSole(taskspace::linkNamed(model, "r_sole")),
        leftWrist(taskspace::linkNamed(model, "l_wrist")), rightWrist(taskspace::linkNamed(model, "r_wrist")),
        gaze(taskspace::linkNamed(model, "gaze")),
        torso(taskspace::linkNamed(model, "torso")), arms{taskspace::ArmStiffness(model, "l_wrist", n),
                                                          taskspace::ArmStiffness(model, "r_wrist", n)}
  {
    if (n != static_cast<int>(numOfJoints))
      throw std::runtime_error("TaskSpaceMotionProvider: the robot description has no LoLA joint order");
    for (std::size_t j = 0; j < numOfJoints; ++j)
      limits[j] = robot.limits(j);
    for (const collision::LinkShape& shape : body.body.shapes())
    {
      const int link = body.modelLinks[static_cast<std::size_t>(shape.link)];
      const int coordinate = model.body(model.link(link).body).coordinate;
      const Joint joint = coordinate < 0 ? Joint::HeadYaw : jointAt(static_cast<std::size_t>(coordinate));
      shapeOnLeg.push_back(coordinate >= 0 &&
                           (isJointOf(joint, Limb::leftLeg) || isJointOf(joint, Limb::rightLeg)));
    }
  }

  /// Poses, the centre of mass and the shapes' distances at q.
  void updateKinematics()
  {
    kinematics::forwardKinematics(model, data, q);
    kinematics::updateCenterOfMass(model, data);
    for (std::size_t k = 0; k < poses.size(); ++k)
      poses[k] = data.linkPoses[static_cast<std::size_t>(body.modelLinks[k])];
    collision::computeBodyDistances(body.body, bodyData, poses);
  }

  /// The scenario's targets whose time has come, over the parameters of their task.
  void applySchedule(double time)
  {
    for (; nextTarget < schedule.size() && schedule[nextTarget].time <= time; ++nextTarget)
    {
      const ScriptTarget& target = schedule[nextTarget];
      TaskSpacePoint& point = scripted[static_cast<std::size_t>(target.task)];
      point = {target.active, target.point[0], target.point[1], target.point[2]};
      isScripted[static_cast<std::size_t>(target.task)] = true;
    }
  }

  /// The target of `task`: the script's once it has one, else the parameter's.
  const TaskSpacePoint& target(ScriptTask task, const TaskSpacePoint& parameter) const
  {
    return isScripted[static_cast<std::size_t>(task)] ? scripted[static_cast<std::size_t>(task)] : parameter;
  }

  const kinematics::Model& model;
  kinematics::Data data;
  int n;
  taskstack::FeatureScratch scratch;
  taskstack::FeatureJacobian jacobian, rotationJacobian;
  taskstack::LevelRows joints, top, balance, targets, stiffnessRows, posture;
  taskstack::HqpSolver solver;
  Eigen::VectorXd q;        ///< rad, the posture requested last (LoLA order)
  Eigen::VectorXd start;    ///< rad, the posture the robot started in: the posture task's target
  Eigen::VectorXd velocity; ///< rad/s, this frame's solution
  Eigen::VectorXd lower, upper;
  Eigen::MatrixXd identity;
  // Each frame's task errors and rows, preallocated: an Eigen expression passed as a task would allocate.
  Eigen::VectorXd errorN, error3, error2, lower2, upper2;
  Eigen::MatrixXd rows2, row1;
  Eigen::RowVectorXd gradient; ///< m/rad, a pair distance's
  Eigen::VectorXd value1, lower1, upper1;
  collision::BodyOnModel body;
  collision::BodyData bodyData;
  std::vector<math::Pose> poses; ///< per dense link of `body`, base frame
  std::vector<int> closePairs;   ///< this frame's pairs within the activation distance (capacity: every pair)
  std::vector<bool> shapeOnLeg;  ///< per shape of `body`: its link moves with a leg joint
  std::vector<ScriptTarget> schedule;
  std::size_t nextTarget = 0;
  std::array<TaskSpacePoint, streams::enumCount<ScriptTask>> scripted{};
  std::array<bool, streams::enumCount<ScriptTask>> isScripted{};
  JointArray<kinematics::JointLimits> limits;
  int leftSole, rightSole, leftWrist, rightWrist, gaze, torso;
  std::array<taskspace::ArmStiffness, 2> arms; ///< left, right
  Eigen::Vector3d footPosition;                ///< m, the right sole seen from the left one at the start
  Eigen::Matrix3d footOrientation; ///< the right sole's orientation seen from the left one at the start
  Eigen::Vector3d startCom;        ///< m, the centre of mass seen from the left sole at the start (z = 0)
  Eigen::Vector3d foot = Eigen::Vector3d::Zero(); ///< m, the right sole seen from the left one now
  taskspace::Support support = taskspace::Support::both;
  /// Each point task's reference on its way to its target, by ScriptTask (lookAt's unused: the head is light and
  /// its error an angle), and the centre of mass's on its way over the left foot.
  std::array<taskstack::TargetTrajectory, streams::enumCount<ScriptTask>> paths;
  taskstack::TargetTrajectory comPath;
  Eigen::Vector3d feedforward3 = Eigen::Vector3d::Zero(); ///< m/s, a reference's rate
  double time = 0;                                        ///< s since the first frame
  int frames = 0;
  bool started = false;
};
} // namespace nao
