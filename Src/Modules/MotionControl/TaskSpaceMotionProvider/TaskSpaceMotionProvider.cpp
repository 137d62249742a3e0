// TaskSpaceMotionProvider: the Stack of Tasks as a motion source (TaskSpaceMotionProvider.h, README.md of this
// folder). Everything is seen from the left sole: with the torso as the kinematic base, "fixed on the floor" can
// only mean "fixed relative to the other foot", and targets are given where a coach measures them, on the floor.
#include "Modules/MotionControl/TaskSpaceMotionProvider/TaskSpaceMotionProvider.h"
#include "Tools/Kinematics/ForwardKinematics.h"
#include "Tools/TaskStack/Features/Features.h"
#include "Tools/TaskStack/HqpSolver.h"
#include "Tools/TaskStack/LevelRows.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace nao
{
namespace
{
using taskstack::FeatureJacobian;
using taskstack::HqpMode;
using taskstack::HqpStatus;
using taskstack::LevelRows;

int linkNamed(const kinematics::Model& model, const char* name)
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

Eigen::Vector3d pointOf(const TaskSpacePoint& point)
{
  return {point.x, point.y, point.z};
}
} // namespace

struct TaskSpaceMotionProvider::State
{
  explicit State(const RobotDescription& robot)
      : model(robot.model), data(model), n(model.coordinateCount()), scratch(n), jacobian(3, n),
        rotationJacobian(3, n), top(n, 6, n), balance(n, 0, 2), targets(n, 8, 0), posture(n, n, 0),
        solver({n, 4, 6 + 8 + n, n + 2}, taskstack::HqpSettings{.mode = HqpMode::damped}), q(n), start(n),
        velocity(n), lower(n), upper(n), identity(Eigen::MatrixXd::Identity(n, n)), errorN(n), error3(3),
        error2(2), lower2(2), upper2(2), rows2(2, n), leftSole(linkNamed(model, "l_sole")),
        rightSole(linkNamed(model, "r_sole")), leftWrist(linkNamed(model, "l_wrist")),
        rightWrist(linkNamed(model, "r_wrist")), gaze(linkNamed(model, "gaze"))
  {
    if (n != static_cast<int>(numOfJoints))
      throw std::runtime_error("TaskSpaceMotionProvider: the robot description has no LoLA joint order");
    for (std::size_t j = 0; j < numOfJoints; ++j)
      limits[j] = robot.limits(j);
  }

  /// Poses, the centre of mass and the feet's relative pose at q.
  void updateKinematics()
  {
    kinematics::forwardKinematics(model, data, q);
    kinematics::updateCenterOfMass(model, data);
  }

  const kinematics::Model& model;
  kinematics::Data data;
  int n;
  taskstack::FeatureScratch scratch;
  FeatureJacobian jacobian, rotationJacobian;
  LevelRows top, balance, targets, posture;
  taskstack::HqpSolver solver;
  Eigen::VectorXd q;        ///< rad, the posture requested last (LoLA order)
  Eigen::VectorXd start;    ///< rad, the posture the robot started in: the posture task's target
  Eigen::VectorXd velocity; ///< rad/s, this frame's solution
  Eigen::VectorXd lower, upper;
  Eigen::MatrixXd identity;
  // Each frame's task errors and rows, preallocated: an Eigen expression passed as a task would allocate.
  Eigen::VectorXd errorN, error3, error2, lower2, upper2;
  Eigen::MatrixXd rows2;
  JointArray<kinematics::JointLimits> limits;
  int leftSole, rightSole, leftWrist, rightWrist, gaze;
  Eigen::Vector3d footPosition;    ///< m, the right sole seen from the left one at the start
  Eigen::Matrix3d footOrientation; ///< the right sole's orientation seen from the left one at the start
  bool started = false;
};

TaskSpaceMotionProvider::TaskSpaceMotionProvider(const ModuleContext& context)
    : Module(context), state_(std::make_unique<State>(loaded<RobotDescription>()))
{
}

TaskSpaceMotionProvider::~TaskSpaceMotionProvider() = default;

void TaskSpaceMotionProvider::update(MotionJointRequest& request)
{
  State& s = *state_;
  const TaskSpaceMotionParameters& p = params();
  if (!s.started)
  {
    // Start from where the joints are, so that starting never makes the robot jump.
    for (std::size_t j = 0; j < numOfJoints; ++j)
      s.q[static_cast<Eigen::Index>(j)] =
          std::isfinite(get<JointSensorData>().angles[j])
              ? std::clamp<double>(get<JointSensorData>().angles[j], s.limits[j].lower, s.limits[j].upper)
              : 0.5 * (s.limits[j].lower + s.limits[j].upper);
    s.start = s.q;
    s.updateKinematics();
    s.footPosition = taskstack::relativePosition(s.model, s.data, s.rightSole, Eigen::Vector3d::Zero(),
                                                 s.leftSole, s.scratch, s.jacobian);
    s.footOrientation = taskstack::relativeOrientation(s.model, s.data, s.rightSole, s.leftSole, s.scratch,
                                                       s.rotationJacobian);
    s.started = true;
  }
  else
    s.updateKinematics();

  // Level 0: the feet, and every joint within its range (reached in one frame at most) and its speed.
  s.top.clear();
  const Eigen::Vector3d foot = taskstack::relativePosition(
      s.model, s.data, s.rightSole, Eigen::Vector3d::Zero(), s.leftSole, s.scratch, s.jacobian);
  s.error3 = foot - s.footPosition;
  s.top.addEquality(s.jacobian, s.error3, feetGain);
  const Eigen::Matrix3d orientation =
      taskstack::relativeOrientation(s.model, s.data, s.rightSole, s.leftSole, s.scratch, s.rotationJacobian);
  s.error3 = taskstack::rotationError(orientation, s.footOrientation);
  s.top.addEquality(s.rotationJacobian, s.error3, feetGain);
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const auto i = static_cast<Eigen::Index>(j);
    const double maxSpeed = p.speed * s.limits[j].velocity;
    s.lower[i] = std::min(0.0, std::max(-maxSpeed, (s.limits[j].lower - s.q[i]) / frameTime));
    s.upper[i] = std::max(0.0, std::min(maxSpeed, (s.limits[j].upper - s.q[i]) / frameTime));
  }
  s.top.addInequality(s.identity, s.lower, s.upper);

  // Level 1: the centre of mass over the feet (a velocity damper on its horizontal position).
  s.balance.clear();
  const Eigen::Vector3d com =
      taskstack::relativeCenterOfMass(s.model, s.data, s.leftSole, s.scratch, s.jacobian);
  s.rows2 = s.jacobian.topRows(2);
  s.error2 = com.head(2);
  s.lower2 = Eigen::Vector2d(p.comMinX, p.comMinY);
  s.upper2 = Eigen::Vector2d(p.comMaxX, p.comMaxY);
  s.balance.addBounds(s.rows2, s.error2, s.lower2, s.upper2, p.taskGain);

  // Level 2: the active targets.
  s.targets.clear();
  for (auto [target, wrist] : {std::pair{&p.leftHand, s.leftWrist}, {&p.rightHand, s.rightWrist}})
    if (target->active)
    {
      const Eigen::Vector3d hand = taskstack::relativePosition(
          s.model, s.data, wrist, Eigen::Vector3d::Zero(), s.leftSole, s.scratch, s.jacobian);
      s.error3 = hand - pointOf(*target);
      s.targets.addEquality(s.jacobian, s.error3, p.taskGain);
    }
  if (p.lookAt.active)
  {
    // The point seen from the gaze frame (x along the line of sight): its y and z go to zero. The point is fixed
    // on the floor, so it is a point of the left sole seen from the gaze link.
    const Eigen::Vector3d seen = taskstack::relativePosition(s.model, s.data, s.leftSole, pointOf(p.lookAt),
                                                             s.gaze, s.scratch, s.jacobian);
    // Angular error of the line of sight (rad): the point's bearing off the x axis, not its lateral distance, so
    // that a near point and a far one turn the head at the same rate.
    const double range = std::max(seen.norm(), 0.05);
    s.rows2 = s.jacobian.bottomRows(2) / range;
    s.error2 = seen.tail(2) / range;
    s.targets.addEquality(s.rows2, s.error2, p.taskGain);
  }

  // Level 3: the start posture.
  s.posture.clear();
  s.errorN = s.q - s.start;
  s.posture.addEquality(s.identity, s.errorN, p.postureGain);

  s.solver.clear(s.n);
  for (const LevelRows* level : {&s.top, &s.balance, &s.targets, &s.posture})
    level->addTo(s.solver);
  if (s.solver.solve() == HqpStatus::optimal && s.solver.solution().allFinite())
  {
    s.velocity = s.solver.solution();
    s.q += frameTime * s.velocity;
    for (int k = 0; k < 4; ++k)
      levelViolations_[static_cast<std::size_t>(k)] = s.solver.slackNorms()[static_cast<std::size_t>(k)];
  }
  else
    ++failedFrames_; // hold: the request stays where it was

  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    request.angles[j] = static_cast<float>(s.q[static_cast<Eigen::Index>(j)]);
    const bool hand = jointAt(j) == Joint::LHand || jointAt(j) == Joint::RHand;
    request.stiffnesses[j] = hand ? 0.f : p.stiffness;
  }
}

MAKE_MODULE(TaskSpaceMotionProvider);
} // namespace nao
