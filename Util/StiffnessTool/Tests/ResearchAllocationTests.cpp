// The research code's per-call functions must not allocate once their workspaces exist: the redundancy
// resolution (Redundancy.h), the tasks (StiffnessTask.h) and the task stack (TaskStack.h). The counter interposes
// malloc, which also sees operator new and Eigen's heap temporaries.
#include "Tools/Kinematics/UrdfLoader.h"
#include "Tools/Optimization/Tests/RandomQp.h"
#include "Tools/Stiffness/ChainKinematics.h"
#include "Tools/Stiffness/Metric.h"
#include "Tools/Stiffness/Tests/StiffnessTestSupport.h"
#include "Tools/Testing/AllocationCounter.h"
#include "Util/StiffnessTool/Redundancy.h"
#include "Util/StiffnessTool/Tests/StiffnessTask.h"
#include "Util/StiffnessTool/Tests/TaskStack.h"

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

TEST(NoAllocation, RedundancyAndTasksDoNotAllocateAfterTheirWorkspacesExist)
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
  // The task layer's tasks (stack of 9 variables: the chain and two more).
  optimization::TaskStack stack({n + 2, 2, 12, 0});
  const std::vector<int> columns = {0, 1, 2, 4, 5, 6, 8};
  StiffnessTask stiffnessTask(chain, n + 2, columns);
  EndpointTask endpointTask(chain, n + 2, columns);
  stack.clear(n + 2);
  updateChain(chain, workspace, q);

  const nao::test::ThreadAllocationCount watch;
  const bool added = endpointTask.add(stack, 0, chain, workspace, error, hold.rows, 10.0) &&
                     stiffnessTask.add(stack, 1, chain, workspace, query, parameters);
  const bool stackSolved = stack.solve() == optimization::TaskStackStatus::solved;
  double sum = computeMetricGradient(chain, workspace, query, gradient);
  computeRedundancyTorque(gradient, qdot, parameters, torque);
  sum += endpointError(workspace, Eigen::Vector3d::Zero(), Eigen::Matrix3d::Identity()).sum();
  const bool solved = computeNullSpaceAcceleration(chain, workspace, scratch, inertia, qdot, error, torque,
                                                   hold, acceleration);
  sum += heldRowsConditioning(scratch, hold.count());
  EXPECT_EQ(watch.allocations(), 0u);
  EXPECT_TRUE(solved);
  EXPECT_TRUE(added);
  EXPECT_TRUE(stackSolved);
  EXPECT_TRUE(std::isfinite(sum + acceleration.sum() + stack.solution().sum()));
}
} // namespace
} // namespace nao::stiffness::test

namespace nao::optimization::test
{
namespace
{
TEST(NoAllocation, TaskStackDoesNotAllocate)
{
  QpGenerator generator(5);
  const Eigen::MatrixXd first = generator.matrix(4, 12), second = generator.matrix(6, 12),
                        bounds = generator.matrix(5, 12);
  const Eigen::VectorXd firstTarget = generator.vector(4), secondTarget = generator.vector(6);
  const Eigen::VectorXd lower = Eigen::VectorXd::Constant(5, -0.1), upper = Eigen::VectorXd::Constant(5, 0.1);
  Eigen::VectorXd target(4);
  TaskStack stack({12, 3, 20, 8});

  const nao::test::ThreadAllocationCount watch;
  for (const QpSolver::Start start : {QpSolver::Start::cold, QpSolver::Start::warm})
  {
    stack.clear(12);
    stack.addInequality(0, bounds, lower, upper);
    target = desiredRate(firstTarget, 2.0);
    stack.addEquality(1, first, target, 2.0);
    stack.addEquality(1, second.topRows(2), secondTarget.head(2));
    stack.addEquality(2, second, secondTarget);
    EXPECT_EQ(stack.solve(start), TaskStackStatus::solved);
  }
  EXPECT_EQ(watch.allocations(), 0u);
}
} // namespace
} // namespace nao::optimization::test
