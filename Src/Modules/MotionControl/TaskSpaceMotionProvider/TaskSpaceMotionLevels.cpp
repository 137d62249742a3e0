// TaskSpaceMotionProvider's levels, written each frame at the posture it requested last (TaskSpaceMotionProvider.h
// lists them). Everything is seen from the left sole: with the torso as the kinematic base, "fixed on the floor" can
// only mean "fixed relative to the other foot", and targets are given where a coach measures them, on the floor.
#include "Modules/MotionControl/TaskSpaceMotionProvider/TaskSpaceMotionState.h"

#include <algorithm>
#include <cmath>

namespace nao
{
using namespace taskspace;

void TaskSpaceMotionProvider::writeTop(const TaskSpaceMotionParameters& p)
{
  state_->top.clear();
  addFeetTasks();
  addJointBounds(p);
  addCollisionRows(p);
}

void TaskSpaceMotionProvider::addFeetTasks()
{
  State& s = *state_;
  // The feet: fixed relative to each other while both carry the robot; the right one only parallel to the floor
  // and not below it while it has a target of its own.
  taskstack::relativePosition(s.model, s.data, s.rightSole, Eigen::Vector3d::Zero(), s.leftSole, s.scratch,
                              s.jacobian);
  if (s.support == Support::single)
  {
    s.row1 = s.jacobian.bottomRows(1);
    s.value1[0] = s.foot.z();
    s.lower1[0] = 0.0;
    s.upper1[0] = taskstack::unboundedMagnitude;
    s.top.addBounds(s.row1, s.value1, s.lower1, s.upper1, feetGain);
  }
  else
  {
    s.error3 = s.foot - s.footPosition;
    s.top.addEquality(s.jacobian, s.error3, feetGain);
  }
  const Eigen::Matrix3d orientation =
      taskstack::relativeOrientation(s.model, s.data, s.rightSole, s.leftSole, s.scratch, s.rotationJacobian);
  s.error3 = taskstack::rotationError(orientation, s.footOrientation);
  s.top.addEquality(s.rotationJacobian, s.error3, feetGain);
}

void TaskSpaceMotionProvider::addJointBounds(const TaskSpaceMotionParameters& p)
{
  State& s = *state_;
  // Every joint within its range (reached in one frame at most), its speed, and its acceleration: a task that
  // starts with a large error would otherwise ask for full speed from one frame to the next, and the jolt of an
  // arm rocks the whole robot onto one foot. Where they conflict, range and speed win (the interval always holds
  // the velocity that stays put, or leaves a range already left).
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const auto i = static_cast<Eigen::Index>(j);
    // Toward a range limit no faster than the joint can still stop before it, frame by frame: v, v - s, v - 2s, ...
    // (s = a dt) cover dt v (v / s + 1) / 2, which must not exceed the distance d.
    const double step = p.acceleration * frameTime;
    const auto stoppable = [&](double distance)
    {
      return std::min(distance / frameTime,
                      0.5 * (std::sqrt(step * step + 8.0 * step * distance / frameTime) - step));
    };
    const double toLower = std::max(0.0, s.q[i] - s.limits[j].lower);
    const double toUpper = std::max(0.0, s.limits[j].upper - s.q[i]);
    const double maxSpeed = p.speed * s.limits[j].velocity;
    const double rangeLower = std::min(0.0, std::max(-maxSpeed, -stoppable(toLower)));
    const double rangeUpper = std::max(0.0, std::min(maxSpeed, stoppable(toUpper)));
    s.lower[i] = std::clamp(s.velocity[i] - step, rangeLower, rangeUpper);
    s.upper[i] = std::clamp(s.velocity[i] + step, rangeLower, rangeUpper);
  }
  s.joints.clear();
  s.joints.addInequality(s.identity, s.lower, s.upper);
}

