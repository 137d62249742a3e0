#include "Util/StiffnessTool/Redundancy.h"

#include <Eigen/Geometry>
#include <algorithm>

namespace nao::stiffness
{
using kinematics::Vector6;

RedundancyWorkspace::RedundancyWorkspace(const Chain& chain)
    : inertiaFactor(chain.jointCount()), inverseInertiaHeldTranspose(chain.jointCount(), 6),
      heldJacobian(6, chain.jointCount()), taskInertiaInverse(6, 6), taskEigen(6), taskRight(6),
      inertiaRows(chain.jointCount(), chain.jointCount()), inertiaTarget(chain.jointCount()),
      noRows(0, chain.jointCount()), noBounds(0), solver({chain.jointCount(), 2, 6 + chain.jointCount(), 0})
{
}

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

bool computeNullSpaceAcceleration(const Chain& chain, const Workspace& workspace,
                                  RedundancyWorkspace& scratch,
                                  const Eigen::Ref<const Eigen::MatrixXd>& inertia,
                                  const Eigen::Ref<const Eigen::VectorXd>& qdot, const Vector6& error,
                                  const Eigen::Ref<const Eigen::VectorXd>& redundancyTorque,
                                  const EndpointHold& hold, Eigen::Ref<Eigen::VectorXd> acceleration)
{
  const int n = chain.jointCount();
  const int m = hold.count();
  scratch.inertiaFactor.compute(inertia);
  if (scratch.inertiaFactor.info() != Eigen::Success) return false;
  scratch.solver.clear(n);
  if (m > 0)
  {
    // Held rows and their desired acceleration b = xdd_h - (Jdot qdot)_h, xdd = -K_d J qdot - K_p e (Eq 44).
    const Vector6 velocityProduct = kinematics::computeJacobianRateTimesVelocity(workspace.jacobian, qdot);
    const Vector6 endpointVelocity = workspace.jacobian * qdot;
    int row = 0;
    for (int r = 0; r < 6; ++r)
    {
      if (!hold.rows[static_cast<std::size_t>(r)]) continue;
      scratch.heldJacobian.row(row) = workspace.jacobian.row(r);
      scratch.taskRight[row] =
          -hold.damping * endpointVelocity[r] - hold.stiffness * error[r] - velocityProduct[r];
      ++row;
    }
    const auto held = scratch.heldJacobian.topRows(m);

    // A = J_h M^-1 J_h^T must be well conditioned, or the endpoint cannot be held.
    scratch.inverseInertiaHeldTranspose.leftCols(m) = held.transpose();
    scratch.inertiaFactor.solveInPlace(scratch.inverseInertiaHeldTranspose.leftCols(m));
    scratch.taskInertiaInverse.resize(m, m);
    scratch.taskInertiaInverse.noalias() = held * scratch.inverseInertiaHeldTranspose.leftCols(m);
    scratch.taskEigen.compute(scratch.taskInertiaInverse, Eigen::EigenvaluesOnly);
    const auto& eigenvalues = scratch.taskEigen.eigenvalues();
    if (!(eigenvalues[0] > hold.singularityRatio * eigenvalues[m - 1])) return false;
    scratch.solver.addLevel(held, scratch.taskRight.head(m), scratch.noRows, scratch.noBounds,
                            scratch.noBounds);
  }

  // Gauss' principle (Eq 42) below the held rows, M = L L^T, y = M^-1 tau_r:
  //   |L^T qdd - L^-1 tau_r|^2 = (qdd - y)^T M (qdd - y).
  scratch.inertiaRows = scratch.inertiaFactor.matrixU();
  scratch.inertiaTarget = redundancyTorque;
  scratch.inertiaFactor.matrixL().solveInPlace(scratch.inertiaTarget);
  scratch.solver.addLevel(scratch.inertiaRows, scratch.inertiaTarget, scratch.noRows, scratch.noBounds,
                          scratch.noBounds);
  if (scratch.solver.solve() != taskstack::HqpStatus::optimal) return false;
  acceleration = scratch.solver.solution();
  return true;
}

double heldRowsConditioning(const RedundancyWorkspace& scratch, int heldCount)
{
  if (heldCount == 0) return 1.0;
  const auto& eigenvalues = scratch.taskEigen.eigenvalues();
  return eigenvalues[heldCount - 1] > 0.0 ? eigenvalues[0] / eigenvalues[heldCount - 1] : 0.0;
}
} // namespace nao::stiffness
