#pragma once
// The one place that states the frames, units and signs of nao::stiffness (configuration stiffness after
// Woolfrey, Ajoudani, Lu, Natale: "Optimal configurations for stiffness and compliance in human & robot
// arms", PLOS ONE 2024). Equation numbers (Eq N) are the paper's.
//
// Chain: the URDF joints on the path from a BASE link to a TIP link, ordered base -> tip. q holds their own
// joint values (rad; m for prismatic joints); for a <mimic> joint on the chain that is its own value, not its
// master's. Only these joints are variables: the rest of the robot does not change anything below, because
// everything is expressed relative to the base link.
//
// Frames: every vector (joint axes, joint origins, tip point, Jacobian columns, directions, wrenches,
// ellipsoid axes) is expressed in the frame of the BASE link, which need not be the model's root.
// nao::kinematics returns root-frame quantities; the chain rotates them by R_root_base^T and measures
// positions from the base origin.
//
// Jacobian J (6 x n): the geometric Jacobian of the TIP POINT (the tip link's origin, or a point fixed in the
// tip link) relative to the base link. Column i = (linear velocity of the tip point, angular velocity of the
// tip link) per unit rate of chain joint i; rows linear (x, y, z: m/rad for revolute, 1 for prismatic
// joints), then angular (1 for revolute, 0 for prismatic joints). Revolute joint i with unit axis a_i through
// the point o_i: c_i = (a_i x (p - o_i), a_i) (Eq 9); prismatic: c_i = (a_i, 0); p: the tip point.
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
#include <Eigen/Core>

namespace nao::stiffness
{
using Vector6 = Eigen::Matrix<double, 6, 1>;
using Matrix6 = Eigen::Matrix<double, 6, 6>;
using Jacobian = Eigen::Matrix<double, 6, Eigen::Dynamic>; ///< 6 x n, rows linear then angular
} // namespace nao::stiffness