void TaskSpaceMotionProvider::addCollisionRows(const TaskSpaceMotionParameters& p)
{
  State& s = *state_;
  // The closest shape pairs: a velocity damper that lets none close below the margin. A pair already inside it
  // (a posture the robot started in) may not close further but is not pushed out: that would move the robot
  // without a task asking for it.
  std::size_t close = 0;
  for (int i = 0; i < s.body.body.pairCount(); ++i)
    if (s.bodyData.pairDistances[static_cast<std::size_t>(i)].distance < p.collisionActivation)
      s.closePairs[close++] = i;
  const auto closer = [&](int a, int b)
  {
    return s.bodyData.pairDistances[static_cast<std::size_t>(a)].distance <
           s.bodyData.pairDistances[static_cast<std::size_t>(b)].distance;
  };
  const std::size_t rows = std::min<std::size_t>(close, maxCollisionRows);
  std::nth_element(s.closePairs.begin(), s.closePairs.begin() + static_cast<std::ptrdiff_t>(rows),
                   s.closePairs.begin() + static_cast<std::ptrdiff_t>(close), closer);
  for (std::size_t k = 0; k < rows; ++k)
  {
    const auto i = static_cast<std::size_t>(s.closePairs[k]);
    const collision::ShapePair& pair = s.body.body.pairs()[i];
    const collision::ShapeDistance& d = s.bodyData.pairDistances[i];
    const int linkA = s.body.body.shapes()[static_cast<std::size_t>(pair.shapeA)].link;
    const int linkB = s.body.body.shapes()[static_cast<std::size_t>(pair.shapeB)].link;
    taskstack::distanceRow(s.model, s.data, s.body.modelLinks[static_cast<std::size_t>(linkA)], d.pointOnA,
                           s.body.modelLinks[static_cast<std::size_t>(linkB)], d.pointOnB, d.normal,
                           s.scratch, s.gradient);
    // The legs carry the robot and keep its balance: they never move to make room for an arm or the head, only
    // to keep apart from each other.
    if (!(s.shapeOnLeg[static_cast<std::size_t>(pair.shapeA)] &&
          s.shapeOnLeg[static_cast<std::size_t>(pair.shapeB)]))
      for (std::size_t j = 0; j < numOfJoints; ++j)
        if (isJointOf(jointAt(j), Limb::leftLeg) || isJointOf(jointAt(j), Limb::rightLeg))
          s.gradient[static_cast<Eigen::Index>(j)] = 0.0;
    s.row1.row(0) = s.gradient;
    s.value1[0] = d.distance;
    s.lower1[0] = std::min(p.collisionMargin, d.distance);
    s.upper1[0] = taskstack::unboundedMagnitude;
    s.top.addBounds(s.row1, s.value1, s.lower1, s.upper1, p.taskGain);
  }
}

void TaskSpaceMotionProvider::writeBalance(const TaskSpaceMotionParameters& p)
{
  State& s = *state_;
  s.balance.clear();
  const Eigen::Vector3d com =
      taskstack::relativeCenterOfMass(s.model, s.data, s.leftSole, s.scratch, s.jacobian);
  s.rows2 = s.jacobian.topRows(2);
  s.error2 = com.head(2);
  if (s.support == Support::landing &&
      (com.head<2>() - s.startCom.head<2>()).norm() < p.supportShiftTolerance)
    s.support = Support::both;
  if (s.support == Support::both)
  {
    s.comPath.release();
    // A velocity damper on the horizontal position: anywhere in the box.
    s.lower2 = Eigen::Vector2d(p.comMinX, p.comMinY);
    s.upper2 = Eigen::Vector2d(p.comMaxX, p.comMaxY);
    s.balance.addBounds(s.rows2, s.error2, s.lower2, s.upper2, p.taskGain);
    return;
  }
  // Over the left foot alone: to its point along a smooth way, and the foot lifts once it is there. Landing: back
  // to where it started.
  const Eigen::Vector3d supportPoint = s.support == Support::landing
                                           ? s.startCom
                                           : Eigen::Vector3d(p.singleSupportComX, p.singleSupportComY, 0.0);
  s.comPath.aim(supportPoint, Eigen::Vector3d(com.x(), com.y(), 0.0), s.time, p.comSpeed, p.comAcceleration,
                minimumMoveTime);
  if (s.support == Support::shifting &&
      (com.head<2>() - supportPoint.head<2>()).norm() < p.supportShiftTolerance)
    s.support = Support::single;
  s.error2 -= s.comPath.position(s.time).head<2>();
  s.feedforward3 = s.comPath.velocity(s.time);
  s.balance.addEquality(s.rows2, s.error2, p.taskGain, s.feedforward3.head<2>());
}

