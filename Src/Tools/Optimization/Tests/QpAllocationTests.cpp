// solve() must not allocate once the solver exists (the motion thread never allocates). The counter
// interposes glibc's malloc family, which also sees operator new and Eigen's heap temporaries.
#include "RandomQp.h"
#include "Tools/Testing/AllocationCounter.h"

#include <gtest/gtest.h>

namespace nao::optimization::test
{
namespace
{
TEST(NoAllocation, CounterSeesHeapAllocations)
{
  const nao::test::ThreadAllocationCount watch;
  const Eigen::VectorXd vector = Eigen::VectorXd::Zero(50);
  EXPECT_GE(watch.allocations(), 1u);
}

TEST(NoAllocation, QpSolveDoesNotAllocate)
{
  QpGenerator generator(3);
  std::vector<DenseQp> problems;
  for (const QpFamily family : allQpFamilies)
    problems.push_back(generator.make(family, 25, 5, 25));
  DenseQp infeasible = generator.make(QpFamily::general, 25, 0, 30);
  infeasible.inequalityMatrix.row(1) = -infeasible.inequalityMatrix.row(0);
  infeasible.inequalityBound[0] = infeasible.inequalityBound[1] = -1.0;
  problems.push_back(infeasible);
  QpSolver solver({25, 30, 30});

  const nao::test::ThreadAllocationCount watch;
  for (const DenseQp& qp : problems)
  {
    solver.solve(qp.view());
    solver.solve(qp.view(), QpSolver::Start::warm);
    solver.solveWithLastHessian(qp.view(), QpSolver::Start::warm);
  }
  EXPECT_EQ(watch.allocations(), 0u);
  EXPECT_EQ(solver.status(), QpStatus::infeasible);
}
} // namespace
} // namespace nao::optimization::test
