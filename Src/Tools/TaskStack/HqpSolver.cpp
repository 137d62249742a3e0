// Hierarchical least squares as a cascade of QPs (HqpSolver.h; README.md of this folder).
#include "Tools/TaskStack/HqpSolver.h"

#include <algorithm>
#include <cmath>

namespace nao::taskstack
{
namespace
{
bool hasLower(double lower)
{
  return lower > -unboundedMagnitude;
}
bool hasUpper(double upper)
{
  return upper < unboundedMagnitude;
}

/// The signed violation of lower <= v <= upper: v - upper above, v - lower below, 0 inside.
double violation(double v, double lower, double upper)
{
  if (hasUpper(upper) && v > upper) return v - upper;
  if (hasLower(lower) && v < lower) return v - lower;
  return 0.0;
}

double maxNorm(const std::vector<double>& v, int n)
{
  double m = 0.0;
  for (int i = 0; i < n; ++i)
    m = std::max(m, std::abs(v[i]));
  return m;
}
} // namespace

HqpSolver::HqpSolver(HqpCapacity capacity, HqpSettings settings)
    : capacity_(capacity), settings_(settings),
      qp_({capacity.variables + capacity.equalityRows + capacity.inequalityRows, capacity.equalityRows,
           2 * capacity.inequalityRows},
          settings.qp),
      level_(capacity.levels), a_(capacity.equalityRows, capacity.variables),
      c_(capacity.inequalityRows, capacity.variables), b_(capacity.equalityRows),
      lo_(capacity.inequalityRows), hi_(capacity.inequalityRows), fixedB_(capacity.equalityRows),
      fixedLo_(capacity.inequalityRows), fixedHi_(capacity.inequalityRows),
      qpRow_(2 * capacity.inequalityRows), qpSide_(2 * capacity.inequalityRows),
      guessSide_(capacity.inequalityRows), lastGuess_(capacity.inequalityRows),
      heldRow_(capacity.inequalityRows), finish_(std::make_unique<ConstrainedLeastSquares>()),
      levelGradient_(capacity.variables), baseGradient_(capacity.variables), x_(capacity.variables),
      previous_(capacity.variables), slackNorms_(capacity.levels)
{
  const int variables = capacity.variables + capacity.equalityRows + capacity.inequalityRows;
  hessian_.setZero(variables, variables);
  gradient_.setZero(variables);
  qpEq_.setZero(capacity.equalityRows, variables);
  qpBeq_.setZero(capacity.equalityRows);
  qpIneq_.setZero(2 * capacity.inequalityRows, variables);
  qpBIneq_.setZero(2 * capacity.inequalityRows);
}

void HqpSolver::clear(int variables)
{
  overflow_ = variables < 0 || variables > capacity_.variables;
  n_ = overflow_ ? 0 : variables;
  levels_ = equalities_ = inequalities_ = 0;
  status_ = HqpStatus::notSolved;
}

bool HqpSolver::addLevel(const Eigen::Ref<const Eigen::MatrixXd>& equalities,
                         const Eigen::Ref<const Eigen::VectorXd>& target,
                         const Eigen::Ref<const Eigen::MatrixXd>& inequalities,
                         const Eigen::Ref<const Eigen::VectorXd>& lower,
                         const Eigen::Ref<const Eigen::VectorXd>& upper)
{
  const auto me = static_cast<int>(equalities.rows()), mi = static_cast<int>(inequalities.rows());
  const bool fits = levels_ < capacity_.levels && equalities_ + me <= capacity_.equalityRows &&
                    inequalities_ + mi <= capacity_.inequalityRows;
  const bool sizes = (me == 0 || equalities.cols() == n_) && target.size() == me &&
                     (mi == 0 || inequalities.cols() == n_) && lower.size() == mi && upper.size() == mi;
  if (!fits || !sizes)
  {
    overflow_ = true;
    return false;
  }
  level_[levels_] = {equalities_, me, inequalities_, mi};
  if (me > 0)
  {
    a_.block(equalities_, 0, me, n_) = equalities;
    b_.segment(equalities_, me) = target;
  }
  if (mi > 0)
  {
    c_.block(inequalities_, 0, mi, n_) = inequalities;
    lo_.segment(inequalities_, mi) = lower;
    hi_.segment(inequalities_, mi) = upper;
  }
  equalities_ += me;
  inequalities_ += mi;
  ++levels_;
  return true;
}

bool HqpSolver::validProblem() const
{
  if (overflow_) return false;
  if (!a_.topLeftCorner(equalities_, n_).allFinite() || !b_.head(equalities_).allFinite() ||
      !c_.topLeftCorner(inequalities_, n_).allFinite())
    return false;
  for (int i = 0; i < inequalities_; ++i)
  {
    const double lower = lo_[i], upper = hi_[i];
    if (std::isnan(lower) || std::isnan(upper) || lower >= unboundedMagnitude ||
        upper <= -unboundedMagnitude || lower > upper)
      return false;
  }
  return true;
}

optimization::QpProblem HqpSolver::problem(int variables)
{
  return {hessian_.topLeftCorner(variables, variables),      gradient_.head(variables),
          qpEq_.topLeftCorner(qpEqualities_, variables),     qpBeq_.head(qpEqualities_),
          qpIneq_.topLeftCorner(qpInequalities_, variables), qpBIneq_.head(qpInequalities_)};
}

int HqpSolver::buildLevelQp(int level, double xWeight)
{
  const Level own = rowsOf(level);
  // A level of equalities alone goes into the objective, |A x - b|^2 + weight |x|^2, instead of slack variables
  // (a posture task's A^T A is diagonal: the QP stays as small and as cheap as the variables).
  const bool folded = level < levels_ && own.inequalities == 0;
  const int slackedEqualities = folded ? 0 : own.equalities;
  const int variables = n_ + slackedEqualities + own.inequalities;
  hessian_.topLeftCorner(variables, variables).setZero();
  hessian_.diagonal().head(n_).setConstant(xWeight);
  hessian_.diagonal().segment(n_, variables - n_).setConstant(1.0);
  gradient_.head(variables).setZero();
  baseGradient_.head(n_).setZero();
  if (folded && own.equalities > 0)
  {
    const auto a = a_.block(own.firstEquality, 0, own.equalities, n_);
    hessian_.topLeftCorner(n_, n_).noalias() += a.transpose() * a;
    baseGradient_.head(n_).noalias() = -a.transpose() * b_.segment(own.firstEquality, own.equalities);
    gradient_.head(n_) = baseGradient_.head(n_);
  }

  // Equalities: the rows above with their fixed targets, then this level's rows A x - w = b.
  qpEqualities_ = own.firstEquality + slackedEqualities;
  qpEq_.topLeftCorner(qpEqualities_, variables).setZero();
  qpEq_.topLeftCorner(qpEqualities_, n_) = a_.topLeftCorner(qpEqualities_, n_);
  qpBeq_.head(own.firstEquality) = fixedB_.head(own.firstEquality);
  for (int i = 0; i < slackedEqualities; ++i)
  {
    qpEq_(own.firstEquality + i, n_ + i) = -1.0;
    qpBeq_[own.firstEquality + i] = b_[own.firstEquality + i];
  }

  // Inequalities, one QP row per present side: rows above within their shifted bounds, then lo <= C x - w <= hi.
  qpInequalities_ = 0;
  auto addSide = [&](int row, double sign, double bound, int slack)
  {
    qpIneq_.row(qpInequalities_).head(variables).setZero();
    qpIneq_.row(qpInequalities_).head(n_) = sign * c_.row(row).head(n_);
    if (slack >= 0) qpIneq_(qpInequalities_, slack) = -sign;
    qpBIneq_[qpInequalities_] = sign * bound;
    qpRow_[qpInequalities_] = row;
    qpSide_[qpInequalities_] = sign;
    ++qpInequalities_;
  };
  for (int row = 0; row < own.firstInequality + own.inequalities; ++row)
  {
    const bool mine = row >= own.firstInequality;
    const int slack = mine ? n_ + slackedEqualities + row - own.firstInequality : -1;
    const double lower = mine ? lo_[row] : fixedLo_[row] - relaxation_ * (1.0 + std::abs(fixedLo_[row]));
    const double upper = mine ? hi_[row] : fixedHi_[row] + relaxation_ * (1.0 + std::abs(fixedHi_[row]));
    if (hasUpper(upper)) addSide(row, 1.0, upper, slack);
    if (hasLower(lower)) addSide(row, -1.0, lower, slack);
  }
  return variables;
}

bool HqpSolver::solveLevel(int level)
{
  using optimization::QpSolver;
  using optimization::QpStatus;
  const bool exact = settings_.mode == HqpMode::exact && level < levels_;
  if (exact && settings_.finish && guessFromAbove(level))
  {
    ++finishedLevels_;
    ++levelsWithoutQp_;
    return true;
  }
  const double xWeight = level == levels_ ? 1.0 : (exact ? settings_.proximalWeight : settings_.damping);
  const int variables = buildLevelQp(level, xWeight);
  auto problem = this->problem(variables);
  auto proximalGradient = [&]
  {
    if (exact)
      for (int i = 0; i < n_; ++i)
        gradient_[i] = baseGradient_[i] - xWeight * x_[i];
  };
  proximalGradient();
  // The rows above keep their QP row numbers from level to level (their sides are added in the same order), so
  // the active rows of the last QP of this solve are the start of this one. At a degenerate vertex (more rows
  // at a bound than variables: an arm stretched to its limits, a posture pinning every joint) the dual method
  // can stop with a false "infeasible" although the x of the level above meets every row: a cold start, then
  // the rows above opened by `degeneracyRelaxation` (which moves the answer by no more than that) get past it.
  const auto start = lastQpLevel_ >= 0 ? QpSolver::Start::warm : QpSolver::Start::cold;
  lastQpLevel_ = level;
  bool solved =
      qp_.solve(problem, start) == QpStatus::optimal ||
      (start == QpSolver::Start::warm && qp_.solve(problem, QpSolver::Start::cold) == QpStatus::optimal);
  if (!solved)
  {
    relaxation_ = settings_.degeneracyRelaxation;
    buildLevelQp(level, xWeight);
    proximalGradient();
    relaxation_ = 0.0;
    solved = qp_.solve(problem, QpSolver::Start::cold) == QpStatus::optimal;
    relaxedQps_ += solved ? 1 : 0;
  }
  // The least-norm step's QP can also find x pinned by the fixed rows with a bound crossed by rounding alone;
  // the finishing least squares (objective |x|^2) has no such tolerance to fall through.
  if (!solved) return level == levels_ && settings_.finish && guessFromAbove(level);
  if (!exact)
  {
    std::copy_n(qp_.solution().data(), n_, x_.begin());
    return true;
  }
  // Proximal point steps: minimise |w|^2 + mu |x - x_j|^2; the fixed point is a minimiser of |w|^2 alone.
  // Each time the QP's active rows change, the finishing least squares tries to close the level at once.
  double lastMoved = 0.0;
  for (int step = 0;; ++step)
  {
    if (settings_.finish && guessChanged(level, step == 0) && finishLevel(level, qp_.solution().head(n_)))
    {
      ++finishedLevels_;
      return true;
    }
    std::copy_n(x_.begin(), n_, previous_.begin());
    std::copy_n(qp_.solution().data(), n_, x_.begin());
    double moved = 0.0;
    for (int i = 0; i < n_; ++i)
      moved = std::max(moved, std::abs(x_[i] - previous_[i]));
    const double scale = std::max(1.0, maxNorm(x_, n_));
    // Converged; or at the rounding floor: tiny steps that no longer shrink.
    if (moved <= settings_.convergenceTolerance * scale ||
        (step > 0 && moved <= settings_.stagnationTolerance * scale && moved >= 0.9 * lastMoved))
      return true;
    lastMoved = moved;
    if (step >= settings_.maxRefinements)
    {
      status_ = HqpStatus::notConverged;
      return false;
    }
    for (int i = 0; i < n_; ++i)
      gradient_[i] = baseGradient_[i] - xWeight * x_[i];
    ++refinements_;
    if (qp_.solveWithLastHessian(problem, QpSolver::Start::warm) != QpStatus::optimal) return false;
  }
}

void HqpSolver::fixLevel(int level)
{
  const Level& own = level_[level];
  const Eigen::Map<const Eigen::VectorXd> x(x_.data(), n_);
  for (int row = own.firstEquality; row < own.firstEquality + own.equalities; ++row)
    fixedB_[row] = a_.row(row).head(n_).dot(x);
  for (int row = own.firstInequality; row < own.firstInequality + own.inequalities; ++row)
  {
    const double w = violation(c_.row(row).head(n_).dot(x), lo_[row], hi_[row]);
    fixedLo_[row] = hasLower(lo_[row]) ? lo_[row] + w : lo_[row];
    fixedHi_[row] = hasUpper(hi_[row]) ? hi_[row] + w : hi_[row];
  }
  // The finish accepts rows above within its tolerance (1e-9): where x crosses one by that much, the bound
  // opens to x, else the equality targets fixed at x could contradict it and leave the levels below no point.
  for (int row = 0; row < own.firstInequality; ++row)
  {
    const double v = c_.row(row).head(n_).dot(x);
    if (hasLower(fixedLo_[row])) fixedLo_[row] = std::min(fixedLo_[row], v);
    if (hasUpper(fixedHi_[row])) fixedHi_[row] = std::max(fixedHi_[row], v);
  }
}

HqpStatus HqpSolver::solve()
{
  failedLevel_ = -1;
  refinements_ = finishedLevels_ = levelsWithoutQp_ = relaxedQps_ = 0;
  lastQpLevel_ = -1;
  std::fill(x_.begin(), x_.end(), 0.0);
  if (!validProblem()) return status_ = HqpStatus::invalidProblem;
  status_ = HqpStatus::optimal;
  for (int level = 0; level <= levels_; ++level)
  {
    if (!solveLevel(level))
    {
      failedLevel_ = level;
      if (status_ != HqpStatus::notConverged) status_ = HqpStatus::qpFailed;
      return status_;
    }
    if (level < levels_) fixLevel(level);
  }
  const Eigen::Map<const Eigen::VectorXd> x(x_.data(), n_);
  for (int level = 0; level < levels_; ++level)
  {
    const Level& own = level_[level];
    double sum = 0.0;
    for (int row = own.firstEquality; row < own.firstEquality + own.equalities; ++row)
      sum += std::pow(a_.row(row).head(n_).dot(x) - b_[row], 2);
    for (int row = own.firstInequality; row < own.firstInequality + own.inequalities; ++row)
      sum += std::pow(violation(c_.row(row).head(n_).dot(x), lo_[row], hi_[row]), 2);
    slackNorms_[level] = std::sqrt(sum);
  }
  return status_;
}
} // namespace nao::taskstack
