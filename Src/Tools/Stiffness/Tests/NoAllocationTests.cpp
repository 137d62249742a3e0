// The per-call functions must not allocate once the Workspace exists (the motion thread never allocates). The
// counter interposes malloc, which also sees operator new and Eigen's heap temporaries.
#include "Tools/Kinematics/UrdfLoader.h"
#include "Tools/Stiffness/ChainKinematics.h"
#include "Tools/Stiffness/Metric.h"
#include "Tools/Stiffness/Redundancy.h"
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

  const nao::test::ThreadAllocationCount watch;
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
  EXPECT_TRUE(std::isfinite(sum + ellipsoid.values.sum() + acceleration.sum()));
}
} // namespace
} // namespace nao::stiffness::test
