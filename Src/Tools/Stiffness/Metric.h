#pragma once
// The configuration-stiffness metric p(q) (Eq 13), its gradient (Eq 14) and Hessian (Eq 15), the active and
// passive joint stiffness (Eq 6) and the Cartesian stiffness ellipsoid (Eq 5c). Every function reads the
// geometry of the last updateChain(); frames and the Jacobian: Chain.h. All are allocation-free.
//
// Direction dx (6-vector): a small deflection of the endpoint, (m, m, m, rad, rad, rad), linear then angular,
// base frame. It is used as given (not normalised): p is quadratic in dx.
// Cartesian stiffness K_c (6 x 6, symmetric positive definite): the restoring wrench per deflection,
// w = K_c dx (Eq 1): force (N) then moment (N*m). Identity by default (p then measures the geometry alone).
// Joint torques tau = J^T w (Eq 4b), N*m for revolute and N for prismatic joints: what the joints must hold
// so that the endpoint resists the deflection.
//
// The metric (Eq 13): p(q) = 1/2 dx^T K_c J J^T K_c dx = 1/2 |tau|^2, in (N*m)^2 (mixed with N^2 when the
// chain has prismatic joints). SMALL p = STIFF in dx: the deflection needs little joint torque, so the joints
// barely deflect under the matching load; p = 0 when J^T w = 0 (Eq 16, a singular configuration). LARGE p =
// COMPLIANT.
//
// Stiffness ellipsoid (Eq 5c): the eigen-decomposition of S = K_c J J^T K_c (6 x 6), so that
// p = 1/2 sum_i lambda_i (v_i . dx)^2. Eigenvalues ascending: the first eigenvector is the stiffest
// direction. The level set dx^T S dx = 1 has principal radii 1/sqrt(lambda_i): the longest radius is the
// stiffest direction (infinite at a singularity, the paper's Fig 2).
#include "Tools/Kinematics/Jacobian.h"
#include "Tools/Stiffness/Chain.h"
#include "Tools/Stiffness/Workspace.h"

#include <Eigen/Core>

namespace nao::stiffness
{
/// The direction asked about and the Cartesian stiffness that turns it into a wrench.
struct StiffnessQuery
{
  /// dx: m (linear), rad (angular); base frame
  kinematics::Vector6 direction = kinematics::Vector6::Zero();
  /// K_c, symmetric positive definite
  kinematics::Matrix6 cartesianStiffness = kinematics::Matrix6::Identity();
  /// w = K_c dx: N, N*m
  kinematics::Vector6 wrench() const { return cartesianStiffness * direction; }
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
  /// Ascending (>= 0 up to rounding): the first is the stiffest direction.
  kinematics::Vector6 values = kinematics::Vector6::Zero();
  /// Orthonormal columns, vectors.col(i) belongs to values[i].
  kinematics::Matrix6 vectors = kinematics::Matrix6::Zero();
  /// 1/sqrt(values[i]): principal radius of dx^T S dx = 1 (infinite for a zero eigenvalue).
  double radius(int i) const;
};
StiffnessEllipsoid computeStiffnessEllipsoid(const Workspace& workspace,
                                             const kinematics::Matrix6& cartesianStiffness);

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
TranslationalEllipsoid computeTranslationalEllipsoid(Workspace& workspace,
                                                     const kinematics::Matrix6& cartesianStiffness);
} // namespace nao::stiffness
