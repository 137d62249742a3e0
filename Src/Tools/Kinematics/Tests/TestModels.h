#pragma once
// Robots and independent reference computations shared by the kinematics tests.
#include "Tools/Kinematics/Data.h"
#include "Tools/Kinematics/Model.h"
#include "Tools/Math/Pose.h"
#include "Tools/Testing/NaoUrdf.h"

#include <Eigen/Core>
#include <array>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace nao::kinematics::test
{
using nao::test::naoUrdfPath; ///< Config/Robots/Default/nao-v6.urdf
/// The 25 LoLA joints (lola.md section 4), the coordinate order the framework uses.
const std::vector<std::string>& lolaJointOrder();
Model loadNao();

/// UR3 written from its standard DH parameters (the test's own DH table below).
struct DhRow
{
  double d, a, alpha; ///< m, m, rad
};
const std::array<DhRow, 6>& ur3Dh();
/// Link masses (kg) and CoMs (m, in DH frame i) of the UR3, as published by Universal Robots.
const std::array<double, 6>& ur3Masses();
const std::array<Eigen::Vector3d, 6>& ur3CentersOfMass();
std::string ur3Urdf();
/// DH frame i (0 = base, 6 = tool flange) for joint angles theta: prod_{k<=i} Rz(theta_k) Tz(d_k) Tx(a_k)
/// Rx(alpha_k).
math::Pose ur3DhFrame(const Eigen::VectorXd& theta, int frame);

/// Planar arm: 4 revolute joints about y, links along x of the given lengths, point masses at mid-link.
inline constexpr std::array<double, 4> planarLengths{0.3, 0.25, 0.2, 0.15};
inline constexpr std::array<double, 4> planarMasses{2.0, 1.5, 1.0, 0.5};
std::string planarArmUrdf();

/// A branched test robot exercising every code path: prismatic joint, general and negative axes, rotated
/// joint placements, a continuous joint, a mimic with multiplier and offset, and masses on fixed links.
std::string mixedRobotUrdf();

/// Uniform within the limits (continuous joints: [-pi, pi]).
Eigen::VectorXd randomConfiguration(const Model& model, std::mt19937& random);

/// Potential energy V = -sum_links m g . c (J) computed from the link poses and the links' own URDF
/// inertials, i.e. without the body merging the algorithms use.
double potentialEnergy(const Model& model, Data& data, const Eigen::VectorXd& q,
                       const Eigen::Vector3d& gravity);

/// Central finite difference of a scalar or vector function of q along coordinate k.
Eigen::VectorXd centralDifference(const std::function<Eigen::VectorXd(const Eigen::VectorXd&)>& f,
                                  const Eigen::VectorXd& q, int k, double step);

/// Angular velocity vector w with (R(q + h e_k) - R(q - h e_k)) / 2h = [w]x R(q).
Eigen::Vector3d rotationDifference(const Eigen::Matrix3d& plus, const Eigen::Matrix3d& minus,
                                   const Eigen::Matrix3d& center, double step);
} // namespace nao::kinematics::test
