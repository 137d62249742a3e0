#include "Tools/Stiffness/Workspace.h"

namespace nao::stiffness
{
Workspace::Workspace(const Chain& chain)
    : kinematics(chain.model()), modelConfiguration(Eigen::VectorXd::Zero(chain.model().coordinateCount())),
      q(Eigen::VectorXd::Zero(chain.jointCount())), axes(3, chain.jointCount()),
      origins(3, chain.jointCount()), tipPoint(Eigen::Vector3d::Zero()),
      tipRotation(Eigen::Matrix3d::Identity()), jacobian(6, chain.jointCount()), torques(chain.jointCount()),
      torqueLevers(3, chain.jointCount()), forceCrossAxes(3, chain.jointCount()),
      passiveStiffness(chain.jointCount(), chain.jointCount()),
      jacobianDerivatives(6, chain.jointCount() * chain.jointCount()),
      leverDerivatives(3, chain.jointCount() * chain.jointCount()),
      crossDerivatives(3, chain.jointCount() * chain.jointCount()), weightedJacobian(6, chain.jointCount())
{
  axes.setZero();
  origins.setZero();
  jacobian.setZero();
}
} // namespace nao::stiffness
