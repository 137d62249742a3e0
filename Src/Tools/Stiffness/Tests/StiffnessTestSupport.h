#pragma once
// Test chains and independent references for the stiffness tests (here and in Util/StiffnessTool/Tests): random
// URDF chains, finite differences, relative poses from nao::kinematics.
#include "Tools/Kinematics/Jacobian.h"
#include "Tools/Kinematics/Model.h"
#include "Tools/Math/Pose.h"

#include <Eigen/Core>
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
kinematics::Matrix6 randomCartesianStiffness(std::mt19937& random);
kinematics::Vector6 randomVector6(std::mt19937& random);

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
} // namespace nao::stiffness::test
