#include "Modules/Modeling/RobotModelProvider/RobotModelProvider.h"
#include <cmath>
#include <limits>

namespace nao
{
RobotModelProvider::RobotModelProvider()
    : model_(loadNaoModel()), eigen_(model_, evaluatorOptions(KinematicsBackendChoice::eigen, false)),
      compiled_(model_, switchableEvaluatorOptions(params().backend, params().allowAvx2)),
      q_(Eigen::VectorXd::Zero(model_.coordinateCount())), bodies_(jointBodies(model_)),
      leftSole_(model_.linkIndex("l_sole")), rightSole_(model_.linkIndex("r_sole"))
{
  onParametersChanged();
}

void RobotModelProvider::onParametersChanged()
{
  evaluator_ = params().backend == KinematicsBackendChoice::eigen ? &eigen_ : &compiled_;
}

void RobotModelProvider::update(RobotModel& robotModel)
{
  const JointSensorData& joints = get<JointSensorData>();
  for (std::size_t j = 0; j < numOfJoints; ++j)
    if (std::isfinite(joints.angles[j])) // a broken reading keeps the last good one: no jump
      q_[static_cast<Eigen::Index>(j)] = joints.angles[j];
  evaluator_->update(q_);
  for (std::size_t j = 0; j < numOfJoints; ++j)
    robotModel.limbs[j] = toPose3(evaluator_->bodyPose(bodies_[j]));
  robotModel.leftSole = toPose3(evaluator_->linkPose(leftSole_));
  robotModel.rightSole = toPose3(evaluator_->linkPose(rightSole_));
  const Eigen::Vector3d centerOfMass = evaluator_->centerOfMass();
  for (int i = 0; i < 3; ++i)
    robotModel.centerOfMass[static_cast<std::size_t>(i)] = static_cast<float>(centerOfMass[i]);
  robotModel.totalMass = static_cast<float>(model_.totalMass());
}

void RobotModelProvider::update(JointLimits& limits)
{
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const kinematics::JointLimits& range = model_.body(bodies_[j]).limits;
    limits.min[j] = range.bounded ? static_cast<float>(range.lower) : -std::numeric_limits<float>::infinity();
    limits.max[j] = range.bounded ? static_cast<float>(range.upper) : std::numeric_limits<float>::infinity();
  }
}

MAKE_MODULE(RobotModelProvider);
} // namespace nao
