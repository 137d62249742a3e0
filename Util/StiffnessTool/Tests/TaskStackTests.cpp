// The task layer: strict priority (a lower level never changes what a higher one achieved), weights within a
// level (closed-form trade-offs), inequality tasks as velocity dampers, and optimality of each level checked
// from the null space of the levels above (an independent SVD, not the solver's factorisation).
#include "Util/StiffnessTool/Tests/TaskStack.h"

#include <Eigen/SVD>
#include <gtest/gtest.h>
#include <random>

namespace nao::optimization::test
{
namespace
{
Eigen::MatrixXd row(std::initializer_list<double> values)
{
  Eigen::MatrixXd m(1, static_cast<Eigen::Index>(values.size()));
  Eigen::Index i = 0;
  for (const double v : values)
    m(0, i++) = v;
  return m;
}

Eigen::VectorXd scalar(double value)
{
  return Eigen::VectorXd::Constant(1, value);
}

const TaskStackCapacity capacity{10, 3, 40, 10};

TEST(TaskStack, LowerLevelCannotDisturbAHigherOne)
{
  // Level 0: x1 + x2 = 1. Level 1: x1 = 5 and x2 = 5 (unreachable together with level 0). The hierarchy keeps
  // x1 + x2 = 1 and spends the remaining freedom on level 1: x1 = x2 = 0.5.
  TaskStack stack(capacity, 1e-12);
  stack.clear(2);
  stack.addEquality(0, row({1.0, 1.0}), scalar(1.0));
  stack.addEquality(1, Eigen::Matrix2d::Identity(), Eigen::Vector2d(5.0, 5.0), 1000.0);
  ASSERT_EQ(stack.solve(), TaskStackStatus::solved);
  EXPECT_NEAR(stack.solution().sum(), 1.0, 1e-12);
  EXPECT_NEAR(stack.solution()[0], 0.5, 1e-9);
  EXPECT_NEAR(stack.solution()[1], 0.5, 1e-9);
  EXPECT_NEAR(stack.rowViolations()[0], 0.0, 1e-12);
}

TEST(TaskStack, WeightsTradeOffWithinALevel)
{
  // One level, x = 2 with weight 1 and x = 8 with weight 3: x = (1 * 2 + 3 * 8) / (1 + 3 + regularization).
  const double regularization = 1e-6;
  TaskStack stack(capacity, regularization);
  stack.clear(1);
  stack.addEquality(0, row({1.0}), scalar(2.0), 1.0);
  stack.addEquality(0, row({1.0}), scalar(8.0), 3.0);
  ASSERT_EQ(stack.solve(), TaskStackStatus::solved);
  EXPECT_NEAR(stack.solution()[0], 26.0 / (4.0 + regularization), 1e-12);
  // The same two tasks on two levels: the first wins outright.
  stack.clear(1);
  stack.addEquality(0, row({1.0}), scalar(2.0), 1.0);
  stack.addEquality(1, row({1.0}), scalar(8.0), 3.0);
  ASSERT_EQ(stack.solve(), TaskStackStatus::solved);
  EXPECT_NEAR(stack.solution()[0], 2.0 / (1.0 + regularization), 1e-12);
}

TEST(TaskStack, InequalityTasksBoundAndTradeOff)
{
  TaskStack stack(capacity, 1e-12);
  // Level 0: x <= 1; level 1: x = 3. The bound holds, x = 1.
  stack.clear(1);
  stack.addInequality(0, row({1.0}), scalar(-unbounded), scalar(1.0));
  stack.addEquality(1, row({1.0}), scalar(3.0));
  ASSERT_EQ(stack.solve(), TaskStackStatus::solved);
  EXPECT_NEAR(stack.solution()[0], 1.0, 1e-9);

  // Level 0 asks x >= 2 (weight 1) and x <= 1 (weight 4): the violations trade off, x = (2 + 4) / 5 = 1.2.
  // Level 1 (x = 10) cannot move it.
  stack.clear(1);
  stack.addInequality(0, row({1.0}), scalar(2.0), scalar(unbounded), 1.0);
  stack.addInequality(0, row({1.0}), scalar(-unbounded), scalar(1.0), 4.0);
  stack.addEquality(1, row({1.0}), scalar(10.0));
  ASSERT_EQ(stack.solve(), TaskStackStatus::solved);
  EXPECT_NEAR(stack.solution()[0], 1.2, 1e-9);
  EXPECT_NEAR(stack.rowViolations()[0], -0.8, 1e-9); // 0.8 below its lower bound
  EXPECT_NEAR(stack.rowViolations()[1], 0.2, 1e-9);  // 0.2 above its upper bound
}

TEST(TaskStack, VelocityDamperLetsAFeatureApproachItsBoundExponentially)
{
  // s = x (a distance, m), s_min = 0.1, s = 0.3, gain 2/s: the rate may not fall below 2 * (0.1 - 0.3) =
  // -0.4; a task pulling at -1 m/s gets -0.4 m/s.
  Eigen::VectorXd lower(1), upper(1);
  TaskStack::rateBounds(scalar(0.3), scalar(0.1), scalar(unbounded), 2.0, lower, upper);
  EXPECT_NEAR(lower[0], -0.4, 1e-15);
  TaskStack stack(capacity, 1e-12);
  stack.clear(1);
  stack.addInequality(0, row({1.0}), lower, upper);
  stack.addEquality(1, row({1.0}), desiredRate(scalar(0.5), 2.0)); // e = 0.5, de/dt = -1
  ASSERT_EQ(stack.solve(), TaskStackStatus::solved);
  EXPECT_NEAR(stack.solution()[0], -0.4, 1e-9);
}

TEST(TaskStack, RandomHierarchiesAreLexicographicallyOptimal)
{
  // Three levels of random equality tasks on 10 variables (4, 3 and 5 rows, more than the variables). Each
  // level's task values must equal those of the level solved with only the levels above, and each level must
  // be optimal in the null space of the levels above (projected gradient zero, from an independent SVD).
  std::mt19937 random(7);
  std::uniform_real_distribution<double> any(-1.0, 1.0);
  const auto matrix = [&](int rows, int cols)
  {
    Eigen::MatrixXd m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i)
      m.data()[i] = any(random);
    return m;
  };
  const double regularization = 1e-9;
  for (int trial = 0; trial < 50; ++trial)
  {
    const std::array<Eigen::MatrixXd, 3> jacobians{matrix(4, 10), matrix(3, 10), matrix(5, 10)};
    const std::array<Eigen::VectorXd, 3> targets{matrix(4, 1), matrix(3, 1), matrix(5, 1)};
    TaskStack full(capacity, regularization), top(capacity, regularization), upper(capacity, regularization);
    full.clear(10);
    top.clear(10);
    upper.clear(10);
    for (int level = 0; level < 3; ++level)
      full.addEquality(level, jacobians[level], targets[level]);
    for (int level = 0; level < 2; ++level)
      upper.addEquality(level, jacobians[level], targets[level]);
    top.addEquality(0, jacobians[0], targets[0]);
    ASSERT_EQ(full.solve(), TaskStackStatus::solved);
    ASSERT_EQ(top.solve(), TaskStackStatus::solved);
    ASSERT_EQ(upper.solve(), TaskStackStatus::solved);
    const Eigen::VectorXd x = full.solution();
    // What levels 0 and 1 achieve does not depend on the levels below them.
    EXPECT_LE((jacobians[0] * x - jacobians[0] * top.solution()).lpNorm<Eigen::Infinity>(), 1e-12);
    EXPECT_LE((jacobians[1] * x - jacobians[1] * upper.solution()).lpNorm<Eigen::Infinity>(), 1e-12);
    // 7 independent rows on 10 variables: both are met up to the damping (regularization 1e-9).
    EXPECT_LE((jacobians[0] * x - targets[0]).lpNorm<Eigen::Infinity>(), 1e-7);
    EXPECT_LE((jacobians[1] * x - targets[1]).lpNorm<Eigen::Infinity>(), 1e-7);
    // Level 2 is optimal where levels 0 and 1 leave freedom: N^T (J2^T (J2 x - t2) + regularization x) = 0.
    Eigen::MatrixXd above(7, 10);
    above << jacobians[0], jacobians[1];
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(above, Eigen::ComputeFullV);
    const Eigen::MatrixXd nullSpace = svd.matrixV().rightCols(3);
    const Eigen::VectorXd projected =
        nullSpace.transpose() *
        (jacobians[2].transpose() * (jacobians[2] * x - targets[2]) + regularization * x);
    EXPECT_LE(projected.lpNorm<Eigen::Infinity>(), 1e-9);
    // And it does not meet its own rows (5 rows, 3 free directions): the hierarchy is doing something.
    EXPECT_GT((jacobians[2] * x - targets[2]).norm(), 1e-3);
  }
}

TEST(TaskStack, BadTasksAreRejected)
{
  TaskStack stack(capacity);
  stack.clear(2);
  EXPECT_FALSE(stack.addEquality(3, row({1.0, 1.0}), scalar(1.0))); // no such level
  EXPECT_EQ(stack.solve(), TaskStackStatus::invalidTask);
  stack.clear(2);
  EXPECT_FALSE(stack.addEquality(0, row({1.0, 1.0, 1.0}), scalar(1.0))); // wrong width
  stack.clear(2);
  EXPECT_FALSE(stack.addEquality(0, row({1.0, 1.0}), scalar(1.0), 0.0)); // weight must be > 0
  stack.clear(2);
  EXPECT_TRUE(stack.addEquality(0, row({1.0, 1.0}), scalar(1.0)));
  EXPECT_EQ(stack.solve(), TaskStackStatus::solved);
}
} // namespace
} // namespace nao::optimization::test
