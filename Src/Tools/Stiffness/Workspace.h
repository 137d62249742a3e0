#pragma once
// Everything the stiffness algorithms compute or need as scratch, allocated once per Chain: after the
// constructor, no function documented as allocation-free allocates (checked by NoAllocationTests). All vectors
// are in the base link's frame (Conventions.h).
#include "Tools/Kinematics/Data.h"
#include "Tools/Math/Pose.h"
#include "Tools/Stiffness/Chain.h"
#include "Tools/Stiffness/Conventions.h"

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/Eigenvalues>

namespace nao::stiffness
{
/// At most 6 held endpoint rows: small matrices live on the stack.
using TaskMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>;
using TaskVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 6, 1>;

struct Workspace
{
  explicit Workspace(const Chain& chain);

  kinematics::Data kinematics;
  Eigen::VectorXd modelConfiguration; ///< q of the whole model; coordinates off the chain stay 0

  // Written by updateChain().
  Eigen::VectorXd q;           ///< chain joint values of the last update, rad (m)
  math::Pose basePose;         ///< base link in the model's root frame
  Eigen::Matrix3Xd axes;       ///< 3 x n unit joint axes a_i
  Eigen::Matrix3Xd origins;    ///< 3 x n, m: joint frame origins o_i (on the axis)
  Eigen::Vector3d tipPoint;    ///< m: the Jacobian's reference point p
  Eigen::Matrix3d tipRotation; ///< tip link frame
  Jacobian jacobian;           ///< 6 x n (Eq 9)

  // Written by the metric functions (Metric.h).
  Vector6 wrench = Vector6::Zero();  ///< w = K_c dx: force (N), moment (N*m)
  Eigen::VectorXd torques;           ///< n: tau = J^T w
  Eigen::Matrix3Xd torqueLevers;     ///< 3 x n scratch: u_i = v_i x f + omega_i x m
  Eigen::Matrix3Xd forceCrossAxes;   ///< 3 x n scratch: s_i = f x omega_i
  Eigen::MatrixXd passiveStiffness;  ///< n x n: K_p = (dJ^T/dq) w (Eq 6), entry (i, k) = w . dc_i/dq_k
  Jacobian jacobianDerivatives;      ///< 6 x n^2: block k = dJ/dq_k (Eq 10)
  Eigen::Matrix3Xd leverDerivatives; ///< 3 x n^2 scratch: du_i/dq_l at column l * n + i
  Eigen::Matrix3Xd crossDerivatives; ///< 3 x n^2 scratch: ds_i/dq_l at column l * n + i
  Jacobian weightedJacobian;         ///< 6 x n scratch: K_c J

  // Scratch of the redundancy resolution (Redundancy.h).
  Eigen::LLT<Eigen::MatrixXd> inertiaFactor;   ///< of the joint-space inertia M
  Eigen::VectorXd freeAcceleration;            ///< n: M^-1 tau_r
  Eigen::MatrixXd inverseInertiaHeldTranspose; ///< n x 6: M^-1 J_h^T (first m columns used)
  Jacobian heldJacobian;                       ///< 6 x n: the held rows J_h (first m rows used)
  TaskMatrix taskInertiaInverse;               ///< m x m: J_h M^-1 J_h^T
  Eigen::LLT<TaskMatrix> taskFactor;
  Eigen::SelfAdjointEigenSolver<TaskMatrix> taskEigen;
  TaskVector taskRight;
};
} // namespace nao::stiffness
