#pragma once
// Everything the stiffness algorithms compute or need as scratch, allocated once per Chain: after the
// constructor, no function documented as allocation-free allocates (checked by NoAllocationTests). All vectors
// are in the base link's frame (Chain.h).
#include "Tools/Kinematics/Data.h"
#include "Tools/Kinematics/Jacobian.h"
#include "Tools/Math/Pose.h"
#include "Tools/Stiffness/Chain.h"

#include <Eigen/Core>

namespace nao::stiffness
{
struct Workspace
{
  explicit Workspace(const Chain& chain);

  kinematics::Data kinematics;
  Eigen::VectorXd modelConfiguration; ///< q of the whole model; coordinates off the chain stay 0

  // Written by updateChain().
  Eigen::VectorXd q;             ///< chain joint values of the last update, rad (m)
  math::Pose basePose;           ///< base link in the model's root frame
  Eigen::Matrix3Xd axes;         ///< 3 x n unit joint axes a_i
  Eigen::Matrix3Xd origins;      ///< 3 x n, m: joint frame origins o_i (on the axis)
  Eigen::Vector3d tipPoint;      ///< m: the Jacobian's reference point p
  Eigen::Matrix3d tipRotation;   ///< tip link frame
  kinematics::Jacobian jacobian; ///< 6 x n (Eq 9)

  // Written by the metric functions (Metric.h).
  kinematics::Vector6 wrench = kinematics::Vector6::Zero(); ///< w = K_c dx: force (N), moment (N*m)
  Eigen::VectorXd torques;                                  ///< n: tau = J^T w
  Eigen::Matrix3Xd torqueLevers;                            ///< 3 x n scratch: u_i = v_i x f + omega_i x m
  Eigen::Matrix3Xd forceCrossAxes;                          ///< 3 x n scratch: s_i = f x omega_i
  Eigen::MatrixXd passiveStiffness;         ///< n x n: K_p = (dJ^T/dq) w (Eq 6), entry (i, k) = w . dc_i/dq_k
  kinematics::Jacobian jacobianDerivatives; ///< 6 x n^2: block k = dJ/dq_k (Eq 10)
  Eigen::Matrix3Xd leverDerivatives;        ///< 3 x n^2 scratch: du_i/dq_l at column l * n + i
  Eigen::Matrix3Xd crossDerivatives;        ///< 3 x n^2 scratch: ds_i/dq_l at column l * n + i
  kinematics::Jacobian weightedJacobian;    ///< 6 x n scratch: K_c J
};
} // namespace nao::stiffness
