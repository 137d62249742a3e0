#include "Tools/Stiffness/Redundancy.h"

#include "Tools/Stiffness/ChainKinematics.h"

#include <Eigen/Geometry>
#include <algorithm>

namespace nao::stiffness
{
void computeRedundancyTorque(const Eigen::Ref<const Eigen::VectorXd>& gradient,
                             const Eigen::Ref<const Eigen::VectorXd>& qdot,
                             const RedundancyParameters& parameters, Eigen::Ref<Eigen::VectorXd> torque)
{
  torque = parameters.alpha * gradient - parameters.jointDamping * qdot;
}

int EndpointHold::count() const
{
  return static_cast<int>(std::count(rows.begin(), rows.end(), true));
}

Vector6 endpointError(const Workspace& workspace, const Eigen::Vector3d& targetPoint,
                      const Eigen::Matrix3d& targetRotation)
{
  Vector6 error;
  const Eigen::AngleAxisd turn(Eigen::Matrix3d(workspace.tipRotation * targetRotation.transpose()));
  error << workspace.tipPoint - targetPoint, turn.angle() * turn.axis();
  return error;
}

bool computeNullSpaceAcceleration(const Chain& chain, Workspace& workspace,
                                  const Eigen::Ref<const Eigen::MatrixXd>& inertia,
                                  const Eigen::Ref<const Eigen::VectorXd>& qdot, const Vector6& error,
                                  const Eigen::Ref<const Eigen::VectorXd>& redundancyTorque,
                                  const EndpointHold& hold, Eigen::Ref<Eigen::VectorXd> acceleration)
{
  const int m = hold.count();
  workspace.inertiaFactor.compute(inertia);
  if (workspace.inertiaFactor.info() != Eigen::Success) return false;
  if (m == 0)
  {
    acceleration = redundancyTorque;
    workspace.inertiaFactor.solveInPlace(acceleration);
    return true;
  }

  // Held rows and their desired acceleration b = xdd_h - (Jdot qdot)_h, xdd = -K_d J qdot - K_p e (Eq 44).
  const Vector6 velocityProduct = computeJacobianRateTimesVelocity(chain, workspace, qdot);
  const Vector6 endpointVelocity = workspace.jacobian * qdot;
  int row = 0;
  for (int r = 0; r < 6; ++r)
  {
    if (!hold.rows[static_cast<std::size_t>(r)]) continue;
    workspace.heldJacobian.row(row) = workspace.jacobian.row(r);
    workspace.taskRight[row] =
        -hold.damping * endpointVelocity[r] - hold.stiffness * error[r] - velocityProduct[r];
    ++row;
  }
  const auto held = workspace.heldJacobian.topRows(m);

  // A = J_h M^-1 J_h^T must be well conditioned, or the endpoint cannot be held.
  workspace.inverseInertiaHeldTranspose.leftCols(m) = held.transpose();
  workspace.inertiaFactor.solveInPlace(workspace.inverseInertiaHeldTranspose.leftCols(m));
  workspace.taskInertiaInverse.resize(m, m);
  workspace.taskInertiaInverse.noalias() = held * workspace.inverseInertiaHeldTranspose.leftCols(m);
  workspace.taskEigen.compute(workspace.taskInertiaInverse, Eigen::EigenvaluesOnly);
  const auto& eigenvalues = workspace.taskEigen.eigenvalues();
  if (!(eigenvalues[0] > hold.singularityRatio * eigenvalues[m - 1])) return false;
  workspace.taskFactor.compute(workspace.taskInertiaInverse);
  if (workspace.taskFactor.info() != Eigen::Success) return false;

  // Gauss' principle (Eq 42): qdd = y + M^-1 J_h^T lambda, y = M^-1 tau_r, A lambda = b - J_h y.
  workspace.freeAcceleration = redundancyTorque;
  workspace.inertiaFactor.solveInPlace(workspace.freeAcceleration);
  workspace.taskRight.head(m).noalias() -= held * workspace.freeAcceleration;
  workspace.taskFactor.solveInPlace(workspace.taskRight.head(m));
  acceleration = workspace.freeAcceleration;
  acceleration.noalias() += workspace.inverseInertiaHeldTranspose.leftCols(m) * workspace.taskRight.head(m);
  return true;
}

double heldRowsConditioning(const Workspace& workspace, int heldCount)
{
  if (heldCount == 0) return 1.0;
  const auto& eigenvalues = workspace.taskEigen.eigenvalues();
  return eigenvalues[heldCount - 1] > 0.0 ? eigenvalues[0] / eigenvalues[heldCount - 1] : 0.0;
}
} // namespace nao::stiffness
