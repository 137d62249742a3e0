// The per-call functions must not allocate once the Workspace exists (the motion thread never allocates). The
// counter interposes malloc, which also sees operator new and Eigen's heap temporaries.
#include "Tools/Kinematics/ForwardKinematics.h"
#include "Tools/Kinematics/UrdfLoader.h"
#include "Tools/Stiffness/ChainKinematics.h"
#include "Tools/Stiffness/Metric.h"
#include "Tools/Stiffness/Redundancy.h"
#include "Tools/Stiffness/StiffnessTask.h"
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
  const Eigen::VectorXd q = randomJointValues(n, 2.0, random), qdot = randomJointValues(n, 1.0, random);
  const StiffnessQuery query{randomVector6(random), randomCartesianStiffness(random)};
  Eigen::VectorXd gradient(n), torque(n), acceleration(n);
  Eigen::MatrixXd hessian(n, n), active(n, n), passive(n, n);
  const Eigen::MatrixXd inertia = Eigen::MatrixXd::Identity(n, n) * 0.3;
  Jacobian derivatives(6, n * n);
  EndpointHold hold;
  hold.rows = {true, true, true, true, false, true};
  const Vector6 error = randomVector6(random) * 1e-3;
  const RedundancyParameters parameters{-0.5, 1.0};
  // The shared-forward-pass update and the task layer's tasks (stack of 9 variables: the chain and two more).
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
  optimization::TaskStack stack({n + 2, 2, 12, 0});
  const std::vector<int> columns = {0, 1, 2, 4, 5, 6, 8};
  StiffnessTask stiffnessTask(chain, n + 2, columns);
  EndpointTask endpointTask(chain, n + 2, columns);
  stack.clear(n + 2);

  const nao::test::ThreadAllocationCount watch;
  updateChainFromPoses(chain, workspace, workspace.modelConfiguration, DataPoses{model, poses});
  const TranslationalEllipsoid translational =
      computeTranslationalEllipsoid(workspace, query.cartesianStiffness);
  const bool added = endpointTask.add(stack, 0, chain, workspace, error, hold.rows, 10.0) &&
                     stiffnessTask.add(stack, 1, chain, workspace, query, parameters);
  const bool stackSolved = stack.solve() == optimization::TaskStackStatus::solved;
  updateChain(chain, workspace, q);
  double sum = computeMetric(chain, workspace, query);
  sum += computeMetricGradient(chain, workspace, query, gradient);
  sum += computeMetricHessian(chain, workspace, query, hessian);
  computeJointStiffness(chain, workspace, query, active, passive);
  computeChainJacobianDerivatives(chain, workspace, derivatives);
  sum += computeJacobianRateTimesVelocity(chain, workspace, qdot).sum();
  const StiffnessEllipsoid ellipsoid = computeStiffnessEllipsoid(workspace, query.cartesianStiffness);
  computeRedundancyTorque(gradient, qdot, parameters, torque);
  sum += endpointError(workspace, Eigen::Vector3d::Zero(), Eigen::Matrix3d::Identity()).sum();
  const bool solved =
      computeNullSpaceAcceleration(chain, workspace, inertia, qdot, error, torque, hold, acceleration);
  EXPECT_EQ(watch.allocations(), 0u);
  EXPECT_TRUE(solved);
  EXPECT_TRUE(added);
  EXPECT_TRUE(stackSolved);
  EXPECT_TRUE(std::isfinite(sum + ellipsoid.values.sum() + translational.values.sum() + acceleration.sum() +
                            stack.solution().sum()));
}
} // namespace
} // namespace nao::stiffness::test
