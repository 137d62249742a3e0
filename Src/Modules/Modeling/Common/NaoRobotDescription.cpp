#include "Modules/Modeling/Common/NaoRobotDescription.h"
#include "Framework/ConfigFiles.h"
#include "Framework/Scenario.h"
#include "Tools/Kinematics/MassCalibration.h"
#include "Tools/Kinematics/UrdfLoader.h"

namespace nao
{
kinematics::Model loadNaoModel()
{
  kinematics::ModelOptions options;
  options.coordinateOrder.assign(jointNames.begin(), jointNames.end());
  try
  {
    options.massCalibration = kinematics::loadMassCalibration(findRobotFile("massCalibration.toml"));
    return kinematics::loadModel(findRobotFile("nao-v6.urdf"), options);
  }
  catch (const StartupError&)
  {
    throw;
  }
  catch (const std::exception& error)
  {
    throw StartupError(std::string("robot description: ") + error.what());
  }
}

JointArray<int> jointBodies(const kinematics::Model& model)
{
  JointArray<int> bodies;
  for (std::size_t j = 0; j < numOfJoints; ++j)
    bodies[j] = model.findBodyOfJoint(jointNames[j]);
  return bodies;
}

kinematics::EvaluatorOptions evaluatorOptions(KinematicsBackendChoice choice, bool allowAvx2)
{
  kinematics::EvaluatorOptions options;
  options.backend = choice == KinematicsBackendChoice::eigen ? kinematics::KinematicsBackend::eigen
                    : choice == KinematicsBackendChoice::jit ? kinematics::KinematicsBackend::jit
                                                             : kinematics::KinematicsBackend::automatic;
  options.allowAvx2 = allowAvx2;
  return options;
}

kinematics::EvaluatorOptions switchableEvaluatorOptions(KinematicsBackendChoice choice, bool allowAvx2)
{
  return evaluatorOptions(
      choice == KinematicsBackendChoice::eigen ? KinematicsBackendChoice::automatic : choice, allowAvx2);
}

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
} // namespace nao
