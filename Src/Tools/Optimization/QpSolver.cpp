#include "Tools/Optimization/QpSolver.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace nao::optimization
{
namespace
{
constexpr double infinity = std::numeric_limits<double>::infinity();

/// A count or position as a vector index (negative counts as 0).
std::size_t toIndex(int count)
{
  return static_cast<std::size_t>(std::max(count, 0));
}

/// Sizes agree with n variables and fit the capacity (H is checked by the caller when it is read).
bool sizesAreValid(const QpProblem& p, const QpCapacity& capacity, Eigen::Index n)
{
  const auto rowsFit = [&](const auto& matrix, const auto& vector, int limit)
  {
    return matrix.rows() == vector.size() && matrix.rows() <= limit &&
           (matrix.rows() == 0 || matrix.cols() == n);
  };
  return n <= capacity.variables && p.gradient.size() == n &&
         rowsFit(p.equalityMatrix, p.equalityVector, capacity.equalities) &&
         rowsFit(p.inequalityMatrix, p.inequalityBound, capacity.inequalities);
}

/// A (the largest input) is checked through the first slacks b - A x instead: with x finite, a non-finite
/// entry of A makes its row's slack non-finite.
bool numbersAreFinite(const QpProblem& p)
{
  return p.gradient.allFinite() && p.equalityMatrix.allFinite() && p.equalityVector.allFinite() &&
         p.inequalityBound.allFinite();
}
} // namespace

QpSolver::QpSolver(QpCapacity capacity, QpSettings settings)
    : capacity_(capacity), settings_(settings), factorisation_(capacity.variables),
      x_(toIndex(capacity.variables)), normal_(toIndex(capacity.variables)), z_(toIndex(capacity.variables)),
      r_(toIndex(capacity.variables)), u_(toIndex(capacity.variables)), rhs_(toIndex(capacity.variables)),
      active_(toIndex(capacity.variables)), slack_(toIndex(capacity.inequalities)),
      inverseRowNorm_(toIndex(capacity.inequalities)), rowTolerance_(toIndex(capacity.inequalities)),
      boundTolerance_(toIndex(capacity.inequalities)), isActive_(toIndex(capacity.inequalities)),
      dependentEquality_(toIndex(capacity.equalities)), equalityMultipliers_(toIndex(capacity.equalities)),
      inequalityMultipliers_(toIndex(capacity.inequalities)), warmStart_(toIndex(capacity.variables))
{
}

QpStatus QpSolver::solve(const QpProblem& problem, Start start)
{
  const Eigen::Index n = problem.hessian.rows();
  if (problem.hessian.cols() != n || !sizesAreValid(problem, capacity_, n) || !numbersAreFinite(problem))
    return status_ = QpStatus::invalidProblem;
  hessianFactorised_ = factorisation_.reset(problem.hessian, settings_.pivotTolerance);
  if (!hessianFactorised_) return status_ = QpStatus::notPositiveDefinite;
  return run(problem, start);
}

QpStatus QpSolver::solveWithLastHessian(const QpProblem& problem, Start start)
{
  if (!hessianFactorised_ || !sizesAreValid(problem, capacity_, factorisation_.size()) ||
      !numbersAreFinite(problem))
    return status_ = QpStatus::invalidProblem;
  factorisation_.restart();
  return run(problem, start);
}

void QpSolver::setWarmStart(std::span<const int> inequalities)
{
  warmCount_ = static_cast<int>(std::min(inequalities.size(), warmStart_.size()));
  std::copy_n(inequalities.begin(), warmCount_, warmStart_.begin());
}

QpStatus QpSolver::run(const QpProblem& problem, Start start)
{
  n_ = factorisation_.size();
  me_ = static_cast<int>(problem.equalityVector.size());
  mi_ = static_cast<int>(problem.inequalityBound.size());
  iterations_ = 0;
  factorUpdates_ = 0;
  blockingConstraint_ = -1;
  prepareRowTolerances(problem);
  std::fill_n(isActive_.begin(), mi_, 0);
  std::fill_n(dependentEquality_.begin(), me_, 0);
  if (!startFromActiveSet(problem, start)) return finish(problem, QpStatus::infeasible);
  // The size of x the rounding of the slacks is relative to: the unconstrained minimum or the start, or x
  // itself once larger. Relative to |x| alone, an optimum at x = 0 would count its own rounding noise (1e-17)
  // as a violation of rows with b = 0, and a dependent row "violated" by noise proves nothing.
  startNorm_ = std::max(Eigen::Map<const Eigen::VectorXd>(x_.data(), n_).norm(),
                        factorisation_.unconstrainedMinimumNorm(problem.gradient));

  const int maxIterations = settings_.maxIterations > 0 ? settings_.maxIterations : 3 * (n_ + me_ + mi_) + 10;
  for (bool firstPass = true;; firstPass = false)
  {
    const int row = mostViolatedInequality(problem);
    if (firstPass && !Eigen::Map<const Eigen::VectorXd>(slack_.data(), mi_).allFinite())
      return status_ = QpStatus::invalidProblem; // numbersAreFinite() left A to this check
    if (row < 0)
    {
      // x and u exact on the final active set. At a degenerate vertex (more rows through the optimum than
      // variables) a row whose multiplier is zero in exact arithmetic can come out slightly negative there;
      // it does not bind, so it is dropped and the search goes on (x moves into its feasible side).
      solveSubproblem(problem);
      if (dropNegativeMultipliers(problem)) continue;
      return finish(problem, QpStatus::optimal);
    }
    if (const std::optional<QpStatus> ended = addViolatedRow(problem, row, maxIterations)) return *ended;
  }
}

void QpSolver::prepareRowTolerances(const QpProblem& problem)
{
  // Per row, once per solve: the parts of the feasibility tolerance and 1 / |a_i| (infinite for a zero row,
  // so that a zero row with b < 0 measures as the worst violation).
  Eigen::Map<Eigen::ArrayXd> rowTolerance(rowTolerance_.data(), mi_),
      inverseRowNorm(inverseRowNorm_.data(), mi_);
  inverseRowNorm = problem.inequalityMatrix.rowwise().norm().array();
  rowTolerance = settings_.feasibilityTolerance * inverseRowNorm;
  inverseRowNorm = inverseRowNorm.inverse();
  Eigen::Map<Eigen::ArrayXd>(boundTolerance_.data(), mi_) =
      settings_.feasibilityTolerance * problem.inequalityBound.array().abs();
}

std::optional<QpStatus> QpSolver::addViolatedRow(const QpProblem& problem, int row, int maxIterations)
{
  Eigen::Map<Eigen::VectorXd> x(x_.data(), n_), z(z_.data(), n_), r(r_.data(), n_);
  const int constraint = me_ + row;
  double slack = slack_[static_cast<std::size_t>(row)]; // < 0: the constraint is violated by -slack
  double newMultiplier = 0.0;
  loadNormal(problem, constraint);
  while (true)
  {
    if (++iterations_ > maxIterations) return finish(problem, QpStatus::maxIterations);
    const double curvature = factorisation_.prepare(Eigen::Map<const Eigen::VectorXd>(normal_.data(), n_),
                                                    settings_.dependenceTolerance, z, r);
    const bool dependent = curvature == 0.0;
    // Full step: the step along z that satisfies the new constraint. Partial step: the largest step before
    // the multiplier of an active inequality reaches zero; that constraint is dropped.
    const double fullStep = dependent ? infinity : -slack / curvature;
    double partialStep = infinity;
    int dropPosition = -1;
    const int activeCount = factorisation_.activeCount();
    for (int position = equalitiesActive_; position < activeCount; ++position)
      if (r[position] > 0.0 && u_[toIndex(position)] / r[position] < partialStep)
      {
        partialStep = u_[toIndex(position)] / r[position];
        dropPosition = position;
      }
    const double step = std::min(fullStep, partialStep);
    if (step == infinity)
    {
      blockingConstraint_ = row;
      return finish(problem, QpStatus::infeasible);
    }
    for (int position = 0; position < activeCount; ++position)
      u_[toIndex(position)] -= step * r[position];
    newMultiplier += step;
    if (!dependent)
    {
      x += step * z;
      slack += step * curvature;
    }
    if (fullStep <= partialStep)
    {
      factorisation_.addPrepared();
      active_[toIndex(activeCount)] = constraint;
      u_[toIndex(activeCount)] = newMultiplier;
      isActive_[toIndex(row)] = 1;
      ++factorUpdates_;
      return std::nullopt;
    }
    dropFromFactorisation(dropPosition);
  }
}

bool QpSolver::startFromActiveSet(const QpProblem& problem, Start start)
{
  for (int k = 0; k < me_; ++k)
    if (!addToFactorisation(problem, k)) dependentEquality_[toIndex(k)] = 1;
  equalitiesActive_ = factorisation_.activeCount();
  if (start == Start::warm)
    for (int i = 0; i < warmCount_; ++i)
    {
      const int row = warmStart_[toIndex(i)];
      if (row >= 0 && row < mi_ && !isActive_[toIndex(row)] && factorisation_.activeCount() < n_)
        addToFactorisation(problem, me_ + row);
    }
  solveSubproblem(problem);
  dropNegativeMultipliers(problem);

  // An equality dependent on the others must agree with them.
  const Eigen::Map<const Eigen::VectorXd> x(x_.data(), n_);
  for (int k = 0; k < me_; ++k)
  {
    if (!dependentEquality_[toIndex(k)]) continue;
    const auto row = problem.equalityMatrix.row(k);
    const double residual = row.dot(x) - problem.equalityVector[k];
    const double scale = std::abs(problem.equalityVector[k]) + row.norm() * x.norm();
    if (std::abs(residual) > settings_.dependenceTolerance * scale)
    {
      blockingConstraint_ = -1 - k;
      return false;
    }
  }
  return true;
}

bool QpSolver::addToFactorisation(const QpProblem& problem, int constraint)
{
  loadNormal(problem, constraint);
  const int position = factorisation_.activeCount();
  if (factorisation_.prepare(Eigen::Map<const Eigen::VectorXd>(normal_.data(), n_),
                             settings_.dependenceTolerance, Eigen::Map<Eigen::VectorXd>(z_.data(), n_),
                             Eigen::Map<Eigen::VectorXd>(r_.data(), n_)) == 0.0)
    return false;
  factorisation_.addPrepared();
  active_[toIndex(position)] = constraint;
  if (constraint >= me_) isActive_[toIndex(constraint - me_)] = 1;
  ++factorUpdates_;
  return true;
}

void QpSolver::dropFromFactorisation(int position)
{
  const int constraint = active_[toIndex(position)];
  if (constraint >= me_) isActive_[toIndex(constraint - me_)] = 0;
  const int count = factorisation_.activeCount();
  factorisation_.drop(position);
  for (int later = position; later + 1 < count; ++later)
  {
    active_[toIndex(later)] = active_[toIndex(later + 1)];
    u_[toIndex(later)] = u_[toIndex(later + 1)];
  }
  ++factorUpdates_;
}

void QpSolver::solveSubproblem(const QpProblem& problem)
{
  const int count = factorisation_.activeCount();
  for (int position = 0; position < count; ++position)
    rhs_[toIndex(position)] = rhs(problem, active_[toIndex(position)]);
  factorisation_.subproblemSolution(problem.gradient, Eigen::Map<const Eigen::VectorXd>(rhs_.data(), count),
                                    Eigen::Map<Eigen::VectorXd>(x_.data(), n_),
                                    Eigen::Map<Eigen::VectorXd>(u_.data(), count));
}

bool QpSolver::dropNegativeMultipliers(const QpProblem& problem)
{
  // A warm-start set is only a guess: an inequality that would pull (negative multiplier) is not active.
  bool dropped = false;
  while (true)
  {
    int worst = -1;
    for (int position = equalitiesActive_; position < factorisation_.activeCount(); ++position)
      if (u_[toIndex(position)] < 0.0 && (worst < 0 || u_[toIndex(position)] < u_[toIndex(worst)]))
        worst = position;
    if (worst < 0) return dropped;
    dropFromFactorisation(worst);
    solveSubproblem(problem);
    dropped = true;
  }
}

int QpSolver::mostViolatedInequality(const QpProblem& problem)
{
  const Eigen::Map<const Eigen::VectorXd> x(x_.data(), n_);
  Eigen::Map<Eigen::VectorXd> slack(slack_.data(), mi_);
  slack = problem.inequalityBound;
  slack.noalias() -= problem.inequalityMatrix * x;
  const double xNorm = std::max(x.norm(), startNorm_);
  int worst = -1;
  double worstMeasure = 0.0;
  for (int i = 0; i < mi_; ++i)
  {
    const std::size_t k = toIndex(i);
    // Violated beyond rounding: tolerance = feasibilityTolerance * (|b_i| + |a_i| |x|), both parts per solve.
    if (isActive_[k] || slack_[k] >= -(boundTolerance_[k] + rowTolerance_[k] * xNorm)) continue;
    // Violation as a distance (scale-free); a zero row with b < 0 is the worst of all.
    const double measure = slack_[k] * inverseRowNorm_[k];
    if (worst < 0 || measure < worstMeasure)
    {
      worst = i;
      worstMeasure = measure;
    }
  }
  return worst;
}

QpStatus QpSolver::finish(const QpProblem& problem, QpStatus status)
{
  const int count = factorisation_.activeCount();
  Eigen::Map<Eigen::VectorXd> equality(equalityMultipliers_.data(), me_),
      inequality(inequalityMultipliers_.data(), mi_);
  equality.setZero();
  inequality.setZero();
  warmCount_ = 0;
  for (int position = 0; position < count; ++position)
  {
    const int constraint = active_[toIndex(position)];
    const double u = u_[toIndex(position)];
    if (constraint < me_)
      equality[constraint] = -u; // Goldfarb-Idnani: H x + g = sum u_i n_i, with n = row of Aeq
    else
    {
      inequality[constraint - me_] = u; // n = -row of A
      warmStart_[toIndex(warmCount_++)] = constraint - me_;
    }
  }
  const Eigen::Map<const Eigen::VectorXd> x(x_.data(), n_);
  objective_ = 0.5 * factorisation_.quadraticForm(x) + problem.gradient.dot(x);
  return status_ = status;
}

void QpSolver::loadNormal(const QpProblem& problem, int constraint)
{
  Eigen::Map<Eigen::VectorXd> normal(normal_.data(), n_);
  if (constraint < me_)
    normal = problem.equalityMatrix.row(constraint).transpose();
  else
    normal = -problem.inequalityMatrix.row(constraint - me_).transpose();
}

double QpSolver::rhs(const QpProblem& problem, int constraint) const
{
  return constraint < me_ ? problem.equalityVector[constraint] : -problem.inequalityBound[constraint - me_];
}
} // namespace nao::optimization
