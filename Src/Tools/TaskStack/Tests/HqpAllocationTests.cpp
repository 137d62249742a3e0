// HqpSolver::clear(), addLevel() and solve() allocate nothing after construction (exact and damped mode).
#include "Tools/TaskStack/HqpSolver.h"
#include "Tools/TaskStack/Tests/HqpReference.h"
#include "Tools/Testing/AllocationCounter.h"

#include <gtest/gtest.h>

using namespace nao::taskstack;
using namespace nao::taskstack::test;

TEST(TaskStackAllocationTests, SolveAllocatesNothing)
{
  std::mt19937 random(1);
  const RandomShape shape{25, 5, 20, 40, true, true, true};
  const auto problem = randomProblem(shape, random);
  for (HqpMode mode : {HqpMode::exact, HqpMode::damped})
  {
    HqpSettings settings;
    settings.mode = mode;
    HqpSolver solver({25, 5, 20, 40}, settings);
    for (int repeat = 0; repeat < 2; ++repeat)
    {
      nao::test::ThreadAllocationCount count;
      solver.clear(problem.n);
      for (const auto& level : problem.levels)
        solver.addLevel(level.a, level.b, level.c, level.lo, level.hi);
      EXPECT_EQ(solver.solve(), HqpStatus::optimal);
      EXPECT_EQ(count.allocations(), 0u);
    }
  }
}
