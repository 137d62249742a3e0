// The per-call functions must not allocate once the Workspace exists (the motion thread never allocates). The
// counter interposes malloc, which also sees operator new and Eigen's heap temporaries.
#include "Tools/Kinematics/ForwardKinematics.h"
#include "Tools/Kinematics/UrdfLoader.h"
#include "Tools/Stiffness/ChainKinematics.h"
#include "Tools/Stiffness/Metric.h"
#include "Tools/Stiffness/Tests/StiffnessTestSupport.h"
#include "Tools/Testing/AllocationCounter.h"

#include <gtest/gtest.h>

namespace nao::stiffness::test
{
namespace
{
TEST(NoAllocation, CounterSeesEigenTemporaries)
{
  const nao::test::ThreadAllocationCount watch;
  const Eigen::VectorXd heap = Eigen::VectorXd::Zero(50);
  EXPECT_GE(watch.allocations(), 1u);
}

TEST(NoAllocation, PerCallFunctionsDoNotAllocateAfterTheWorkspaceExists)
{
  const kinematics::Model model = kinematics::buildModel(randomChainUrdf(7, 111));
  const Chain chain(model, "mount", "tool");
  const int n = chain.jointCount();
  Workspace workspace(chain);
  std::mt19937 random(112);
  const Eigen::VectorXd q = randomJointValues(n, 2.0, random);
  const StiffnessQuery query{randomVector6(random), randomCartesianStiffness(random)};
  Eigen::VectorXd gradient(n);
  Eigen::MatrixXd hessian(n, n), active(n, n), passive(n, n);
  // The shared-forward-pass update.
  kinematics::Data poses(model);
  kinematics::updateBodyPoses(model, poses, workspace.modelConfiguration);
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

  const nao::test::ThreadAllocationCount watch;
  updateChainFromPoses(chain, workspace, workspace.modelConfiguration, DataPoses{model, poses});
  const TranslationalEllipsoid translational =
      computeTranslationalEllipsoid(workspace, query.cartesianStiffness);
  updateChain(chain, workspace, q);
  double sum = computeMetric(chain, workspace, query);
  sum += computeMetricGradient(chain, workspace, query, gradient);
  sum += computeMetricHessian(chain, workspace, query, hessian);
  computeJointStiffness(chain, workspace, query, active, passive);
  const StiffnessEllipsoid ellipsoid = computeStiffnessEllipsoid(workspace, query.cartesianStiffness);
  EXPECT_EQ(watch.allocations(), 0u);
  EXPECT_TRUE(std::isfinite(sum + ellipsoid.values.sum() + translational.values.sum() + hessian.sum() +
                            active.sum() + passive.sum()));
}
} // namespace
} // namespace nao::stiffness::test
