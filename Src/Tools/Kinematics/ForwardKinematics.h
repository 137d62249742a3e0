#pragma once
// Forward kinematics and centre of mass. All results are in the base frame (Conventions.h).
#include "Tools/Kinematics/Data.h"
#include "Tools/Kinematics/Model.h"

#include <Eigen/Core>

namespace nao::kinematics
{
using JointVector = Eigen::Ref<const Eigen::VectorXd>; ///< q: one entry per Model coordinate, rad (m)

/// Joint values, sines/cosines, body poses and joint axes for the configuration q.
void updateBodyPoses(const Model& model, Data& data, const JointVector& q);

/// Every link's pose from the body poses (call updateBodyPoses first).
void updateLinkPoses(const Model& model, Data& data);

/// updateBodyPoses + updateLinkPoses: the pose of every link.
void forwardKinematics(const Model& model, Data& data, const JointVector& q);

/// Subtree first moments and the whole-body centre of mass (m) from the body poses.
const Eigen::Vector3d& updateCenterOfMass(const Model& model, Data& data);

/// The pose of one link from the body poses, without updating all links.
math::Pose linkPose(const Model& model, const Data& data, int link);
} // namespace nao::kinematics
