// Reference computations for the HqpSolver tests (HqpReference.h); nothing here uses NaoOptimization.
#include "Tools/TaskStack/Tests/HqpReference.h"

#include <Eigen/SVD>
#include <algorithm>
#include <cmath>

namespace nao::taskstack::test
{
namespace
{
constexpr double unbounded = 1e300;

Eigen::MatrixXd pseudoInverse(const Eigen::MatrixXd& m)
{
  if (m.rows() == 0) return Eigen::MatrixXd::Zero(m.cols(), 0);
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(m, Eigen::ComputeFullU | Eigen::ComputeFullV);
  const auto& s = svd.singularValues();
  const double threshold = 1e-10 * std::max(1.0, s.size() ? s[0] : 0.0);
  Eigen::MatrixXd inverse = Eigen::MatrixXd::Zero(m.cols(), m.rows());
  for (int i = 0; i < s.size(); ++i)
    if (s[i] > threshold) inverse += svd.matrixV().col(i) * svd.matrixU().col(i).transpose() / s[i];
  return inverse;
}

double signedViolation(double v, double lo, double hi)
{
  if (hi < unbounded && v > hi) return v - hi;
  if (lo > -unbounded && v < lo) return v - lo;
  return 0.0;
}

Eigen::MatrixXd appendColumns(const Eigen::MatrixXd& m, const Eigen::MatrixXd& columns)
{
  Eigen::MatrixXd out(std::max(m.rows(), columns.rows()), m.cols() + columns.cols());
  out << m, columns;
  return out;
}
} // namespace

ReferenceProblem randomProblem(const RandomShape& shape, std::mt19937& random)
{
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> uniform;
  ReferenceProblem problem;
  problem.n = shape.n;
  std::vector<Eigen::RowVectorXd> earlier; // rows already made, for redundant copies
  auto row = [&]() -> Eigen::RowVectorXd
  {
    Eigen::RowVectorXd r(shape.n);
    for (int i = 0; i < shape.n; ++i)
      r[i] = normal(random);
    if (shape.redundantRows && earlier.size() >= 2 && uniform(random) < 0.2)
    {
      const auto& p = earlier[random() % earlier.size()];
      const auto& q = earlier[random() % earlier.size()];
      r = uniform(random) < 0.5 ? p : Eigen::RowVectorXd(0.7 * p - 1.3 * q);
    }
    earlier.push_back(r);
    return r;
  };
  for (int k = 0; k < shape.levels; ++k)
  {
    const int me = shape.equalityRows / shape.levels + (k < shape.equalityRows % shape.levels ? 1 : 0);
    const int mi = shape.inequalityRows / shape.levels + (k < shape.inequalityRows % shape.levels ? 1 : 0);
    ReferenceLevel level{Eigen::MatrixXd(me, shape.n), Eigen::VectorXd(me), Eigen::MatrixXd(mi, shape.n),
                         Eigen::VectorXd(mi), Eigen::VectorXd(mi)};
    for (int i = 0; i < me; ++i)
    {
      level.a.row(i) = row();
      level.b[i] = 2.0 * normal(random);
    }
    for (int i = 0; i < mi; ++i)
    {
      level.c.row(i) = row();
      const double middle = shape.narrowIntervals ? 3.0 * normal(random) : normal(random);
      const double halfWidth = shape.narrowIntervals ? 0.3 * uniform(random) : 1.0 + uniform(random);
      level.lo[i] = middle - halfWidth;
      level.hi[i] = middle + halfWidth;
      if (shape.unboundedSides && uniform(random) < 0.25)
        (uniform(random) < 0.5 ? level.lo[i] : level.hi[i]) = uniform(random) < 0.5 ? -unbounded : unbounded;
      if (level.lo[i] >= unbounded) level.lo[i] = -unbounded;
      if (level.hi[i] <= -unbounded) level.hi[i] = unbounded;
    }
    problem.levels.push_back(std::move(level));
  }
  return problem;
}

Eigen::VectorXd nullSpaceProjection(const ReferenceProblem& problem)
{
  Eigen::VectorXd x = Eigen::VectorXd::Zero(problem.n);
  Eigen::MatrixXd p = Eigen::MatrixXd::Identity(problem.n, problem.n);
  for (const auto& level : problem.levels)
  {
    const Eigen::MatrixXd ap = level.a * p;
    const Eigen::MatrixXd inverse = pseudoInverse(ap);
    x += inverse * (level.b - level.a * x);
    p -= inverse * ap;
  }
  return x;
}

std::vector<double> violationNorms(const ReferenceProblem& problem, const Eigen::VectorXd& x)
{
  std::vector<double> norms;
  for (const auto& level : problem.levels)
  {
    double sum = (level.a * x - level.b).squaredNorm();
    const Eigen::VectorXd v = level.c * x;
    for (int i = 0; i < v.size(); ++i)
      sum += std::pow(signedViolation(v[i], level.lo[i], level.hi[i]), 2);
    norms.push_back(std::sqrt(sum));
  }
  return norms;
}

Eigen::VectorXd nonNegativeLeastSquares(const Eigen::MatrixXd& m, const Eigen::VectorXd& d)
{
  const auto columns = static_cast<int>(m.cols());
  Eigen::VectorXd z = Eigen::VectorXd::Zero(columns);
  std::vector<char> passive(columns, 0);
  const double tolerance = 1e-12 * std::max(1.0, m.norm() * d.norm());
  for (int outer = 0; outer < 3 * columns + 30; ++outer)
  {
    const Eigen::VectorXd w = m.transpose() * (d - m * z);
    int entering = -1;
    double best = tolerance;
    for (int j = 0; j < columns; ++j)
      if (!passive[j] && w[j] > best) best = w[entering = j];
    if (entering < 0) break;
    passive[entering] = 1;
    for (int inner = 0; inner < 3 * columns + 30; ++inner)
    {
      std::vector<int> set;
      for (int j = 0; j < columns; ++j)
        if (passive[j]) set.push_back(j);
      Eigen::MatrixXd sub(m.rows(), static_cast<int>(set.size()));
      for (std::size_t j = 0; j < set.size(); ++j)
        sub.col(static_cast<int>(j)) = m.col(set[j]);
      const Eigen::VectorXd s = pseudoInverse(sub) * d;
      if (s.minCoeff() > 0.0)
      {
        z.setZero();
        for (std::size_t j = 0; j < set.size(); ++j)
          z[set[j]] = s[static_cast<int>(j)];
        break;
      }
      double alpha = 1.0;
      for (std::size_t j = 0; j < set.size(); ++j)
        if (s[static_cast<int>(j)] <= 0.0)
          alpha = std::min(alpha, z[set[j]] / (z[set[j]] - s[static_cast<int>(j)]));
      for (std::size_t j = 0; j < set.size(); ++j)
      {
        z[set[j]] += alpha * (s[static_cast<int>(j)] - z[set[j]]);
        if (z[set[j]] <= 1e-15)
        {
          z[set[j]] = 0.0;
          passive[set[j]] = 0;
        }
      }
    }
  }
  return z;
}

double kktResidual(const ReferenceProblem& problem, const Eigen::VectorXd& x, double activeTolerance)
{
  const int n = problem.n;
  const auto levels = static_cast<int>(problem.levels.size());
  double worst = 0.0;
  Eigen::MatrixXd equalities(0, n); // rows of the levels above, as constraints
  Eigen::MatrixXd cone(n, 0);       // columns: outward normals of the active inequality sides above
  for (int k = 0; k <= levels; ++k)
  {
    Eigen::VectorXd gradient = x; // the final step: least norm
    if (k < levels)
    {
      const auto& level = problem.levels[k];
      Eigen::VectorXd w(level.c.rows());
      const Eigen::VectorXd v = level.c * x;
      for (int i = 0; i < v.size(); ++i)
        w[i] = signedViolation(v[i], level.lo[i], level.hi[i]);
      gradient = level.a.transpose() * (level.a * x - level.b) + level.c.transpose() * w;
    }
    // Minus the gradient must be E^T nu + cone * lambda, lambda >= 0: project out span(E^T), then NNLS.
    const Eigen::MatrixXd projector =
        Eigen::MatrixXd::Identity(n, n) - pseudoInverse(equalities) * equalities;
    const Eigen::VectorXd lambda = nonNegativeLeastSquares(projector * cone, -projector * gradient);
    const Eigen::VectorXd residual = projector * (gradient + cone * lambda);
    worst = std::max(worst, residual.norm() / std::max(1.0, gradient.norm()));
    if (k == levels) break;
    // Level k's rows become constraints with their violation at x kept.
    const auto& level = problem.levels[k];
    Eigen::MatrixXd grown(equalities.rows() + level.a.rows(), n);
    grown << equalities, level.a;
    equalities = grown;
    const Eigen::VectorXd v = level.c * x;
    for (int i = 0; i < v.size(); ++i)
    {
      const double w = signedViolation(v[i], level.lo[i], level.hi[i]);
      const double hi = level.hi[i] + w, lo = level.lo[i] + w;
      if (level.hi[i] < unbounded && std::abs(v[i] - hi) <= activeTolerance * (1.0 + std::abs(hi)))
        cone = appendColumns(cone, level.c.row(i).transpose());
      if (level.lo[i] > -unbounded && std::abs(v[i] - lo) <= activeTolerance * (1.0 + std::abs(lo)))
        cone = appendColumns(cone, -level.c.row(i).transpose());
    }
  }
  return worst;
}
} // namespace nao::taskstack::test
