// Brute-force hierarchical least squares by enumerating active sets (BruteForceHqp.h).
//
// Why the enumeration finds the optimum: let x° be the least-norm point of level k's optimal set and S the state of
// each row at x° (a row exactly at a bound counted as at it). The level's objective is differentiable and equals,
// at x°, the least squares of S with the same gradient; x° is optimal over the higher rows' polyhedron, so that
// gradient lies in the span of the active rows' normals and x° minimises the least squares of S on the affine set
// of its active higher rows. x° is also the shortest of those minimisers (its own optimality as the least-norm
// point of the optimal set puts it in the row space of the rows that fix the set around it), so the least-norm
// solve of S returns x° itself, feasible, and no feasible candidate does better. The final least-norm step is the
// same argument with no objective.
#include "BruteForceHqp.h"

#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace nao::tasktool::test
{
namespace
{
constexpr double unbounded = 1e300;
/// Singular values below this times the largest count as zero.
constexpr double rankTolerance = 1e-10;
/// A row is met when within this times (1 + |bound| + |row|_1 |x|_inf) of its bounds.
constexpr double feasibilityTolerance = 1e-10;

bool hasLower(double lo)
{
  return lo > -unbounded;
}
bool hasUpper(double hi)
{
  return hi < unbounded;
}

/// A row with its (shifted) bounds; an equality row has lo == hi and is always active.
struct Row
{
  Eigen::RowVectorXd normal;
  double lo = -unbounded, hi = unbounded;
  bool equality = false;
};

enum State
{
  inside,
  atLower,
  atUpper,
};

/// The states a row can take: an absent side is never active, and an interval of width 0 has one active state.
std::vector<State> statesOf(const Row& row)
{
  if (row.equality) return {atLower};
  std::vector<State> states{inside};
  if (hasLower(row.lo)) states.push_back(atLower);
  if (hasUpper(row.hi) && row.hi != row.lo) states.push_back(atUpper);
  return states;
}

/// Calls visit(states) for every combination of the rows' states.
template<class Visit>
void forEachActiveSet(const std::vector<Row>& rows, Visit visit)
{
  std::vector<std::vector<State>> choices;
  for (const Row& row : rows)
    choices.push_back(statesOf(row));
  std::vector<std::size_t> digit(rows.size(), 0);
  std::vector<State> states(rows.size());
  for (;;)
  {
    for (std::size_t i = 0; i < rows.size(); ++i)
      states[i] = choices[i][digit[i]];
    visit(states);
    std::size_t i = 0;
    for (; i < rows.size(); ++i)
    {
      if (++digit[i] < choices[i].size()) break;
      digit[i] = 0;
    }
    if (i == rows.size()) return;
  }
}

/// The least-norm solution of min |m z - rhs| (pseudo-inverse by SVD); singular values below rankTolerance times
/// `scale` (the size of the rows m was made from) or times the largest count as zero.
Eigen::VectorXd pseudoInverseSolve(const Eigen::MatrixXd& m, const Eigen::VectorXd& rhs, double scale = 0.0)
{
  if (m.rows() == 0 || m.cols() == 0) return Eigen::VectorXd::Zero(m.cols());
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(m, Eigen::ComputeThinU | Eigen::ComputeThinV);
  const Eigen::VectorXd& sigma = svd.singularValues();
  Eigen::VectorXd projected = svd.matrixU().transpose() * rhs;
  for (Eigen::Index i = 0; i < sigma.size(); ++i)
    projected[i] = sigma[i] > rankTolerance * std::max(scale, sigma[0]) ? projected[i] / sigma[i] : 0.0;
  return svd.matrixV() * projected;
}

/// An orthonormal basis of the null space of m (n columns when m has no rows).
Eigen::MatrixXd nullSpace(const Eigen::MatrixXd& m, int n)
{
  if (m.rows() == 0) return Eigen::MatrixXd::Identity(n, n);
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(m, Eigen::ComputeFullV);
  const Eigen::VectorXd& sigma = svd.singularValues();
  Eigen::Index rank = 0;
  while (rank < sigma.size() && sigma[rank] > rankTolerance * sigma[0])
    ++rank;
  return svd.matrixV().rightCols(n - rank);
}

/// The least-norm minimiser of |j x - t| subject to e x = f; none when e x = f has no solution.
std::optional<Eigen::VectorXd> leastNormMinimiser(const Eigen::MatrixXd& e, const Eigen::VectorXd& f,
                                                  const Eigen::MatrixXd& j, const Eigen::VectorXd& t, int n)
{
  // x = xp + N z with xp in the row space of e and N z in its null space: |x|^2 = |xp|^2 + |z|^2.
  const Eigen::VectorXd xp = pseudoInverseSolve(e, f);
  if (e.rows() > 0)
  {
    const double scale = 1.0 + f.lpNorm<Eigen::Infinity>() +
                         e.cwiseAbs().rowwise().sum().maxCoeff() * xp.lpNorm<Eigen::Infinity>();
    if ((e * xp - f).lpNorm<Eigen::Infinity>() > feasibilityTolerance * scale) return std::nullopt;
  }
  if (j.rows() == 0) return xp;
  const Eigen::MatrixXd basis = nullSpace(e, n);
  // j's rows projected on that null space may vanish up to rounding: their rank is judged by j's own size.
  return Eigen::VectorXd(xp + basis * pseudoInverseSolve(j * basis, t - j * xp, j.norm()));
}

bool meets(const Row& row, const Eigen::VectorXd& x)
{
  const double v = row.normal.dot(x);
  const double scale = 1.0 + row.normal.cwiseAbs().sum() * x.lpNorm<Eigen::Infinity>();
  if (hasLower(row.lo) && v < row.lo - feasibilityTolerance * (scale + std::abs(row.lo))) return false;
  if (hasUpper(row.hi) && v > row.hi + feasibilityTolerance * (scale + std::abs(row.hi))) return false;
  return true;
}

bool meetsAll(const std::vector<Row>& rows, const Eigen::VectorXd& x)
{
  return std::all_of(rows.begin(), rows.end(), [&](const Row& row) { return meets(row, x); });
}

/// The rows at their bounds as the equations e x = f (equality rows always).
void activeRows(const std::vector<Row>& rows, const std::vector<State>& states, Eigen::MatrixXd& e,
                Eigen::VectorXd& f, int n)
{
  const auto active = std::count_if(states.begin(), states.end(), [](State s) { return s != inside; });
  e.resize(active, n);
  f.resize(active);
  Eigen::Index r = 0;
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (states[i] != inside)
    {
      e.row(r) = rows[i].normal;
      f[r++] = states[i] == atLower ? rows[i].lo : rows[i].hi;
    }
}

/// Level `level`'s rows with their bounds shifted by its optimal violation w: they keep it.
void fixLevel(const BruteForceLevel& level, const Eigen::VectorXd& w, std::vector<Row>& fixedEqualities,
              std::vector<Row>& fixedInequalities)
{
  const Eigen::Index me = level.a.rows();
  for (Eigen::Index i = 0; i < me; ++i)
    fixedEqualities.push_back({level.a.row(i), level.b[i] + w[i], level.b[i] + w[i], true});
  for (Eigen::Index i = 0; i < level.c.rows(); ++i)
  {
    const double shift = w[me + i];
    fixedInequalities.push_back({level.c.row(i), hasLower(level.lo[i]) ? level.lo[i] + shift : -unbounded,
                                 hasUpper(level.hi[i]) ? level.hi[i] + shift : unbounded, false});
  }
}
} // namespace

Eigen::VectorXd levelViolation(const BruteForceLevel& level, const Eigen::VectorXd& x)
{
  Eigen::VectorXd w(level.a.rows() + level.c.rows());
  w.head(level.a.rows()) = level.a * x - level.b;
  for (Eigen::Index i = 0; i < level.c.rows(); ++i)
  {
    const double v = level.c.row(i).dot(x);
    w[level.a.rows() + i] = hasUpper(level.hi[i]) && v > level.hi[i]   ? v - level.hi[i]
                            : hasLower(level.lo[i]) && v < level.lo[i] ? v - level.lo[i]
                                                                       : 0.0;
  }
  return w;
}

BruteForceAnswer bruteForceHqp(const BruteForceProblem& problem)
{
  const int n = problem.n;
  BruteForceAnswer answer;
  std::vector<Row> fixedEqualities, fixedInequalities;
  Eigen::MatrixXd e, j;
  Eigen::VectorXd f, t;
  for (const BruteForceLevel& level : problem.levels)
  {
    // The rows whose state is enumerated: the higher levels' inequality rows, then this level's.
    std::vector<Row> rows = fixedEqualities;
    rows.insert(rows.end(), fixedInequalities.begin(), fixedInequalities.end());
    const std::size_t higher = rows.size();
    for (Eigen::Index i = 0; i < level.c.rows(); ++i)
      rows.push_back({level.c.row(i), level.lo[i], level.hi[i], false});
    const std::vector<Row> higherRows(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(higher));
    double best = std::numeric_limits<double>::infinity();
    Eigen::VectorXd bestX;
    forEachActiveSet(rows,
                     [&](const std::vector<State>& states)
                     {
                       const std::vector<State> higherStates(
                           states.begin(), states.begin() + static_cast<std::ptrdiff_t>(higher));
                       activeRows(higherRows, higherStates, e, f, n);
                       // This level's least squares: its equality rows, and its inequality rows at a bound.
                       const auto ownActive =
                           std::count_if(states.begin() + static_cast<std::ptrdiff_t>(higher), states.end(),
                                         [](State s) { return s != inside; });
                       j.resize(level.a.rows() + ownActive, n);
                       t.resize(j.rows());
                       j.topRows(level.a.rows()) = level.a;
                       t.head(level.a.rows()) = level.b;
                       Eigen::Index r = level.a.rows();
                       for (std::size_t i = higher; i < rows.size(); ++i)
                         if (states[i] != inside)
                         {
                           j.row(r) = rows[i].normal;
                           t[r++] = states[i] == atLower ? rows[i].lo : rows[i].hi;
                         }
                       const auto x = leastNormMinimiser(e, f, j, t, n);
                       if (!x || !meetsAll(higherRows, *x)) return;
                       const double objective = levelViolation(level, *x).squaredNorm();
                       if (objective < best)
                       {
                         best = objective;
                         bestX = *x;
                       }
                     });
    if (!std::isfinite(best)) return answer;
    const Eigen::VectorXd w = levelViolation(level, bestX);
    answer.slackNorms.push_back(w.norm());
    fixLevel(level, w, fixedEqualities, fixedInequalities);
  }
  // The least-norm point keeping every level's violation.
  std::vector<Row> rows = fixedEqualities;
  rows.insert(rows.end(), fixedInequalities.begin(), fixedInequalities.end());
  double best = std::numeric_limits<double>::infinity();
  const Eigen::MatrixXd noRows(0, n);
  forEachActiveSet(rows,
                   [&](const std::vector<State>& states)
                   {
                     activeRows(rows, states, e, f, n);
                     const auto x = leastNormMinimiser(e, f, noRows, Eigen::VectorXd(0), n);
                     if (!x || !meetsAll(rows, *x) || x->squaredNorm() >= best) return;
                     best = x->squaredNorm();
                     answer.x = *x;
                   });
  answer.found = std::isfinite(best);
  return answer;
}
} // namespace nao::tasktool::test
