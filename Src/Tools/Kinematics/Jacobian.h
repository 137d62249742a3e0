#pragma once
// Point Jacobians and their derivatives with respect to the joint coordinates, from the body poses of the
// last updateBodyPoses() (or forwardKinematics()). Layout and frames: Conventions.h.
#include "Tools/Kinematics/Data.h"
#include "Tools/Kinematics/Model.h"

#include <Eigen/Core>

namespace nao::kinematics
{
using Jacobian = Eigen::Matrix<double, 6, Eigen::Dynamic>; ///< 6 x nq: rows linear (m/rad), then angular (1)

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
} // namespace nao::kinematics
