#pragma once
// The algorithms of the Eigen path (ForwardKinematics.h, StaticTorques.h, Jacobian.h) over a CompiledModel
// and its Workspace: same inputs, outputs, frames and sign conventions (Conventions.h), results equal to
// rounding. Nothing here allocates. Which outputs a call leaves current in the workspace:
//   updateBodyPoses:        body poses, joint axes
//   forwardKinematics:      body poses, joint axes, link poses
//   updateCenterOfMass:     body poses, joint axes, centre of mass
//   computeGravityTorques, computeStaticTorques, computeStandingTorques: body poses, joint axes, centre of
//   mass
#include "Tools/Kinematics/Jacobian.h"
#include "Tools/Kinematics/Jit/CompiledModel.h"
#include "Tools/Kinematics/StaticTorques.h"

#include <span>

namespace nao::kinematics::jit
{
/// Body poses and joint axes for the configuration q (enough for linkPoseFromBody and point Jacobians).
void updateBodyPoses(const CompiledModel& compiled, Workspace& workspace, const JointVector& q);

/// Body poses, joint axes and the pose of every link for the configuration q.
void forwardKinematics(const CompiledModel& compiled, Workspace& workspace, const JointVector& q);

/// forwardKinematics and the centre of mass in one pass.
void forwardKinematicsAndCenterOfMass(const CompiledModel& compiled, Workspace& workspace,
                                      const JointVector& q);

/// Body poses, joint axes and the whole-body centre of mass (m), which it returns.
Eigen::Vector3d updateCenterOfMass(const CompiledModel& compiled, Workspace& workspace, const JointVector& q);

/// G(q) with a fixed base; gravity in m/s^2 in the base frame.
void computeGravityTorques(const CompiledModel& compiled, Workspace& workspace, const JointVector& q,
                           const Eigen::Vector3d& gravity, TorqueVector tau);

/// tau = G(q) - sum_c J_c^T W_c. contacts[c].link must be compiled.contactLinks()[c], for every compiled
/// link.
void computeStaticTorques(const CompiledModel& compiled, Workspace& workspace, const JointVector& q,
                          const Eigen::Vector3d& gravity, std::span<const ContactWrench> contacts,
                          TorqueVector tau);

/// As nao::kinematics::computeStandingTorques: the compiled contact links must be (feet.leftSole,
/// feet.rightSole).
void computeStandingTorques(const CompiledModel& compiled, Workspace& workspace, const JointVector& q,
                            const Eigen::Vector3d& gravity, const FeetSupport& feet, const SoleLoads& loads,
                            TorqueVector tau, SoleWrenches* wrenches = nullptr);

/// Results of the last call (see the table above for which are current).
math::Pose bodyPose(const CompiledModel& compiled, const Workspace& workspace, int body);
math::Pose linkPose(const CompiledModel& compiled, const Workspace& workspace, int link);
Eigen::Vector3d jointAxis(const CompiledModel& compiled, const Workspace& workspace, int body);
Eigen::Vector3d centerOfMass(const CompiledModel& compiled, const Workspace& workspace);

/// The pose of one link from the current body poses (any call), without the link-pose kernel.
math::Pose linkPoseFromBody(const CompiledModel& compiled, const Workspace& workspace, int link);

/// 6 x nq Jacobian of the point `pointInLink` (m, link frame) from the current body poses (any call).
void computePointJacobian(const CompiledModel& compiled, const Workspace& workspace, int link,
                          const Eigen::Vector3d& pointInLink, Eigen::Ref<Jacobian> jacobian);

/// Copies body poses, joint axes, the centre of mass and (withLinks) link poses into an Eigen Data, for the
/// algorithms the JIT does not have (e.g. Jacobian derivatives).
void copyToData(const CompiledModel& compiled, const Workspace& workspace, Data& data, bool withLinks);
} // namespace nao::kinematics::jit
