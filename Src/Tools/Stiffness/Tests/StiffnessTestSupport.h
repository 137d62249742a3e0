#pragma once
// Test chains and independent references for the stiffness tests: random URDF chains, finite differences,
// the UR3's own DH forward kinematics and its analytic inverse kinematics (derived in Ur3Kinematics.cpp).
#include "Tools/Kinematics/Model.h"
#include "Tools/Math/Pose.h"
#include "Tools/Stiffness/Conventions.h"

#include <Eigen/Core>
#include <array>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace nao::stiffness::test
{
/// A file in Src/Tools/Stiffness/Tests/Data.
std::string dataPath(const std::string& name);

/// A serial chain "world" -(fixed, rotated)- "mount" - joint0 - link0 - ... - joint{n-1} - link{n-1}
/// -(fixed)- "tool", with random origins, rotations and axes (some axis-aligned, some general, some
/// negative), revolute and prismatic joints mixed (at least one of each), and a side branch off link1 so that
/// the model is a tree.
std::string randomChainUrdf(int jointCount, unsigned seed);

/// Uniform in [-range, range] per joint (rad, m).
Eigen::VectorXd randomJointValues(int count, double range, std::mt19937& random);

/// A random symmetric positive definite 6 x 6 matrix (eigenvalues in about [0.5, 10]).
Matrix6 randomCartesianStiffness(std::mt19937& random);
Vector6 randomVector6(std::mt19937& random);

/// (f(q + h e_k) - f(q - h e_k)) / 2h.
Eigen::VectorXd centralDifference(const std::function<Eigen::VectorXd(const Eigen::VectorXd&)>& f,
                                  const Eigen::VectorXd& q, int k, double step);

/// w with (R+ - R-) / 2h = [w]x R0: the angular velocity from rotation differences.
Eigen::Vector3d angularVelocityFromDifference(const Eigen::Matrix3d& plus, const Eigen::Matrix3d& minus,
                                              const Eigen::Matrix3d& center, double step);

/// Pose of `tipLink` relative to `baseLink` from nao::kinematics forward kinematics of the whole model, with
/// the chain joints (by name) set to q: independent of the stiffness library's own frame changes.
math::Pose relativeLinkPose(const kinematics::Model& model, const std::vector<std::string>& jointNames,
                            const Eigen::VectorXd& q, const std::string& baseLink,
                            const std::string& tipLink);

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
