// HqpSolver against solutions computed another way (HqpReference.h): the null-space projection for equality-only
// hierarchies, the KKT conditions of every level for hierarchies with inequalities, and hand-made cases.
#include "Tools/TaskStack/HqpSolver.h"
#include "Tools/TaskStack/Tests/HqpReference.h"

#include <gtest/gtest.h>

using namespace nao::taskstack;
using namespace nao::taskstack::test;

namespace
{
HqpStatus solveWith(HqpSolver& solver, const ReferenceProblem& problem)
{
  solver.clear(problem.n);
  for (const auto& level : problem.levels)
    EXPECT_TRUE(solver.addLevel(level.a, level.b, level.c, level.lo, level.hi));
  return solver.solve();
}

HqpCapacity capacityFor(const RandomShape& shape)
{
  return {shape.n, shape.levels, shape.equalityRows, shape.inequalityRows};
}
} // namespace

TEST(TaskStackTests, EqualityHierarchiesMatchNullSpaceProjection)
{
  std::mt19937 random(44);
  for (int n : {3, 7, 12, 25})
    for (int levels : {3, 4, 5})
      for (int trial = 0; trial < 4; ++trial)
      {
        // Up to 1.6 n rows: the lower levels are infeasible; copies and combinations make rows dependent.
        const RandomShape shape{n, levels, (trial + 3) * n * 2 / 10 + 1, 0, true, false, false};
        const auto problem = randomProblem(shape, random);
        HqpSolver solver(capacityFor(shape));
        ASSERT_EQ(solveWith(solver, problem), HqpStatus::optimal)
            << "n " << n << " trial " << trial << " level " << solver.failedLevel() << " qp "
            << static_cast<int>(solver.qpStatus());
        const Eigen::VectorXd expected = nullSpaceProjection(problem);
        EXPECT_LE((solver.solution() - expected).lpNorm<Eigen::Infinity>(),
                  1e-9 * std::max(1.0, expected.norm()))
            << "n " << n << " levels " << levels << " trial " << trial;
        const auto norms = violationNorms(problem, expected);
        for (int k = 0; k < levels; ++k)
          // 1e-8: the proximal refinement stops at its rounding floor (stagnationTolerance) on dependent rows.
          EXPECT_NEAR(solver.slackNorms()[k], norms[k], 1e-8 * std::max(1.0, norms[k]));
      }
}

TEST(TaskStackTests, InequalityHierarchiesMeetEveryLevelsKkt)
{
  std::mt19937 random(4444);
  int infeasibleLevels = 0;
  for (int n : {4, 10, 25})
    for (int levels : {3, 4, 5})
      for (int trial = 0; trial < 4; ++trial)
      {
        const RandomShape shape{n, levels, n / 2 + trial, 40, true, true, trial % 2 == 0};
        const auto problem = randomProblem(shape, random);
        HqpSolver solver(capacityFor(shape));
        ASSERT_EQ(solveWith(solver, problem), HqpStatus::optimal) << "n " << n << " trial " << trial;
        const Eigen::VectorXd x = solver.solution();
        EXPECT_LE(kktResidual(problem, x), 1e-9) << "n " << n << " levels " << levels << " trial " << trial;
        const auto norms = violationNorms(problem, x);
        for (int k = 0; k < levels; ++k)
        {
          EXPECT_NEAR(solver.slackNorms()[k], norms[k], 1e-12 * std::max(1.0, norms[k]));
          infeasibleLevels += norms[k] > 1e-6 ? 1 : 0;
        }
      }
  EXPECT_GT(infeasibleLevels, 20); // the cases do exercise levels that cannot be met
}

TEST(TaskStackTests, DampedModeStaysClose)
{
  std::mt19937 random(7);
  const RandomShape shape{10, 4, 6, 40, true, true, true};
  const auto problem = randomProblem(shape, random);
  HqpSolver exact(capacityFor(shape));
  HqpSettings settings;
  settings.mode = HqpMode::damped;
  HqpSolver damped(capacityFor(shape), settings);
  ASSERT_EQ(solveWith(exact, problem), HqpStatus::optimal);
  ASSERT_EQ(solveWith(damped, problem), HqpStatus::optimal);
  EXPECT_LE((exact.solution() - damped.solution()).norm(), 1e-3 * std::max(1.0, exact.solution().norm()));
  for (int k = 0; k < 4; ++k)
    EXPECT_GE(damped.slackNorms()[k] + 1e-9, k == 0 ? exact.slackNorms()[0] : 0.0);
  EXPECT_EQ(damped.refinements(), 0);
  EXPECT_EQ(damped.finishedLevels(), 0);
}

