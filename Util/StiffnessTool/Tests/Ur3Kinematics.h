#pragma once
// The UR3 of the paper's ranking (Fig 11): its published standard DH parameters, their forward kinematics, its
// analytic inverse kinematics (derived in Ur3Kinematics.cpp) and a Jacobian by central differences, all
// independent of nao::kinematics and nao::stiffness; Data/ holds the URDF written from the same table.
#include "Tools/Math/Pose.h"

#include <Eigen/Core>
#include <array>
#include <string>
#include <vector>

namespace nao::stiffness::test
{
/// A file in Util/StiffnessTool/Tests/Data (the UR3 and the planar arm's configurations).
std::string toolDataPath(const std::string& name);

/// The UR3's standard DH parameters (Universal Robots).
struct DhRow
{
  double d, a, alpha; ///< m, m, rad
};
const std::array<DhRow, 6>& ur3Dh();
/// A_i = Rz(theta) Tz(d_i) Tx(a_i) Rx(alpha_i) of joint i (0-based).
math::Pose ur3DhStep(int joint, double theta);
/// DH frame `frame` (0 = base, 6 = flange) = prod_{i<=frame} Rz(theta_i) Tz(d_i) Tx(a_i) Rx(alpha_i).
math::Pose ur3DhFrame(const Eigen::VectorXd& theta, int frame);
/// All 8 analytic inverse kinematics solutions of a flange pose (joint angles in (-pi, pi]); fewer if the
/// pose is out of reach or at a wrist or shoulder singularity.
std::vector<Eigen::VectorXd> ur3InverseKinematics(const math::Pose& flange);
/// 6 x 6 Jacobian of the flange by central differences of ur3DhFrame (independent of both libraries).
Eigen::Matrix<double, 6, 6> ur3DifferenceJacobian(const Eigen::VectorXd& theta, double step);
} // namespace nao::stiffness::test
