// The redundancy resolution (Redundancy.h: the torque, the endpoint error, Eq 42 on HqpSolver) must not
// allocate once its workspace exists. The counter interposes malloc, which also sees operator new and Eigen's
// heap temporaries. The stiffness task's own check: Src/Tools/TaskStack/Stiffness/Tests.
#include "Tools/Kinematics/UrdfLoader.h"
#include "Tools/Stiffness/ChainKinematics.h"
#include "Tools/Stiffness/Metric.h"
#include "Tools/Stiffness/Tests/StiffnessTestSupport.h"
#include "Tools/Testing/AllocationCounter.h"
#include "Util/StiffnessTool/Redundancy.h"

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

TEST(NoAllocation, RedundancyDoesNotAllocateAfterItsWorkspaceExists)
{
  const kinematics::Model model = kinematics::buildModel(randomChainUrdf(7, 111));
  const Chain chain(model, "mount", "tool");
  const int n = chain.jointCount();
  Workspace workspace(chain);
  RedundancyWorkspace scratch(chain);
  std::mt19937 random(112);
  const Eigen::VectorXd q = randomJointValues(n, 2.0, random), qdot = randomJointValues(n, 1.0, random);
  const StiffnessQuery query{randomVector6(random), randomCartesianStiffness(random)};
  Eigen::VectorXd gradient(n), torque(n), acceleration(n);
  const Eigen::MatrixXd inertia = Eigen::MatrixXd::Identity(n, n) * 0.3;
  EndpointHold hold;
  hold.rows = {true, true, true, true, false, true};
  const kinematics::Vector6 error = randomVector6(random) * 1e-3;
  const RedundancyParameters parameters{-0.5, 1.0};
  updateChain(chain, workspace, q);

  for (int repeat = 0; repeat < 2; ++repeat)
  {
    const nao::test::ThreadAllocationCount watch;
    double sum = computeMetricGradient(chain, workspace, query, gradient);
    computeRedundancyTorque(gradient, qdot, parameters, torque);
    sum += endpointError(workspace, Eigen::Vector3d::Zero(), Eigen::Matrix3d::Identity()).sum();
    const bool solved = computeNullSpaceAcceleration(chain, workspace, scratch, inertia, qdot, error, torque,
                                                     hold, acceleration);
    sum += heldRowsConditioning(scratch, hold.count());
    EXPECT_EQ(watch.allocations(), 0u);
    EXPECT_TRUE(solved);
    EXPECT_TRUE(std::isfinite(sum + acceleration.sum()));
  }
}
} // namespace
} // namespace nao::stiffness::test
