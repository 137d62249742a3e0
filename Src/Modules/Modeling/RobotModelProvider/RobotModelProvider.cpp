#include "Modules/Modeling/RobotModelProvider/RobotModelProvider.h"
#include <cmath>
#include <limits>

namespace nao
{
namespace
{
Pose3 toPose3(const math::Pose& pose)
{
  Pose3 result;
  for (int row = 0; row < 3; ++row)
  {
    for (int column = 0; column < 3; ++column)
      result.rotation[static_cast<std::size_t>(3 * row + column)] =
          static_cast<float>(pose.rotation(row, column));
    result.translation[static_cast<std::size_t>(row)] = static_cast<float>(pose.translation(row));
  }
  return result;
}

/// The second evaluator beside the Eigen one: the chosen backend, or `automatic` while Eigen is chosen, so
/// that the JIT is compiled and ready if the backend is switched live.
kinematics::EvaluatorOptions switchable(const RobotModelParameters& parameters)
{
  const auto backend = parameters.backend == kinematics::KinematicsBackend::eigen
                           ? kinematics::KinematicsBackend::automatic
                           : parameters.backend;
  return {backend, parameters.allowAvx2};
}
} // namespace

struct RobotModelProvider::State
{
  State(const RobotDescription& robot, const RobotModelParameters& parameters)
      : eigen(robot.model, {kinematics::KinematicsBackend::eigen, false}),
        compiled(robot.model, switchable(parameters)),
        q(Eigen::VectorXd::Zero(robot.model.coordinateCount())), leftSole(robot.model.linkIndex("l_sole")),
        rightSole(robot.model.linkIndex("r_sole"))
  {
  }

  // Both are built at start-up (the JIT compiles once), so a live switch of the backend allocates nothing.
  kinematics::KinematicsEvaluator eigen;
  kinematics::KinematicsEvaluator compiled;
  kinematics::KinematicsEvaluator* evaluator = nullptr;
  Eigen::VectorXd q;       ///< rad, LoLA order; the last finite measurement of each joint
  int leftSole, rightSole; ///< link indices
};

RobotModelProvider::RobotModelProvider(const ModuleContext& context)
    : Module(context), state_(std::make_unique<State>(loaded<RobotDescription>(), params()))
{
  onParametersChanged();
}

RobotModelProvider::~RobotModelProvider() = default;

void RobotModelProvider::onParametersChanged()
{
  state_->evaluator =
      params().backend == kinematics::KinematicsBackend::eigen ? &state_->eigen : &state_->compiled;
}

void RobotModelProvider::update(RobotModel& robotModel, JointLimits& limits)
{
  updateModel(robotModel);
  updateLimits(limits);
}

void RobotModelProvider::updateModel(RobotModel& robotModel)
{
  const RobotDescription& robot = loaded<RobotDescription>();
  kinematics::KinematicsEvaluator& evaluator = *state_->evaluator;
  const JointSensorData& joints = get<JointSensorData>();
  for (std::size_t j = 0; j < numOfJoints; ++j)
    if (std::isfinite(joints.angles[j])) // a broken reading keeps the last good one: no jump
      state_->q[static_cast<Eigen::Index>(j)] = joints.angles[j];
  evaluator.update(state_->q);
  for (std::size_t j = 0; j < numOfJoints; ++j)
    robotModel.limbs[j] = toPose3(evaluator.bodyPose(robot.jointBodies[j]));
  robotModel.leftSole = toPose3(evaluator.linkPose(state_->leftSole));
  robotModel.rightSole = toPose3(evaluator.linkPose(state_->rightSole));
  const Eigen::Vector3d centerOfMass = evaluator.centerOfMass();
  for (int i = 0; i < 3; ++i)
    robotModel.centerOfMass[static_cast<std::size_t>(i)] = static_cast<float>(centerOfMass[i]);
  robotModel.totalMass = static_cast<float>(robot.model.totalMass());
}

void RobotModelProvider::updateLimits(JointLimits& limits)
{
  const RobotDescription& robot = loaded<RobotDescription>();
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const kinematics::JointLimits& range = robot.limits(j);
    limits.min[j] = range.bounded ? static_cast<float>(range.lower) : -std::numeric_limits<float>::infinity();
    limits.max[j] = range.bounded ? static_cast<float>(range.upper) : std::numeric_limits<float>::infinity();
  }
}

MAKE_MODULE(RobotModelProvider);
} // namespace nao
