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
      crossDerivatives(3, chain.jointCount() * chain.jointCount()), weightedJacobian(6, chain.jointCount()),
      inertiaFactor(chain.jointCount()), freeAcceleration(chain.jointCount()),
      inverseInertiaHeldTranspose(chain.jointCount(), 6), heldJacobian(6, chain.jointCount()),
      taskInertiaInverse(6, 6), taskFactor(6), taskEigen(6), taskRight(6)
{
  axes.setZero();
  origins.setZero();
  jacobian.setZero();
}
} // namespace nao::stiffness