void TaskSpaceMotionProvider::writeTargets(const TaskSpaceMotionParameters& p)
{
  State& s = *state_;
  s.targets.clear();
  // A hand moves by its arm alone, the head by its own joints, the foot by its leg: with the whole body free, the
  // least-norm step prefers the leg joints (their long levers move a hand furthest per radian) and tilts the robot
  // on its feet to reach. Each task's error is measured on the whole body, so what the levels above move (the legs
  // for the balance) is taken back by the task's own joints at its gain.
  for (const ScriptTask task : {ScriptTask::leftHand, ScriptTask::rightHand})
  {
    const bool left = task == ScriptTask::leftHand;
    const TaskSpacePoint& target = s.target(task, left ? p.leftHand : p.rightHand);
    taskstack::TargetTrajectory& path = s.paths[static_cast<std::size_t>(task)];
    if (!target.active)
    {
      path.release();
      continue;
    }
    const Eigen::Vector3d hand =
        taskstack::relativePosition(s.model, s.data, left ? s.leftWrist : s.rightWrist,
                                    Eigen::Vector3d::Zero(), s.leftSole, s.scratch, s.jacobian);
    path.aim(pointOf(target), hand, s.time, p.taskSpeed, p.taskAcceleration, minimumMoveTime);
    s.error3 = hand - path.position(s.time);
    s.feedforward3 = path.velocity(s.time);
    for (std::size_t j = 0; j < numOfJoints; ++j)
      if (!isJointOf(jointAt(j), left ? Limb::leftArm : Limb::rightArm))
        s.jacobian.col(static_cast<Eigen::Index>(j)).setZero();
    s.targets.addEquality(s.jacobian, s.error3, p.taskGain, s.feedforward3);
  }
  if (const TaskSpacePoint& lookAt = s.target(ScriptTask::lookAt, p.lookAt); lookAt.active)
  {
    // The point seen from the gaze frame (x along the line of sight). The error is the angle from the line of
    // sight to the point, in the direction the point lies (its y and z), and the rows are the gaze's turn about its
    // z and y axes: right for every angle, also beyond 90 degrees, where the bearing's own derivative changes sign
    // and would turn the head away. Only the head's joints turn it, as NAOqi's lookAt: the legs and arms keep
    // their tasks and the balance.
    const Eigen::Vector3d seen = taskstack::relativePosition(s.model, s.data, s.leftSole, pointOf(lookAt),
                                                             s.gaze, s.scratch, s.jacobian);
    const Eigen::Matrix3d gazeOrientation =
        taskstack::relativeOrientation(s.model, s.data, s.gaze, s.leftSole, s.scratch, s.rotationJacobian);
    const double sideways = seen.tail<2>().norm();
    const double angle = std::atan2(sideways, seen.x()); // rad, 0..pi
    s.error2 = sideways > 1e-9 ? Eigen::Vector2d(angle * seen.tail<2>() / sideways) : Eigen::Vector2d::Zero();
    s.jacobian.noalias() = gazeOrientation.transpose() * s.rotationJacobian; // angular velocity, gaze frame
    s.rows2.row(0) = -s.jacobian.row(2);
    s.rows2.row(1) = s.jacobian.row(1);
    for (std::size_t j = 0; j < numOfJoints; ++j)
      if (!isHeadJoint(jointAt(j))) s.rows2.col(static_cast<Eigen::Index>(j)).setZero();
    s.targets.addEquality(s.rows2, s.error2, p.taskGain);
  }
  // The right foot: its target while it has one, then home; both feet carry again once it is back.
  const TaskSpacePoint& foot = s.target(ScriptTask::rightFoot, p.rightFoot);
  if (foot.active && s.support == Support::both) s.support = Support::shifting;
  if (s.support == Support::single) writeFootTarget(p, foot);
}

