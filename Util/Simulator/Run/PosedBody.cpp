#include "Util/Simulator/Run/PosedBody.h"
#include "Framework/SelfCollisionShapes.h"
#include "Tools/Kinematics/ForwardKinematics.h"

namespace nao
{
PosedBody::PosedBody(const ConfigFiles& files)
    : robot(RobotDescription::load(files)), data(robot.model),
      body(collision::bodyOnModel(robot.model, SelfCollisionShapes::load(files))), distances(body.body),
      poses_(body.modelLinks.size()), q_(robot.model.coordinateCount())
{
}

void PosedBody::pose(const JointArray<float>& angles, bool centerOfMass)
{
  for (std::size_t j = 0; j < numOfJoints; ++j)
    q_[static_cast<Eigen::Index>(j)] = angles[j];
  kinematics::forwardKinematics(robot.model, data, q_);
  if (centerOfMass) kinematics::updateCenterOfMass(robot.model, data);
  for (std::size_t k = 0; k < poses_.size(); ++k)
    poses_[k] = data.linkPoses[static_cast<std::size_t>(body.modelLinks[k])];
  collision::computeBodyDistances(body.body, distances, poses_);
}

int PosedBody::closestPair() const
{
  return collision::closestPair(distances);
}

double PosedBody::pairDistance(int pair) const
{
  return distances.pairDistances[static_cast<std::size_t>(pair)].distance;
}

std::string PosedBody::pairName(int pair) const
{
  const collision::ShapePair& shapes = body.body.pairs()[static_cast<std::size_t>(pair)];
  return body.body.shapes()[static_cast<std::size_t>(shapes.shapeA)].name + "-" +
         body.body.shapes()[static_cast<std::size_t>(shapes.shapeB)].name;
}
} // namespace nao
