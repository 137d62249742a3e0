#include "Tools/Stiffness/Metric.h"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <limits>

namespace nao::stiffness
{
using kinematics::Jacobian;
using kinematics::Matrix6;

namespace
{
/// Fills the levers u_i = v_i x f + omega_i x m and s_i = f x omega_i, then K_p (i, k) = w . dc_i/dq_k:
///   k <= i: f . (omega_k x v_i) + m . (omega_k x omega_i) = omega_k . u_i
///   k > i:  f . (omega_i x v_k) = v_k . s_i
void updatePassiveStiffness(int n, Workspace& workspace)
{
  const Jacobian& j = workspace.jacobian;
  const Eigen::Vector3d force = workspace.wrench.head<3>();
  const Eigen::Vector3d moment = workspace.wrench.tail<3>();
  for (int i = 0; i < n; ++i)
  {
    workspace.torqueLevers.col(i) = j.col(i).head<3>().cross(force) + j.col(i).tail<3>().cross(moment);
    workspace.forceCrossAxes.col(i) = force.cross(j.col(i).tail<3>());
  }
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k)
      workspace.passiveStiffness(i, k) = k <= i ? j.col(k).tail<3>().dot(workspace.torqueLevers.col(i))
                                                : j.col(k).head<3>().dot(workspace.forceCrossAxes.col(i));
}
} // namespace

double computeMetric(const Chain&, Workspace& workspace, const StiffnessQuery& query)
{
  workspace.wrench.noalias() = query.cartesianStiffness * query.direction;
  workspace.torques.noalias() = workspace.jacobian.transpose() * workspace.wrench;
  return 0.5 * workspace.torques.squaredNorm();
}

double computeMetricGradient(const Chain& chain, Workspace& workspace, const StiffnessQuery& query,
                             Eigen::Ref<Eigen::VectorXd> gradient)
{
  const double p = computeMetric(chain, workspace, query);
  updatePassiveStiffness(chain.jointCount(), workspace);
  // dp/dq_k = sum_i tau_i d tau_i/dq_k and d tau_i/dq_k = w . dc_i/dq_k = K_p (i, k).
  gradient.noalias() = workspace.passiveStiffness.transpose() * workspace.torques;
  return p;
}

double computeMetricHessian(const Chain& chain, Workspace& workspace, const StiffnessQuery& query,
                            Eigen::Ref<Eigen::MatrixXd> hessian)
{
  const int n = chain.jointCount();
  const double p = computeMetric(chain, workspace, query);
  updatePassiveStiffness(n, workspace);
  kinematics::computeJacobianDerivatives(workspace.jacobian, workspace.jacobianDerivatives);
  const Jacobian& j = workspace.jacobian;
  const Jacobian& dj = workspace.jacobianDerivatives; // column l * n + i: dc_i/dq_l
  const Eigen::Vector3d force = workspace.wrench.head<3>();
  const Eigen::Vector3d moment = workspace.wrench.tail<3>();
  for (int l = 0; l < n; ++l)
    for (int i = 0; i < n; ++i)
    {
      const auto d = dj.col(l * n + i);
      workspace.leverDerivatives.col(l * n + i) = d.head<3>().cross(force) + d.tail<3>().cross(moment);
      workspace.crossDerivatives.col(l * n + i) = force.cross(d.tail<3>());
    }
  // d^2p/dq_k dq_l = sum_i K_p(i,k) K_p(i,l) + tau_i dK_p(i,k)/dq_l, where (product rule on the two cases of
  // K_p(i, k)):
  //   k <= i: dK_p(i,k)/dq_l = (d omega_k/dq_l) . u_i + omega_k . du_i/dq_l
  //   k > i:  dK_p(i,k)/dq_l = (d v_k/dq_l) . s_i + v_k . ds_i/dq_l
  hessian.noalias() = workspace.passiveStiffness.transpose() * workspace.passiveStiffness;
  for (int k = 0; k < n; ++k)
    for (int l = 0; l < n; ++l)
    {
      double sum = 0.0;
      const auto dk = dj.col(l * n + k); // dc_k/dq_l
      for (int i = 0; i < n; ++i)
      {
        const double term = k <= i ? dk.tail<3>().dot(workspace.torqueLevers.col(i)) +
                                         j.col(k).tail<3>().dot(workspace.leverDerivatives.col(l * n + i))
                                   : dk.head<3>().dot(workspace.forceCrossAxes.col(i)) +
                                         j.col(k).head<3>().dot(workspace.crossDerivatives.col(l * n + i));
        sum += workspace.torques[i] * term;
      }
      hessian(k, l) += sum;
    }
  return p;
}

void computeJointStiffness(const Chain& chain, Workspace& workspace, const StiffnessQuery& query,
                           Eigen::Ref<Eigen::MatrixXd> active, Eigen::Ref<Eigen::MatrixXd> passive)
{
  computeMetric(chain, workspace, query);
  updatePassiveStiffness(chain.jointCount(), workspace);
  workspace.weightedJacobian.noalias() = query.cartesianStiffness * workspace.jacobian;
  active.noalias() = workspace.jacobian.transpose() * workspace.weightedJacobian;
  passive = workspace.passiveStiffness;
}

double StiffnessEllipsoid::radius(int i) const
{
  const double value = values[i];
  return value > 0.0 ? 1.0 / std::sqrt(value) : std::numeric_limits<double>::infinity();
}

StiffnessEllipsoid computeStiffnessEllipsoid(const Workspace& workspace, const Matrix6& cartesianStiffness)
{
  Matrix6 forceEllipsoid;
  forceEllipsoid.noalias() = workspace.jacobian * workspace.jacobian.transpose(); // J J^T (Eq 5b)
  const Matrix6 stiffness = cartesianStiffness * forceEllipsoid * cartesianStiffness;
  // Symmetrise against rounding so the solver sees exactly what it assumes.
  const Matrix6 symmetric = 0.5 * (stiffness + stiffness.transpose());
  const Eigen::SelfAdjointEigenSolver<Matrix6> solver(symmetric);
  return {solver.eigenvalues(), solver.eigenvectors()};
}

TranslationalEllipsoid computeTranslationalEllipsoid(Workspace& workspace, const Matrix6& cartesianStiffness)
{
  workspace.weightedJacobian.noalias() = cartesianStiffness * workspace.jacobian; // K_c J
  Eigen::Matrix3d block;
  block.noalias() =
      workspace.weightedJacobian.topRows<3>() * workspace.weightedJacobian.topRows<3>().transpose();
  // The closed form (Eigen's computeDirect: roots of the characteristic cubic, then cross products) instead of
  // the iterative QR: no loop whose length depends on the data; the test compares the two (1e-9).
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> solver;
  solver.computeDirect(block);
  return {solver.eigenvalues(), solver.eigenvectors()};
}
} // namespace nao::stiffness
