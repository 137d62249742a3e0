#include "Tools/Stiffness/ChainKinematics.h"

#include "Tools/Kinematics/ForwardKinematics.h"

#include <cassert>

namespace nao::stiffness
{
void updateChain(const Chain& chain, Workspace& workspace, const Eigen::Ref<const Eigen::VectorXd>& q)
{
  const int n = chain.jointCount();
  assert(q.size() == n);
  workspace.q = q;
  for (int i = 0; i < n; ++i)
  {
    const ChainJoint& joint = chain.joint(i);
    workspace.modelConfiguration[joint.coordinate] = (q[i] - joint.offset) / joint.multiplier;
  }
  const kinematics::Model& model = chain.model();
  kinematics::updateBodyPoses(model, workspace.kinematics, workspace.modelConfiguration);
  /// nao::kinematics' own data as the pose source of detail::setChainGeometry.
  struct DataPoses
  {
    const kinematics::Model& model;
    const kinematics::Data& data;
    math::Pose linkPose(int link) const { return kinematics::linkPose(model, data, link); }
    const math::Pose& bodyPose(int body) const { return data.bodyPoses[static_cast<std::size_t>(body)]; }
    const Eigen::Vector3d& jointAxis(int body) const
    {
      return data.jointAxes[static_cast<std::size_t>(body)];
    }
  };
  detail::setChainGeometry(chain, workspace, DataPoses{model, workspace.kinematics});
}

void computeChainJacobianDerivatives(const Chain& chain, const Workspace& workspace,
                                     Eigen::Ref<Jacobian> derivatives)
{
  const int n = chain.jointCount();
  assert(derivatives.cols() == n * n);
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < n; ++i)
      derivatives.col(k * n + i) << detail::linearDerivative(workspace.jacobian, k, i),
          detail::angularDerivative(workspace.jacobian, k, i);
}

Vector6 computeJacobianRateTimesVelocity(const Chain& chain, const Workspace& workspace,
                                         const Eigen::Ref<const Eigen::VectorXd>& qdot)
{
  // sum_i qdot_i dc_i/dt with dc_i/dt = sum_k qdot_k dc_i/dq_k. Splitting the sum over k at i:
  //   k <= i: W_i x c_i,  W_i = sum_{k<=i} qdot_k omega_k (angular velocity of joint i's frame after it
  //   turns); k > i:  omega_i x V_i,  V_i = sum_{k>i} qdot_k v_k (tip velocity from the joints beyond i).
  const Jacobian& j = workspace.jacobian;
  const int n = chain.jointCount();
  Vector6 result = Vector6::Zero();
  Eigen::Vector3d outerVelocity = Eigen::Vector3d::Zero();
  for (int i = n - 1; i >= 0; --i)
  {
    result.head<3>() += qdot[i] * j.col(i).tail<3>().cross(outerVelocity);
    outerVelocity += qdot[i] * j.col(i).head<3>();
  }
  Eigen::Vector3d innerAngular = Eigen::Vector3d::Zero();
  for (int i = 0; i < n; ++i)
  {
    innerAngular += qdot[i] * j.col(i).tail<3>();
    result.head<3>() += qdot[i] * innerAngular.cross(j.col(i).head<3>());
    result.tail<3>() += qdot[i] * innerAngular.cross(j.col(i).tail<3>());
  }
  return result;
}
} // namespace nao::stiffness
