#pragma once
// The configuration-stiffness metric p(q) (Eq 13), its gradient (Eq 14) and Hessian (Eq 15), the active and
// passive joint stiffness (Eq 6) and the Cartesian stiffness ellipsoid (Eq 5c). Every function reads the
// geometry of the last updateChain(); frames, units and signs: Conventions.h. All are allocation-free.
#include "Tools/Stiffness/Chain.h"
#include "Tools/Stiffness/Conventions.h"
#include "Tools/Stiffness/Workspace.h"

#include <Eigen/Core>

namespace nao::stiffness
{
/// The direction asked about and the Cartesian stiffness that turns it into a wrench.
struct StiffnessQuery
{
  Vector6 direction = Vector6::Zero();              ///< dx: m (linear), rad (angular); base frame
  Matrix6 cartesianStiffness = Matrix6::Identity(); ///< K_c, symmetric positive definite
  Vector6 wrench() const { return cartesianStiffness * direction; } ///< w = K_c dx: N, N*m
};

/// p = 1/2 |J^T K_c dx|^2 (Eq 13). Writes workspace.wrench and workspace.torques.
double computeMetric(const Chain& chain, Workspace& workspace, const StiffnessQuery& query);

/// p and its gradient dp/dq (n) with dx held constant (Eq 14): dp/dq = K_p^T tau, O(n^2). Also writes
/// workspace.passiveStiffness (K_p). Returns p.
double computeMetricGradient(const Chain& chain, Workspace& workspace, const StiffnessQuery& query,
                             Eigen::Ref<Eigen::VectorXd> gradient);

/// The Hessian d^2p/dq^2 (n x n, Eq 15): K_p^T K_p + sum_i tau_i d(K_p row i)/dq, O(n^3); uses dJ/dq (Eq 10),
/// which it leaves in workspace.jacobianDerivatives. Returns p.
double computeMetricHessian(const Chain& chain, Workspace& workspace, const StiffnessQuery& query,
                            Eigen::Ref<Eigen::MatrixXd> hessian);

/// Joint stiffness K_q = d tau / dq = K_a + K_p (Eq 6) for tau = J^T w, w = K_c dx: the active part
/// K_a = J^T K_c J (n x n) and the passive (configuration-dependent) part K_p = (dJ^T/dq) w (n x n), entry
/// (i, k) = w . dc_i/dq_k; N*m/rad (N/m, N/rad, N*m/m where prismatic joints take part).
void computeJointStiffness(const Chain& chain, Workspace& workspace, const StiffnessQuery& query,
                           Eigen::Ref<Eigen::MatrixXd> active, Eigen::Ref<Eigen::MatrixXd> passive);

/// Eigen-decomposition of S = K_c J J^T K_c (Eq 5c): p(dx) = 1/2 sum_i values_i (vectors.col(i) . dx)^2.
struct StiffnessEllipsoid
{
  Vector6 values = Vector6::Zero();  ///< ascending (>= 0 up to rounding): the first is the stiffest direction
  Matrix6 vectors = Matrix6::Zero(); ///< orthonormal columns, vectors.col(i) belongs to values[i]
  /// 1/sqrt(values[i]): principal radius of dx^T S dx = 1 (infinite for a zero eigenvalue).
  double radius(int i) const;
};
StiffnessEllipsoid computeStiffnessEllipsoid(const Workspace& workspace, const Matrix6& cartesianStiffness);

/// The ellipsoid of p over pure translations dx = (d, 0): the eigen-decomposition of the top-left 3 x 3 block
/// of S = K_c J J^T K_c, S_vv = W W^T with W the first three rows of K_c J, so that
/// p((d, 0)) = 1/2 sum_i values_i (vectors.col(i) . d)^2 for every d (m). This is the ellipsoid one draws at the
/// endpoint; it costs a 3 x 3 eigenproblem (closed form) instead of the 6 x 6 one. Uses
/// workspace.weightedJacobian as scratch.
struct TranslationalEllipsoid
{
  Eigen::Vector3d values = Eigen::Vector3d::Zero();  ///< ascending, (N*m)^2 per m^2 of deflection
  Eigen::Matrix3d vectors = Eigen::Matrix3d::Zero(); ///< orthonormal columns in the base frame
};
TranslationalEllipsoid computeTranslationalEllipsoid(Workspace& workspace, const Matrix6& cartesianStiffness);
} // namespace nao::stiffness
