#pragma once
// Task features s(q) with their Jacobians ds/dq, the vocabulary of a Stack of Tasks on the NAO (seed 003: a task
// e = s(q) - s* regulated by de/dt = -gain e). Everything a whole-body task needs is relative to a reference
// link: with the torso as the kinematic base, "the hand in the world" is the hand seen from the support foot,
// "the feet fixed on the floor" is one foot seen from the other, and "the centre of mass over the support
// polygon" is the centre of mass seen from the support foot.
//
// Poses and the centre of mass come from nao::kinematics::Data (forwardKinematics(), updateCenterOfMass() at
// the same q); units SI, Jacobian columns per Model coordinate (rad, m). Nothing allocates after the scratch.
#include "Tools/Kinematics/Data.h"
#include "Tools/Kinematics/Jacobian.h"
#include "Tools/Kinematics/Model.h"

#include <Eigen/Core>

namespace nao::taskstack
{
using FeatureJacobian = Eigen::Matrix<double, 3, Eigen::Dynamic>; ///< 3 x nq

/// Two point Jacobians (6 x nq) of scratch, allocated once.
struct FeatureScratch
{
  explicit FeatureScratch(int coordinates) : a(6, coordinates), b(6, coordinates) {}
  kinematics::Jacobian a, b;
};

/// The point `pointInLink` (m, frame of `link`) seen from the frame of link `reference`: s = R_F^T (p - o_F)
/// (m), and J = R_F^T (J_L(p) - J_F(p)) (m/rad): the point's velocity relative to F, in F.
Eigen::Vector3d relativePosition(const kinematics::Model& model, const kinematics::Data& data, int link,
                                 const Eigen::Vector3d& pointInLink, int reference, FeatureScratch& scratch,
                                 Eigen::Ref<FeatureJacobian> jacobian);

/// The orientation of `link` seen from `reference`: R_F^T R_L, and J = R_F^T (J_w,L - J_w,F) (rad/rad): the
/// link's angular velocity relative to F, in F.
Eigen::Matrix3d relativeOrientation(const kinematics::Model& model, const kinematics::Data& data, int link,
                                    int reference, FeatureScratch& scratch,
                                    Eigen::Ref<FeatureJacobian> jacobian);

/// The rotation error log(rotation * target^T) as an axis-angle vector (rad), in the frame both are given in:
/// zero at the target, and its rate is the angular velocity for small errors, so J qdot = -gain e closes it.
Eigen::Vector3d rotationError(const Eigen::Matrix3d& rotation, const Eigen::Matrix3d& target);

/// The whole-body centre of mass seen from `reference` (m), J (m/rad). Column of coordinate j: the sum over its
/// joints of multiplier * (subtree mass / total mass) * axis x (subtree centre of mass - joint origin).
Eigen::Vector3d relativeCenterOfMass(const kinematics::Model& model, const kinematics::Data& data,
                                     int reference, FeatureScratch& scratch,
                                     Eigen::Ref<FeatureJacobian> jacobian);

/// The row d(distance)/dq = n^T (J_B(p_B) - J_A(p_A)) (m/rad) of a signed distance between link A's witness
/// point pointA and link B's pointB (base frame, m), normal n from A towards B (the collision library's
/// ShapeDistance). The witness points may slide on the shapes, but to first order that does not change the
/// distance (they are its minimisers), so the row is the distance's gradient wherever it is differentiable.
void distanceRow(const kinematics::Model& model, const kinematics::Data& data, int linkA,
                 const Eigen::Vector3d& pointA, int linkB, const Eigen::Vector3d& pointB,
                 const Eigen::Vector3d& normal, FeatureScratch& scratch, Eigen::Ref<Eigen::RowVectorXd> row);
} // namespace nao::taskstack
