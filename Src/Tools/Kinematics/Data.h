#pragma once
// Everything the algorithms compute, allocated once per Model: no algorithm allocates after construction.
// All quantities are in the base frame (Conventions.h).
#include "Tools/Kinematics/Model.h"
#include "Tools/Math/Pose.h"

#include <Eigen/Core>
#include <vector>

namespace nao::kinematics
{
struct Data
{
  explicit Data(const Model& model);

  // Per body (index as in Model::bodies()), written by updateBodyPoses().
  std::vector<double> jointValues;   ///< rad (m for prismatic); 0 for the base
  std::vector<double> sines;         ///< sin(jointValues) of revolute bodies
  std::vector<double> cosines;       ///< cos(jointValues) of revolute bodies
  std::vector<math::Pose> bodyPoses; ///< body frame in the base frame; the base body's pose is the identity
  std::vector<Eigen::Vector3d> jointAxes; ///< unit joint axis in the base frame; zero for the base

  std::vector<math::Pose> linkPoses; ///< per link, written by updateLinkPoses()

  // Written by updateCenterOfMass() and by the torque algorithms.
  std::vector<Eigen::Vector3d> subtreeFirstMoments; ///< kg*m: sum of mass * CoM over each body's subtree
  Eigen::Vector3d centerOfMass = Eigen::Vector3d::Zero(); ///< m, whole robot

  // Scratch space of the Jacobian derivatives.
  std::vector<int> path;                                ///< bodies from the base to a link, size maxDepth
  std::vector<Eigen::Matrix<double, 6, 1>> pathColumns; ///< Jacobian column of each body on `path`
};
} // namespace nao::kinematics
