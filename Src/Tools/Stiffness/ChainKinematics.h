#pragma once
// The chain's geometry in the base link's frame: joint axes and origins, the tip point and the Jacobian (Eq 9).
// Frames and units: Chain.h. Its columns are ordered from the base, so nao::kinematics' path functions give its
// derivatives: kinematics::computeJacobianDerivatives(workspace.jacobian, ...) (dJ/dq, Eq 10) and
// kinematics::computeJacobianRateTimesVelocity(workspace.jacobian, qdot) ((dJ/dt) qdot), Tools/Kinematics/Jacobian.h.
#include "Tools/Stiffness/Chain.h"
#include "Tools/Stiffness/Workspace.h"

#include <Eigen/Core>

namespace nao::stiffness
{
/// Forward kinematics of the model with the chain at q (n values, base -> tip), then axes, origins, tip point
/// and tip rotation relative to the base link and the Jacobian. One updateBodyPoses() of the whole model.
/// Allocation-free.
void updateChain(const Chain& chain, Workspace& workspace, const Eigen::Ref<const Eigen::VectorXd>& q);

/// The same geometry from forward kinematics someone else ran for the whole model at `modelConfiguration`
/// (the model's q): `poses` answers linkPose(link), bodyPose(body) and jointAxis(body) in the model's root
/// frame, as kinematics::KinematicsEvaluator does after update(). Several chains of one robot then share one
/// forward pass (the JIT's, on the NAO). workspace.q gets the chain joints' values (mimics applied);
/// workspace.kinematics is not touched. Allocation-free.
template<class Poses>
void updateChainFromPoses(const Chain& chain, Workspace& workspace,
                          const Eigen::Ref<const Eigen::VectorXd>& modelConfiguration, const Poses& poses);

namespace detail
{
/// Axes, origins, tip and Jacobian relative to the base from root-frame poses (both update functions).
template<class Poses>
void setChainGeometry(const Chain& chain, Workspace& workspace, const Poses& poses)
{
  // Root-frame results are rotated into the base link's frame: x_base = R^T (x_root - t).
  workspace.basePose = poses.linkPose(chain.baseLink());
  const Eigen::Matrix3d toBase = workspace.basePose.rotation.transpose();
  const Eigen::Vector3d& baseOrigin = workspace.basePose.translation;
  const math::Pose tipPose = poses.linkPose(chain.tipLink());
  workspace.tipPoint.noalias() = toBase * (tipPose * chain.pointInTip() - baseOrigin);
  workspace.tipRotation.noalias() = toBase * tipPose.rotation;
  for (int i = 0; i < chain.jointCount(); ++i)
  {
    const ChainJoint& joint = chain.joint(i);
    workspace.axes.col(i).noalias() = toBase * poses.jointAxis(joint.body);
    workspace.origins.col(i).noalias() = toBase * (poses.bodyPose(joint.body).translation - baseOrigin);
    const Eigen::Vector3d axis = workspace.axes.col(i);
    // Fixed-size halves: the comma initialiser into a dynamic column costs a fifth of a NAO limb's update.
    if (joint.type == kinematics::JointType::prismatic)
    {
      workspace.jacobian.col(i).template head<3>() = axis;
      workspace.jacobian.col(i).template tail<3>().setZero();
    }
    else
    {
      workspace.jacobian.col(i).template head<3>() =
          axis.cross(workspace.tipPoint - workspace.origins.col(i));
      workspace.jacobian.col(i).template tail<3>() = axis;
    }
  }
}
} // namespace detail

template<class Poses>
void updateChainFromPoses(const Chain& chain, Workspace& workspace,
                          const Eigen::Ref<const Eigen::VectorXd>& modelConfiguration, const Poses& poses)
{
  for (int i = 0; i < chain.jointCount(); ++i)
  {
    const ChainJoint& joint = chain.joint(i);
    workspace.q[i] = joint.multiplier * modelConfiguration[joint.coordinate] + joint.offset;
  }
  detail::setChainGeometry(chain, workspace, poses);
}
} // namespace nao::stiffness
