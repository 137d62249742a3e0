#include "Util/StiffnessTool/Tests/TaskStack.h"

#include <cmath>

namespace nao::optimization
{
namespace
{
/// A count or position as a vector index (negative counts as 0).
std::size_t toIndex(int count)
{
  return static_cast<std::size_t>(count < 0 ? 0 : count);
}

QpCapacity levelCapacity(const TaskStackCapacity& capacity)
{
  return {capacity.variables + capacity.inequalityRowsPerLevel, capacity.rows, 2 * capacity.rows};
}
} // namespace

TaskStack::TaskStack(TaskStackCapacity capacity, double regularization, QpSettings settings)
    : capacity_(capacity), regularization_(regularization), rows_(toIndex(capacity.rows)),
      jacobian_(toIndex(capacity.rows) * toIndex(capacity.variables)), violation_(toIndex(capacity.rows)),
      x_(toIndex(capacity.variables))
{
  const QpCapacity qp = levelCapacity(capacity);
  hessian_.resize(toIndex(qp.variables) * toIndex(qp.variables));
  gradient_.resize(toIndex(qp.variables));
  equalityMatrix_.resize(toIndex(qp.equalities) * toIndex(qp.variables));
  equalityVector_.resize(toIndex(qp.equalities));
  inequalityMatrix_.resize(toIndex(qp.inequalities) * toIndex(qp.variables));
  inequalityBound_.resize(toIndex(qp.inequalities));
  solvers_.reserve(toIndex(capacity.levels));
  for (int level = 0; level < capacity.levels; ++level)
    solvers_.emplace_back(qp, settings);
}

void TaskStack::clear(int variables)
{
  invalid_ = variables < 0 || variables > capacity_.variables;
  n_ = invalid_ ? 0 : variables;
  rowCount_ = 0;
  failedLevel_ = -1;
}

bool TaskStack::addEquality(int level, const Eigen::Ref<const Eigen::MatrixXd>& jacobian,
                            const Eigen::Ref<const Eigen::VectorXd>& target, double weight)
{
  return addRows(level, jacobian, true, target, target, weight);
}

bool TaskStack::addInequality(int level, const Eigen::Ref<const Eigen::MatrixXd>& jacobian,
                              const Eigen::Ref<const Eigen::VectorXd>& lower,
                              const Eigen::Ref<const Eigen::VectorXd>& upper, double weight)
{
  return addRows(level, jacobian, false, lower, upper, weight);
}

void TaskStack::rateBounds(const Eigen::Ref<const Eigen::VectorXd>& feature,
                           const Eigen::Ref<const Eigen::VectorXd>& minimum,
                           const Eigen::Ref<const Eigen::VectorXd>& maximum, double gain,
                           Eigen::Ref<Eigen::VectorXd> lower, Eigen::Ref<Eigen::VectorXd> upper)
{
  lower = gain * (minimum - feature);
  upper = gain * (maximum - feature);
}

bool TaskStack::addRows(int level, const Eigen::Ref<const Eigen::MatrixXd>& jacobian, bool equality,
                        const Eigen::Ref<const Eigen::VectorXd>& lower,
                        const Eigen::Ref<const Eigen::VectorXd>& upper, double weight)
{
  const int count = static_cast<int>(jacobian.rows());
  int inequalitiesAtLevel = 0;
  for (int i = 0; i < rowCount_; ++i)
    inequalitiesAtLevel += rows_[toIndex(i)].level == level && !rows_[toIndex(i)].equality ? 1 : 0;
  const bool fits = level >= 0 && level < capacity_.levels && rowCount_ + count <= capacity_.rows &&
                    (equality || inequalitiesAtLevel + count <= capacity_.inequalityRowsPerLevel);
  const bool consistent = jacobian.cols() == n_ && lower.size() == count && upper.size() == count &&
                          weight > 0.0 && std::isfinite(weight) && jacobian.allFinite();
  if (!fits || !consistent)
  {
    invalid_ = true;
    return false;
  }
  for (int i = 0; i < count; ++i)
  {
    rows_[toIndex(rowCount_)] = {level, equality, lower[i], upper[i], weight};
    Eigen::Map<Eigen::RowVectorXd>(jacobian_.data() + toIndex(rowCount_) * toIndex(capacity_.variables), n_) =
        jacobian.row(i);
    ++rowCount_;
  }
  return true;
}

TaskStackStatus TaskStack::solve(QpSolver::Start start)
{
  failedLevel_ = -1;
  if (invalid_) return TaskStackStatus::invalidTask;
  Eigen::Map<Eigen::VectorXd>(x_.data(), n_).setZero(); // no task at all: the smallest x
  for (int level = 0; level < capacity_.levels; ++level)
  {
    if (!solveLevel(level, start))
    {
      failedLevel_ = level;
      return TaskStackStatus::levelFailed;
    }
  }
  return TaskStackStatus::solved;
}

bool TaskStack::solveLevel(int level, QpSolver::Start start)
{
  // Variables: x (n), then one slack per inequality row of this level.
  int slacks = 0, fixedEqualities = 0, inequalities = 0;
  for (int i = 0; i < rowCount_; ++i)
  {
    const Row& row = rows_[toIndex(i)];
    if (row.level == level && !row.equality) ++slacks;
    if (row.level < level && row.equality) ++fixedEqualities;
    if ((row.level < level && !row.equality) || (row.level == level && !row.equality))
      inequalities += (std::isfinite(row.lower) ? 1 : 0) + (std::isfinite(row.upper) ? 1 : 0);
  }
  bool hasRows = false;
  for (int i = 0; i < rowCount_ && !hasRows; ++i)
    hasRows = rows_[toIndex(i)].level == level;
  if (!hasRows) return true;

  const int variables = n_ + slacks;
  Eigen::Map<Eigen::MatrixXd> hessian(hessian_.data(), variables, variables);
  Eigen::Map<Eigen::VectorXd> gradient(gradient_.data(), variables);
  Eigen::Map<Eigen::MatrixXd> equalityMatrix(equalityMatrix_.data(), fixedEqualities, variables);
  Eigen::Map<Eigen::VectorXd> equalityVector(equalityVector_.data(), fixedEqualities);
  Eigen::Map<Eigen::MatrixXd> inequalityMatrix(inequalityMatrix_.data(), inequalities, variables);
  Eigen::Map<Eigen::VectorXd> inequalityBound(inequalityBound_.data(), inequalities);
  hessian.setZero();
  hessian.diagonal().head(n_).setConstant(regularization_);
  gradient.setZero();
  equalityMatrix.setZero();
  inequalityMatrix.setZero();

  int slack = 0, equalityRow = 0, inequalityRow = 0;
  const auto jacobianRow = [&](int i)
  {
    return Eigen::Map<const Eigen::RowVectorXd>(jacobian_.data() + toIndex(i) * toIndex(capacity_.variables),
                                                n_);
  };
  const auto addBounds = [&](const auto& row, double lower, double upper, int slackColumn)
  {
    // lower <= J x (- slack) <= upper, as A x <= b rows.
    if (std::isfinite(upper))
    {
      inequalityMatrix.row(inequalityRow).head(n_) = row;
      if (slackColumn >= 0) inequalityMatrix(inequalityRow, slackColumn) = -1.0;
      inequalityBound[inequalityRow++] = upper;
    }
    if (std::isfinite(lower))
    {
      inequalityMatrix.row(inequalityRow).head(n_) = -row;
      if (slackColumn >= 0) inequalityMatrix(inequalityRow, slackColumn) = 1.0;
      inequalityBound[inequalityRow++] = -lower;
    }
  };
  for (int i = 0; i < rowCount_; ++i)
  {
    const Row& row = rows_[toIndex(i)];
    const auto j = jacobianRow(i);
    const double kept = violation_[toIndex(i)];
    if (row.level < level && row.equality) // keep J x - target = w*
    {
      equalityMatrix.row(equalityRow).head(n_) = j;
      equalityVector[equalityRow++] = row.lower + kept;
    }
    else if (row.level < level) // keep lower + w* <= J x <= upper + w*
      addBounds(j, row.lower + kept, row.upper + kept, -1);
    else if (row.level == level && row.equality) // weight * |J x - target|^2
    {
      hessian.topLeftCorner(n_, n_).selfadjointView<Eigen::Lower>().rankUpdate(j.transpose(), row.weight);
      gradient.head(n_) -= (row.weight * row.lower) * j.transpose();
    }
    else if (row.level == level) // weight * w^2 with lower <= J x - w <= upper
    {
      const int column = n_ + slack++;
      hessian(column, column) = row.weight;
      addBounds(j, row.lower, row.upper, column);
    }
  }

  QpSolver& solver = solvers_[toIndex(level)];
  if (solver.solve({hessian, gradient, equalityMatrix, equalityVector, inequalityMatrix, inequalityBound},
                   start) != QpStatus::optimal)
    return false;
  Eigen::Map<Eigen::VectorXd> x(x_.data(), n_);
  x = solver.solution().head(n_);
  slack = 0;
  for (int i = 0; i < rowCount_; ++i)
  {
    const Row& row = rows_[toIndex(i)];
    if (row.level != level) continue;
    violation_[toIndex(i)] =
        row.equality ? jacobianRow(i).dot(x) - row.lower : solver.solution()[n_ + slack++];
  }
  return true;
}
} // namespace nao::optimization
