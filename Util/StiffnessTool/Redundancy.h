#pragma once
// Redundancy resolution toward stiffness or compliance (Eqs 39-44): a joint torque along the metric's
// gradient acts only in the null space of the held endpoint rows, so a redundant chain reconfigures while its
// endpoint stays put. Gauss' principle (Eq 41-42) is a two-level least-squares hierarchy, solved by
// nao::taskstack::HqpSolver; derivation in README.md. Frames and units: Tools/Stiffness/Chain.h.
#include "Tools/Kinematics/Jacobian.h"
#include "Tools/Stiffness/Chain.h"
#include "Tools/Stiffness/RedundancyParameters.h"
#include "Tools/Stiffness/Workspace.h"
#include "Tools/TaskStack/HqpSolver.h"

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/Eigenvalues>
#include <array>

namespace nao::stiffness
{
/// At most 6 held endpoint rows: small matrices live on the stack.
using TaskMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>;
using TaskVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 6, 1>;

/// Scratch of computeNullSpaceAcceleration for one chain, allocated once: after it exists, the function does not
/// allocate.
struct RedundancyWorkspace
{
  explicit RedundancyWorkspace(const Chain& chain);

  Eigen::LLT<Eigen::MatrixXd> inertiaFactor;   ///< of the joint-space inertia M = L L^T
  Eigen::MatrixXd inverseInertiaHeldTranspose; ///< n x 6: M^-1 J_h^T (first m columns used)
  kinematics::Jacobian heldJacobian;           ///< 6 x n: the held rows J_h (first m rows used)
  TaskMatrix taskInertiaInverse;               ///< m x m: J_h M^-1 J_h^T
  Eigen::SelfAdjointEigenSolver<TaskMatrix> taskEigen;
  TaskVector taskRight;          ///< m: the held rows' desired acceleration b
  Eigen::MatrixXd inertiaRows;   ///< n x n: L^T, the rows of the lower level
  Eigen::VectorXd inertiaTarget; ///< n: L^-1 tau_r, their target
  Eigen::MatrixXd noRows;        ///< 0 x n: a level without inequality rows
  Eigen::VectorXd noBounds;      ///< 0
  taskstack::HqpSolver solver;   ///< n variables, 2 levels, 6 + n equality rows
};

/// tau_r = alpha dp/dq - k_d qdot (Eq 43), n entries. Allocation-free.
void computeRedundancyTorque(const Eigen::Ref<const Eigen::VectorXd>& gradient,
                             const Eigen::Ref<const Eigen::VectorXd>& qdot,
                             const RedundancyParameters& parameters, Eigen::Ref<Eigen::VectorXd> torque);

/// Which endpoint rows the primary task holds, and how (Eq 44 with w = 0: xdd = -K_d xdot - K_p e).
struct EndpointHold
{
  std::array<bool, 6> rows{true, true, true, false, false, false}; ///< x, y, z, rx, ry, rz of the base frame
  double stiffness = 400.0;                                        ///< K_p, 1/s^2
  double damping = 40.0;                                           ///< K_d, 1/s
  /// The held rows count as singular when the smallest eigenvalue of J_h M^-1 J_h^T is below this fraction of
  /// the largest (1).
  double singularityRatio = 1e-9;
  int count() const;
};

/// Deviation of the tip from a target, (m, rad): position difference and the rotation vector of
/// R_tip R_target^T, base frame. Allocation-free.
kinematics::Vector6 endpointError(const Workspace& workspace, const Eigen::Vector3d& targetPoint,
                                  const Eigen::Matrix3d& targetRotation);

/// Joint accelerations (rad/s^2, m/s^2) of Eq 42 with the task acceleration of Eq 44:
///   qdd = J_M^+ (xdd_h - Jdot_h qdot) + (I - J_M^+ J_h) M^-1 tau_r,  J_M^+ = M^-1 J_h^T (J_h M^-1 J_h^T)^-1,
/// J_h: the held rows of J (of the last updateChain()). inertia: M (n x n, symmetric positive definite, kg*m^2).
/// error: endpointError(). Solved as the hierarchy level 0: J_h qdd = xdd_h - Jdot_h qdot, level 1:
/// L^T qdd = L^-1 tau_r (M = L L^T, so that level 1 minimises (qdd - M^-1 tau_r)^T M (qdd - M^-1 tau_r)).
/// Returns false (and leaves acceleration unchanged) if the held rows are singular (EndpointHold), M is not
/// positive definite or the solver does not reach its optimum. Allocation-free.
bool computeNullSpaceAcceleration(const Chain& chain, const Workspace& workspace,
                                  RedundancyWorkspace& scratch,
                                  const Eigen::Ref<const Eigen::MatrixXd>& inertia,
                                  const Eigen::Ref<const Eigen::VectorXd>& qdot,
                                  const kinematics::Vector6& error,
                                  const Eigen::Ref<const Eigen::VectorXd>& redundancyTorque,
                                  const EndpointHold& hold, Eigen::Ref<Eigen::VectorXd> acceleration);

/// Smallest over largest eigenvalue of J_h M^-1 J_h^T after computeNullSpaceAcceleration (1 = isotropic).
double heldRowsConditioning(const RedundancyWorkspace& scratch, int heldCount);
} // namespace nao::stiffness
