#include "Modules/Modeling/RobotModelProvider/RobotModelProvider.h"
#include "Modules/Modeling/Common/NaoRobotDescription.h"
#include "Tools/Kinematics/ForwardKinematics.h"
#include <cmath>

namespace nao
{
RobotModelProvider::RobotModelProvider()
    : model_(loadNaoModel()), data_(model_), q_(Eigen::VectorXd::Zero(model_.coordinateCount())),
      bodies_(jointBodies(model_)), leftSole_(model_.linkIndex("l_sole")),
      rightSole_(model_.linkIndex("r_sole"))
{
}

void RobotModelProvider::update(RobotModel& robotModel)
{
  const JointSensorData& joints = get<JointSensorData>();
  for (std::size_t j = 0; j < numOfJoints; ++j)
    if (std::isfinite(joints.angles[j])) // a broken reading keeps the last good one: no jump
      q_[static_cast<Eigen::Index>(j)] = joints.angles[j];
  kinematics::forwardKinematics(model_, data_, q_);
  const Eigen::Vector3d& centerOfMass = kinematics::updateCenterOfMass(model_, data_);
  for (std::size_t j = 0; j < numOfJoints; ++j)
    robotModel.limbs[j] = toPose3(data_.bodyPoses[static_cast<std::size_t>(bodies_[j])]);
  robotModel.leftSole = toPose3(data_.linkPoses[static_cast<std::size_t>(leftSole_)]);
  robotModel.rightSole = toPose3(data_.linkPoses[static_cast<std::size_t>(rightSole_)]);
  for (int i = 0; i < 3; ++i)
    robotModel.centerOfMass[static_cast<std::size_t>(i)] = static_cast<float>(centerOfMass[i]);
  robotModel.totalMass = static_cast<float>(model_.totalMass());
}

MAKE_MODULE(RobotModelProvider);
} // namespace nao
