// The tasks' fillRows() and HqpSolver on their rows allocate nothing once the tasks and the solver exist. The
// counter interposes malloc, which also sees operator new and Eigen's heap temporaries.
#include "Tools/Kinematics/UrdfLoader.h"
#include "Tools/Stiffness/ChainKinematics.h"
#include "Tools/Stiffness/Tests/StiffnessTestSupport.h"
#include "Tools/TaskStack/HqpSolver.h"
#include "Tools/TaskStack/Stiffness/StiffnessTask.h"
#include "Tools/Testing/AllocationCounter.h"

#include <gtest/gtest.h>

namespace nao::taskstack::test
{
namespace
{
TEST(StiffnessTaskAllocation, CounterSeesEigenTemporaries)
{
  const nao::test::ThreadAllocationCount watch;
  const Eigen::VectorXd heap = Eigen::VectorXd::Zero(50);
  EXPECT_GE(watch.allocations(), 1u);
}

TEST(StiffnessTaskAllocation, FillRowsAndSolveDoNotAllocate)
{
  // A 7-joint chain in a 9-variable problem: joint-rate bounds, five endpoint rows, the stiffness pull.
  const kinematics::Model model = kinematics::buildModel(stiffness::test::randomChainUrdf(7, 111));
  const stiffness::Chain chain(model, "mount", "tool");
  stiffness::Workspace workspace(chain);
  std::mt19937 random(112);
  const std::vector<int> columns = {0, 1, 2, 4, 5, 6, 8};
  StiffnessTask stiffnessTask(chain, 9, columns);
  EndpointTask endpointTask(chain, 9, columns);
  Eigen::MatrixXd endpointRows(6, 9), stiffnessRows(7, 9);
  Eigen::VectorXd endpointTargets(6), stiffnessTargets(7);
  const Eigen::MatrixXd bounds = Eigen::MatrixXd::Identity(9, 9), none(0, 9);
  const Eigen::VectorXd limit = Eigen::VectorXd::Constant(9, 0.05), lower = -limit, noBound(0);
  const std::array<bool, 6> held{true, true, true, true, false, true};
  const stiffness::StiffnessQuery query{stiffness::test::randomVector6(random),
                                        stiffness::test::randomCartesianStiffness(random)};
  const kinematics::Vector6 error = 1e-3 * stiffness::test::randomVector6(random);
  HqpSolver solver({9, 3, 12, 9});
  for (int repeat = 0; repeat < 2; ++repeat)
  {
    stiffness::updateChain(chain, workspace, stiffness::test::randomJointValues(7, 2.0, random));
    const nao::test::ThreadAllocationCount watch;
    const int m = endpointTask.fillRows(chain, workspace, error, held, 10.0, endpointRows, endpointTargets);
    const int n =
        stiffnessTask.fillRows(chain, workspace, query, {-0.5, 1.0}, stiffnessRows, stiffnessTargets);
    solver.clear(9);
    const bool added =
        solver.addLevel(none, noBound, bounds, lower, limit) &&
        solver.addLevel(endpointRows.topRows(m), endpointTargets.head(m), none, noBound, noBound) &&
        solver.addLevel(stiffnessRows, stiffnessTargets, none, noBound, noBound);
    const HqpStatus status = solver.solve();
    EXPECT_EQ(watch.allocations(), 0u);
    EXPECT_EQ(m, 5);
    EXPECT_EQ(n, 7);
    EXPECT_TRUE(added);
    EXPECT_EQ(status, HqpStatus::optimal);
    EXPECT_TRUE(solver.solution().allFinite());
  }
}
} // namespace
} // namespace nao::taskstack::test
