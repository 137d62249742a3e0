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
} // namespace nao::stiffness
