#include "Framework/RobotDescription.h"
#include "Tools/Kinematics/MassCalibration.h"
#include "Tools/Kinematics/UrdfLoader.h"

namespace nao
{
RobotDescription::RobotDescription(kinematics::Model model) : model(std::move(model))
{
  for (std::size_t j = 0; j < numOfJoints; ++j)
    jointBodies[j] = this->model.findBodyOfJoint(jointNames[j]);
}

RobotDescription RobotDescription::load(const ConfigFiles& files)
{
  kinematics::ModelOptions options;
  options.coordinateOrder.assign(jointNames.begin(), jointNames.end());
  options.massCalibration = kinematics::loadMassCalibration(files.robotFile("massCalibration.toml"));
  return RobotDescription(kinematics::loadModel(files.robotFile("nao-v6.urdf"), options));
}
} // namespace nao
