#pragma once
// Point Jacobians and their derivatives with respect to the joint coordinates, from the body poses of the
// last updateBodyPoses() (or forwardKinematics()); the derivatives of a path's Jacobian from its columns alone.
// Layout and frames: Conventions.h.
#include "Tools/Kinematics/Data.h"
#include "Tools/Kinematics/Model.h"

#include <Eigen/Core>

namespace nao::kinematics
{
using Jacobian = Eigen::Matrix<double, 6, Eigen::Dynamic>; ///< 6 x nq: rows linear (m/rad), then angular (1)
/// A 6-vector in the Jacobian's row order, linear then angular: a velocity (m/s, rad/s), a small displacement
/// (m, rad), a wrench (force N, moment N*m).
using Vector6 = Eigen::Matrix<double, 6, 1>;
using Matrix6 = Eigen::Matrix<double, 6, 6>; ///< maps Vector6 to Vector6 (e.g. a Cartesian stiffness)

/// jacobian (6 x nq) of the point `pointInLink` (m, link frame) of link `link`.
void computePointJacobian(const Model& model, const Data& data, int link, const Eigen::Vector3d& pointInLink,
                          Eigen::Ref<Jacobian> jacobian);

/// derivative (6 x nq) = d(jacobian)/d(q[coordinate]) of the same point.
void computeJacobianDerivative(const Model& model, Data& data, int link, const Eigen::Vector3d& pointInLink,
                               int coordinate, Eigen::Ref<Jacobian> derivative);

/// All derivatives at once: derivatives is 6 x (nq * nq), columns [k * nq, (k + 1) * nq) hold
/// d(jacobian)/dq_k.
void computeJacobianDerivatives(const Model& model, Data& data, int link, const Eigen::Vector3d& pointInLink,
                                Eigen::Ref<Jacobian> derivatives);

/// The same from a path's Jacobian alone: `jacobian` (6 x n) holds the columns of n joints on one path from the
/// base outwards (column k is nearer the base than column i when k < i), each per unit of that joint's own value,
/// about one point, in one frame (a chain's Jacobian in its base link's frame, say). Column i = (v_i, w_i), w = 0
/// for a prismatic joint; block k of derivatives (6 x n^2, columns [k * n, (k + 1) * n)) is dJ/dq_k:
///   k <= i: dc_i/dq_k = (w_k x v_i, w_k x w_i)   (joint k turns joint i and the point rigidly)
///   k > i:  dc_i/dq_k = (w_i x v_k, 0)           (joint k moves only the point, by v_k)
/// Allocation-free.
void computeJacobianDerivatives(const Eigen::Ref<const Jacobian>& jacobian, Eigen::Ref<Jacobian> derivatives);

/// (dJ/dt) qdot = sum_k qdot_k (dJ/dq_k) qdot of a path's Jacobian as above, without forming dJ/dq: O(n).
/// qdot: the path joints' rates (rad/s, m/s). Allocation-free.
Vector6 computeJacobianRateTimesVelocity(const Eigen::Ref<const Jacobian>& jacobian,
                                         const Eigen::Ref<const Eigen::VectorXd>& qdot);
} // namespace nao::kinematics
