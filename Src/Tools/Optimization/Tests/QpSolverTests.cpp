// The QP solver against closed-form hand cases, the KKT conditions on thousands of random problems of every
// family in RandomQp.h (6-25 variables, 0-30 constraints), constructed infeasible problems, bad input, and
// warm starts.
#include "RandomQp.h"

#include <cstdio>
#include <gtest/gtest.h>

namespace nao::optimization::test
{
namespace
{
constexpr double kktTolerance = 1e-9;
const QpCapacity fullCapacity{25, 30, 30};

Eigen::MatrixXd rows(int n)
{
  return Eigen::MatrixXd(0, n);
}

TEST(QpHandCases, UnconstrainedMinimum)
{
  QpSolver solver(fullCapacity);
  const Eigen::Matrix2d h{{4.0, 1.0}, {1.0, 3.0}};
  const Eigen::Vector2d g(1.0, 2.0);
  const DenseQp qp{h, g, rows(2), Eigen::VectorXd(0), rows(2), Eigen::VectorXd(0)};
  ASSERT_EQ(solver.solve(qp.view()), QpStatus::optimal);
  EXPECT_TRUE(solver.solution().isApprox(Eigen::Vector2d(-1.0 / 11.0, -7.0 / 11.0), 1e-14));
  EXPECT_NEAR(solver.objective(), 0.5 * (-1.0 / 11.0 * 1.0 + -7.0 / 11.0 * 2.0),
              1e-15); // g^T x / 2 at the minimum
  EXPECT_EQ(solver.iterations(), 0);
}

TEST(QpHandCases, ProjectionOntoAHalfSpace)
{
  // min 1/2 |x - c|^2 s.t. a^T x <= beta: x = c - (a^T c - beta) / |a|^2 a, lambda = (a^T c - beta) / |a|^2.
  QpSolver solver(fullCapacity);
  const Eigen::Vector3d c(1.0, 2.0, 3.0), a(1.0, 1.0, 0.0);
  const DenseQp qp{Eigen::Matrix3d::Identity(),      -c, rows(3), Eigen::VectorXd(0), a.transpose(),
                   Eigen::VectorXd::Constant(1, 1.0)};
  ASSERT_EQ(solver.solve(qp.view()), QpStatus::optimal);
  EXPECT_TRUE(solver.solution().isApprox(Eigen::Vector3d(0.0, 1.0, 3.0), 1e-14));
  EXPECT_NEAR(solver.inequalityMultipliers()[0], 1.0, 1e-14);
  ASSERT_EQ(solver.activeInequalities().size(), 1u);
}

TEST(QpHandCases, BoxClampsTheTarget)
{
  // min 1/2 |x - c|^2 s.t. -1 <= x <= 1: x = clamp(c).
  QpSolver solver(fullCapacity);
  const int n = 6;
  Eigen::VectorXd c(n);
  c << -3.0, -0.5, 0.0, 0.7, 1.0, 2.5;
  Eigen::MatrixXd box(2 * n, n);
  box << Eigen::MatrixXd::Identity(n, n), -Eigen::MatrixXd::Identity(n, n);
  const DenseQp qp{Eigen::MatrixXd::Identity(n, n), -c, rows(n), Eigen::VectorXd(0), box,
                   Eigen::VectorXd::Ones(2 * n)};
  ASSERT_EQ(solver.solve(qp.view()), QpStatus::optimal);
  EXPECT_TRUE(solver.solution().isApprox(c.cwiseMax(-1.0).cwiseMin(1.0), 1e-14));
  EXPECT_NEAR(solver.inequalityMultipliers()[5], 1.5, 1e-14); // x_5 <= 1 pushes back by c_5 - 1
  EXPECT_NEAR(solver.inequalityMultipliers()[n + 0], 2.0, 1e-14);
}

TEST(QpHandCases, EqualityConstrainedMinimumNorm)
{
  // min 1/2 |x|^2 s.t. sum(x) = 1: x = 1/n, nu = -1/n.
  QpSolver solver(fullCapacity);
  const int n = 8;
  const DenseQp qp{Eigen::MatrixXd::Identity(n, n),
                   Eigen::VectorXd::Zero(n),
                   Eigen::MatrixXd::Ones(1, n),
                   Eigen::VectorXd::Ones(1),
                   rows(n),
                   Eigen::VectorXd(0)};
  ASSERT_EQ(solver.solve(qp.view()), QpStatus::optimal);
  EXPECT_TRUE(solver.solution().isApprox(Eigen::VectorXd::Constant(n, 1.0 / n), 1e-14));
  EXPECT_NEAR(solver.equalityMultipliers()[0], -1.0 / n, 1e-15);
}

class RandomQps : public ::testing::TestWithParam<QpFamily>
{
};

TEST_P(RandomQps, SatisfyKktConditions)
{
  // 1000 problems per family; every one is feasible by construction.
  QpGenerator generator(11 + static_cast<unsigned>(GetParam()));
  QpSolver solver(fullCapacity);
  KktResiduals worst;
  int mostIterations = 0;
  for (int i = 0; i < 1000; ++i)
  {
    const DenseQp qp = generator.make(GetParam());
    ASSERT_EQ(solver.solve(qp.view()), QpStatus::optimal)
        << streams::enumName(GetParam()) << " problem " << i;
    const KktResiduals r = kktResiduals(qp, solver);
    ASSERT_LE(r.worst(), kktTolerance)
        << streams::enumName(GetParam()) << " problem " << i << ": stationarity " << r.stationarity
        << ", primal " << r.primal << ", dual " << r.dual << ", complementarity " << r.complementarity;
    worst = {std::max(worst.stationarity, r.stationarity), std::max(worst.primal, r.primal),
             std::max(worst.dual, r.dual), std::max(worst.complementarity, r.complementarity)};
    mostIterations = std::max(mostIterations, solver.iterations());
    const Eigen::VectorXd x = solver.solution();
    const double objective = 0.5 * x.dot(qp.hessian * x) + qp.gradient.dot(x);
    EXPECT_NEAR(solver.objective(), objective, 1e-12 * (1.0 + std::abs(objective)));
  }
  std::printf(
      "%s: worst stationarity %.1e, primal %.1e, dual %.1e, complementarity %.1e, most iterations %d\n",
      std::string(streams::enumName(GetParam())).c_str(), worst.stationarity, worst.primal, worst.dual,
      worst.complementarity, mostIterations);
}

TEST_P(RandomQps, WarmStartsFromAPerturbedProblemSatisfyKktConditions)
{
  // The active set of one problem as the start of a slightly different one, in every degenerate family.
  QpGenerator generator(31 + static_cast<unsigned>(GetParam()));
  QpSolver first(fullCapacity), second(fullCapacity);
  for (int i = 0; i < 500; ++i)
  {
    DenseQp qp = generator.make(GetParam());
    ASSERT_EQ(first.solve(qp.view()), QpStatus::optimal);
    qp.gradient += 0.01 * generator.vector(qp.variables());
    second.setWarmStart(first.activeInequalities());
    ASSERT_EQ(second.solve(qp.view(), QpSolver::Start::warm), QpStatus::optimal)
        << streams::enumName(GetParam()) << " problem " << i;
    ASSERT_LE(kktResiduals(qp, second).worst(), kktTolerance)
        << streams::enumName(GetParam()) << " problem " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(EveryFamily, RandomQps, ::testing::ValuesIn(allQpFamilies),
                         [](const auto& info) { return std::string(streams::enumName(info.param)); });

TEST(QpInfeasible, ContradictionsAreReportedWithTheBlockingConstraint)
{
  QpGenerator generator(5);
  QpSolver solver(fullCapacity);
  for (int i = 0; i < 300; ++i)
  {
    DenseQp qp = generator.make(QpFamily::general, generator.integer(6, 25), 0, generator.integer(2, 30));
    const int mi = static_cast<int>(qp.inequalityBound.size());
    const int first = generator.integer(0, mi - 1);
    int second = generator.integer(0, mi - 2);
    second += second >= first ? 1 : 0;
    switch (i % 3)
    {
    case 0: // a^T x <= -1 and -a^T x <= -1 (i.e. a^T x >= 1)
      qp.inequalityMatrix.row(second) = -qp.inequalityMatrix.row(first);
      qp.inequalityBound[first] = qp.inequalityBound[second] = -1.0;
      break;
    case 1: // a zero row with b < 0
      qp.inequalityMatrix.row(first).setZero();
      qp.inequalityBound[first] = -1e-3;
      break;
    case 2: // Farkas: y >= 0 with A^T y = 0 and b^T y < 0 (the last row closes the cone)
    {
      const Eigen::VectorXd y = (Eigen::VectorXd::Random(mi).array() + 1.5).matrix();
      qp.inequalityMatrix.row(mi - 1) =
          -(y.head(mi - 1).transpose() * qp.inequalityMatrix.topRows(mi - 1)) / y[mi - 1];
      qp.inequalityBound[mi - 1] = -(y.head(mi - 1).dot(qp.inequalityBound.head(mi - 1)) + 0.1) / y[mi - 1];
      break;
    }
    }
    ASSERT_EQ(solver.solve(qp.view()), QpStatus::infeasible) << "case " << i % 3 << " problem " << i;
    EXPECT_GE(solver.blockingConstraint(), 0);
  }
}

TEST(QpInfeasible, InconsistentEqualities)
{
  QpSolver solver(fullCapacity);
  const int n = 6;
  Eigen::MatrixXd aeq = Eigen::MatrixXd::Random(3, n);
  aeq.row(2) = 2.0 * aeq.row(0) - aeq.row(1); // dependent on the first two...
  const Eigen::Vector3d beq(1.0, 2.0, 5.0);   // ...but 2 * 1 - 2 = 0 != 5
  const DenseQp qp{
      Eigen::MatrixXd::Identity(n, n), Eigen::VectorXd::Zero(n), aeq, beq, rows(n), Eigen::VectorXd(0)};
  EXPECT_EQ(solver.solve(qp.view()), QpStatus::infeasible);
  EXPECT_EQ(solver.blockingConstraint(), -1 - 2);

  // An equality outside an inequality: a^T x = 2 and a^T x <= 1.
  const Eigen::VectorXd a = Eigen::VectorXd::Random(n);
  const DenseQp clash{Eigen::MatrixXd::Identity(n, n),
                      Eigen::VectorXd::Zero(n),
                      a.transpose(),
                      Eigen::VectorXd::Constant(1, 2.0),
                      a.transpose(),
                      Eigen::VectorXd::Constant(1, 1.0)};
  EXPECT_EQ(solver.solve(clash.view()), QpStatus::infeasible);
  EXPECT_EQ(solver.blockingConstraint(), 0);
}

TEST(QpBadInput, NotPositiveDefiniteAndInvalidSizes)
{
  QpSolver solver({4, 2, 3});
  const Eigen::Matrix3d indefinite = Eigen::Vector3d(1.0, -1.0, 2.0).asDiagonal();
  const Eigen::Matrix3d singular = Eigen::Vector3d(1.0, 0.0, 2.0).asDiagonal();
  const auto problem = [&](const Eigen::MatrixXd& h, int mi)
  {
    return DenseQp{h,
                   Eigen::VectorXd::Ones(h.rows()),
                   rows(static_cast<int>(h.rows())),
                   Eigen::VectorXd(0),
                   Eigen::MatrixXd::Ones(mi, h.rows()),
                   Eigen::VectorXd::Ones(mi)};
  };
  EXPECT_EQ(solver.solve(problem(indefinite, 1).view()), QpStatus::notPositiveDefinite);
  EXPECT_EQ(solver.solve(problem(singular, 1).view()), QpStatus::notPositiveDefinite);
  EXPECT_EQ(solver.solve(problem(Eigen::MatrixXd::Identity(5, 5), 1).view()), QpStatus::invalidProblem);
  EXPECT_EQ(solver.solve(problem(Eigen::MatrixXd::Identity(3, 3), 4).view()), QpStatus::invalidProblem);
  DenseQp withNan = problem(Eigen::MatrixXd::Identity(3, 3), 2);
  withNan.inequalityBound[1] = std::nan("");
  EXPECT_EQ(solver.solve(withNan.view()), QpStatus::invalidProblem);
  EXPECT_EQ(streams::enumName(solver.status()), "invalidProblem");
}

TEST(QpWarmStart, SameSolutionWithFewerIterations)
{
  // A sequence of slowly changing problems, as one frame after another: warm starts from the previous active
  // set must give the cold solution, and take fewer iterations in total (none for an unchanged problem).
  QpGenerator generator(23);
  QpSolver cold(fullCapacity), warm(fullCapacity);
  int coldIterations = 0, warmIterations = 0;
  for (int sequence = 0; sequence < 100; ++sequence)
  {
    DenseQp qp = generator.make(QpFamily::general, 25, 0, 30);
    for (int frame = 0; frame < 10; ++frame)
    {
      ASSERT_EQ(cold.solve(qp.view()), QpStatus::optimal);
      ASSERT_EQ(warm.solve(qp.view(), QpSolver::Start::warm), QpStatus::optimal);
      EXPECT_LE((warm.solution() - cold.solution()).lpNorm<Eigen::Infinity>(), 1e-9);
      EXPECT_LE(kktResiduals(qp, warm).worst(), kktTolerance);
      coldIterations += cold.iterations();
      warmIterations += warm.iterations();
      ASSERT_EQ(warm.solve(qp.view(), QpSolver::Start::warm), QpStatus::optimal); // unchanged problem
      EXPECT_EQ(warm.iterations(), 0);
      qp.gradient += 0.3 * generator.vector(25);
      qp.inequalityBound += 0.02 * generator.vector(30);
    }
  }
  std::printf("1000 frames: %d iterations cold, %d warm\n", coldIterations, warmIterations);
  EXPECT_LT(warmIterations, coldIterations / 2);
}

TEST(QpWarmStart, LastHessianGivesTheSameSolution)
{
  QpGenerator generator(29);
  QpSolver solver(fullCapacity), reference(fullCapacity);
  for (int i = 0; i < 100; ++i)
  {
    DenseQp qp = generator.make(QpFamily::general);
    ASSERT_EQ(solver.solve(qp.view()), QpStatus::optimal);
    qp.gradient = generator.vector(qp.variables());
    ASSERT_EQ(solver.solveWithLastHessian(qp.view(), QpSolver::Start::warm), QpStatus::optimal);
    ASSERT_EQ(reference.solve(qp.view()), QpStatus::optimal);
    EXPECT_LE((solver.solution() - reference.solution()).lpNorm<Eigen::Infinity>(), 1e-9);
  }
}
} // namespace
} // namespace nao::optimization::test