void TaskSpaceMotionProvider::writeFootTarget(const TaskSpaceMotionParameters& p, const TaskSpacePoint& foot)
{
  State& s = *state_;
  const Eigen::Vector3d goal = foot.active ? pointOf(foot) : s.footPosition;
  taskstack::TargetTrajectory& path = s.paths[static_cast<std::size_t>(ScriptTask::rightFoot)];
  if (!foot.active && (s.foot - s.footPosition).norm() < footHomeTolerance)
  {
    s.support = Support::landing;
    path.release();
    return;
  }
  taskstack::relativePosition(s.model, s.data, s.rightSole, Eigen::Vector3d::Zero(), s.leftSole, s.scratch,
                              s.jacobian);
  path.aim(goal, s.foot, s.time, p.taskSpeed, p.taskAcceleration, minimumMoveTime);
  s.error3 = s.foot - path.position(s.time);
  s.feedforward3 = path.velocity(s.time);
  s.targets.addEquality(s.jacobian, s.error3, p.taskGain, s.feedforward3);
}
void TaskSpaceMotionProvider::writeStiffness(const TaskSpaceMotionParameters& p)
{
  // Woolfrey et al. (Eq 43): an arm whose hand has a target turns, within what its target leaves free, down the
  // gradient of p = 1/2 |J^T dx|^2, the torque its joints feel per unit push along dx; below the targets, so it
  // never moves a hand off its point.
  State& s = *state_;
  s.stiffnessRows.clear();
  armCompliance_ = {};
  const TaskSpacePoint& against = s.target(ScriptTask::stiffestAgainst, p.stiffestAgainst);
  const Eigen::Vector3d push = pointOf(against);
  if (!against.active || !(push.norm() > 1e-9)) return;
  // The push's direction in the torso frame, where the chains are.
  const Eigen::Vector3d inTorso = s.data.linkPoses[static_cast<std::size_t>(s.torso)].rotation.transpose() *
                                  s.data.linkPoses[static_cast<std::size_t>(s.leftSole)].rotation *
                                  push.normalized();
  stiffness::StiffnessQuery query;
  query.direction.head<3>() = inTorso;
  for (std::size_t a = 0; a < 2; ++a)
  {
    const TaskSpacePoint& hand =
        s.target(a == 0 ? ScriptTask::leftHand : ScriptTask::rightHand, a == 0 ? p.leftHand : p.rightHand);
    if (!hand.active) continue;
    taskspace::ArmStiffness& arm = s.arms[a];
    for (int i = 0; i < arm.chain.jointCount(); ++i)
      arm.q[i] = s.q[arm.chain.joint(i).coordinate];
    stiffness::updateChain(arm.chain, arm.workspace, arm.q);
    const int rows =
        arm.task.fillRows(arm.chain, arm.workspace, query, {p.stiffnessRate, 1.0}, arm.rows, arm.targets);
    armCompliance_[a] = arm.task.metric();
    if (p.stiffnessRate == 0.0) continue; // reported, not steered
    // Rows x_k = targets_k: as an equality task, J x = -gain e with gain 1 and e = -targets.
    arm.targets.head(rows) *= -1.0;
    s.stiffnessRows.addEquality(arm.rows.topRows(rows), arm.targets.head(rows), 1.0);
  }
}
} // namespace nao
