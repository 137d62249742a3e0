#pragma once
// Joint torques that hold a posture: gravity with a fixed base, and a standing robot whose free-floating
// torso is carried by contact wrenches at the soles. Sign convention and frames: Conventions.h.
#include "Tools/Kinematics/Data.h"
#include "Tools/Kinematics/ForwardKinematics.h"
#include "Tools/Kinematics/Model.h"

#include <Eigen/Core>
#include <array>
#include <span>

namespace nao::kinematics
{
using TorqueVector = Eigen::Ref<Eigen::VectorXd>; ///< one entry per coordinate, N*m (N for prismatic joints)

/// What the environment exerts on the robot at `point`, all in the base frame.
struct ContactWrench
{
  int link = 0;                                     ///< the link it acts on: decides which joints carry it
  Eigen::Vector3d point = Eigen::Vector3d::Zero();  ///< m, point of application
  Eigen::Vector3d force = Eigen::Vector3d::Zero();  ///< N
  Eigen::Vector3d moment = Eigen::Vector3d::Zero(); ///< N*m, about `point`
};

/// G(q) with a fixed base; gravity in m/s^2 in the base frame. Updates body poses and the centre of mass.
void computeGravityTorques(const Model& model, Data& data, const JointVector& q,
                           const Eigen::Vector3d& gravity, TorqueVector tau);

/// tau = G(q) - sum_c J_c^T W_c. Updates body poses and the centre of mass.
void computeStaticTorques(const Model& model, Data& data, const JointVector& q,
                          const Eigen::Vector3d& gravity, std::span<const ContactWrench> contacts,
                          TorqueVector tau);

/// The two sole links of a biped, in the order left, right.
struct FeetSupport
{
  int leftSole = -1;
  int rightSole = -1;
  /// Throws ModelError if a link is missing.
  static FeetSupport fromLinks(const Model& model, std::string_view leftSole = "l_sole",
                               std::string_view rightSole = "r_sole");
};

/// How one sole carries the robot.
struct SoleLoad
{
  double weightFraction = 0.5;                                ///< share of the weight, both soles sum to 1
  Eigen::Vector2d centerOfPressure = Eigen::Vector2d::Zero(); ///< m, (x, y) in the sole frame
};
using SoleLoads = std::array<SoleLoad, 2>;         ///< left, right
using SoleWrenches = std::array<ContactWrench, 2>; ///< left, right

/// Sole wrenches that exactly balance gravity on the free robot: each sole pushes against gravity with its
/// share of the weight (fractions normalised to sum 1; both 0 means half each). Measured centres of pressure
/// rarely agree with the model's centre of mass, and a free torso cannot stand unless they do, so both are
/// shifted by the same vector (perpendicular to gravity) that puts the combined centre of pressure under the
/// centre of mass: the smallest change of the load-weighted CoPs that balances. No friction forces and no
/// moments about the vertical are applied. Needs the body poses and the centre of mass of the current
/// configuration.
SoleWrenches balanceSoleWrenches(const Model& model, const Data& data, const Eigen::Vector3d& gravity,
                                 const FeetSupport& feet, const SoleLoads& loads);

/// The static torques of a robot standing on both soles with the given loads: updateBodyPoses, the centre of
/// mass, balanceSoleWrenches, then tau = G(q) - sum J^T W. The result does not depend on which link is the
/// base.
void computeStandingTorques(const Model& model, Data& data, const JointVector& q,
                            const Eigen::Vector3d& gravity, const FeetSupport& feet, const SoleLoads& loads,
                            TorqueVector tau, SoleWrenches* wrenches = nullptr);
} // namespace nao::kinematics