// The finishing least squares and the proximal refinement alone reach the same optimum; the finish closes most
// levels without any refinement (what makes exact mode fast enough for the motion thread).
TEST(TaskStackTests, FinishingStepAgreesWithRefinementAlone)
{
  std::mt19937 random(4545);
  int levelsSolved = 0, levelsFinished = 0;
  for (int n : {6, 12, 25})
    for (int trial = 0; trial < 6; ++trial)
    {
      const RandomShape shape{n, 4, n / 2 + trial, 40, true, true, trial % 2 == 0};
      const auto problem = randomProblem(shape, random);
      HqpSolver finished(capacityFor(shape));
      HqpSettings settings;
      settings.finish = false;
      HqpSolver refined(capacityFor(shape), settings);
      ASSERT_EQ(solveWith(finished, problem), HqpStatus::optimal) << "n " << n << " trial " << trial;
      ASSERT_EQ(solveWith(refined, problem), HqpStatus::optimal) << "n " << n << " trial " << trial;
      EXPECT_EQ(refined.finishedLevels(), 0);
      for (int k = 0; k < 4; ++k)
        EXPECT_NEAR(finished.slackNorms()[k], refined.slackNorms()[k],
                    1e-8 * std::max(1.0, refined.slackNorms()[k]));
      EXPECT_LE((finished.solution() - refined.solution()).lpNorm<Eigen::Infinity>(),
                1e-7 * std::max(1.0, refined.solution().norm()))
          << "n " << n << " trial " << trial;
      EXPECT_LE(kktResidual(problem, finished.solution()), 1e-9);
      levelsSolved += 4;
      levelsFinished += finished.finishedLevels();
    }
  EXPECT_GE(levelsFinished, levelsSolved * 9 / 10) << levelsFinished << " of " << levelsSolved;
}

TEST(TaskStackTests, HandMadeCases)
{
  HqpSolver solver({2, 3, 4, 4});
  const double inf = 1e300;
  // Level 0: x0 <= 1 (a bound), level 1: x0 = 3 (cannot be met: slack 2), level 2: x0 + x1 = 0.
  solver.clear(2);
  Eigen::MatrixXd none(0, 2);
  Eigen::VectorXd empty(0);
  solver.addLevel(none, empty, Eigen::RowVector2d(1, 0), Eigen::VectorXd::Constant(1, -inf),
                  Eigen::VectorXd::Constant(1, 1.0));
  solver.addLevel(Eigen::RowVector2d(1, 0), Eigen::VectorXd::Constant(1, 3.0), none, empty, empty);
  solver.addLevel(Eigen::RowVector2d(1, 1), Eigen::VectorXd::Constant(1, 0.0), none, empty, empty);
  ASSERT_EQ(solver.solve(), HqpStatus::optimal);
  EXPECT_NEAR(solver.solution()[0], 1.0, 1e-12);
  EXPECT_NEAR(solver.solution()[1], -1.0, 1e-12);
  EXPECT_NEAR(solver.slackNorms()[0], 0.0, 1e-12);
  EXPECT_NEAR(solver.slackNorms()[1], 2.0, 1e-12);
  EXPECT_NEAR(solver.slackNorms()[2], 0.0, 1e-12);

  // Level 0 infeasible on its own: 2 <= x0 <= 3 and x0 = 0: the least violation splits it (x0 = 1, norm √2).
  // Level 1 then cannot move x0 (x0 = 5 stays violated by 4), level 2 has nothing: x1 = 0 (least norm).
  solver.clear(2);
  solver.addLevel(Eigen::RowVector2d(1, 0), Eigen::VectorXd::Constant(1, 0.0), Eigen::RowVector2d(1, 0),
                  Eigen::VectorXd::Constant(1, 2.0), Eigen::VectorXd::Constant(1, 3.0));
  solver.addLevel(none, empty, Eigen::RowVector2d(1, 0), Eigen::VectorXd::Constant(1, 5.0),
                  Eigen::VectorXd::Constant(1, inf));
  solver.addLevel(none, empty, none, empty, empty);
  ASSERT_EQ(solver.solve(), HqpStatus::optimal);
  EXPECT_NEAR(solver.solution()[0], 1.0, 1e-12);
  EXPECT_NEAR(solver.solution()[1], 0.0, 1e-12);
  EXPECT_NEAR(solver.slackNorms()[0], std::sqrt(2.0), 1e-12);
  EXPECT_NEAR(solver.slackNorms()[1], 4.0, 1e-12);
}

TEST(TaskStackTests, BadInputIsInvalidProblem)
{
  HqpSolver solver({2, 2, 2, 2});
  Eigen::MatrixXd none(0, 2);
  Eigen::VectorXd empty(0);
  solver.clear(2);
  solver.addLevel(none, empty, Eigen::RowVector2d(1, 0), Eigen::VectorXd::Constant(1, 1.0),
                  Eigen::VectorXd::Constant(1, 0.0)); // lo > hi
  EXPECT_EQ(solver.solve(), HqpStatus::invalidProblem);
  solver.clear(2);
  solver.addLevel(Eigen::RowVector2d(std::nan(""), 0), Eigen::VectorXd::Constant(1, 1.0), none, empty, empty);
  EXPECT_EQ(solver.solve(), HqpStatus::invalidProblem);
  solver.clear(3); // more variables than the capacity
  EXPECT_EQ(solver.solve(), HqpStatus::invalidProblem);
  solver.clear(2);
  EXPECT_FALSE(solver.addLevel(Eigen::MatrixXd::Ones(3, 2), Eigen::VectorXd::Ones(3), none, empty, empty));
  EXPECT_EQ(solver.solve(), HqpStatus::invalidProblem);
}
