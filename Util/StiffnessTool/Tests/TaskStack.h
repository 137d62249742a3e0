#pragma once
// Tasks on priority levels, solved as a cascade of QPs (the Stack-of-Tasks formulation; Kanoun, Lamiraux and
// Wieber, IEEE T-RO 2011, for inequalities).
//
// A task regulates a feature s(q) to s*: e = s(q) - s*, and asks for the exponential decay de/dt = -lambda e.
// With the task Jacobian J = ds/dq that is the row set J qdot = -lambda e (desiredRate()); an inequality task
// s_min <= s(q) <= s_max becomes gain (s_min - s) <= J qdot <= gain (s_max - s) (rateBounds()): a velocity
// damper that lets s approach a bound no faster than exponentially. The variable x is whatever the rows are
// written in (joint velocities, or joint steps of one frame).
//
// Level 0 has the highest priority. Level k minimises the weighted squared violation of its own rows,
//   sum_i weight_i * w_i^2 + regularization * |x|^2,
// subject to every row of the levels above keeping the violation w*_i it had at its own level: an equality
// row J_i x = target_i + w*_i, an inequality row lower_i + w*_i <= J_i x <= upper_i + w*_i. So a lower level
// can never change what a higher level achieved (strict hierarchy), and within a level the weights trade the
// rows off. The regularisation keeps every QP strictly convex and picks the smallest x among equally good
// ones.
//
// Capacity is fixed at construction; clear(), add*() and solve() never allocate.
#include "Tools/Optimization/QpSolver.h"

#include <Eigen/Core>
#include <limits>
#include <vector>

namespace nao::optimization
{
inline constexpr double unbounded =
    std::numeric_limits<double>::infinity(); ///< for one-sided inequality rows

struct TaskStackCapacity
{
  int variables = 0;
  int levels = 0;
  int rows = 0;                   ///< task rows over all levels
  int inequalityRowsPerLevel = 0; ///< each needs a slack variable in its level's QP
};

enum class TaskStackStatus
{
  solved,
  levelFailed, ///< a level's QP did not solve (see failedLevel(), levelStatus()); solution() is the last
               ///< level's
  invalidTask, ///< sizes disagree or exceed the capacity, or a weight is not positive
};

/// de/dt = -gain * e: the target rate of an equality task with error e = s - s* (an expression: assigning it
/// to a preallocated vector does not allocate).
template<typename Derived>
auto desiredRate(const Eigen::MatrixBase<Derived>& error, double gain)
{
  return -gain * error.derived();
}

class TaskStack
{
public:
  explicit TaskStack(TaskStackCapacity capacity, double regularization = 1e-8, QpSettings settings = {});

  /// Removes every task; the next problem has `variables` unknowns.
  void clear(int variables);

  /// Rows jacobian * x = target (target = desiredRate(e, lambda)) at `level`, each weighted by `weight` > 0.
  bool addEquality(int level, const Eigen::Ref<const Eigen::MatrixXd>& jacobian,
                   const Eigen::Ref<const Eigen::VectorXd>& target, double weight = 1.0);

  /// Rows lower <= jacobian * x <= upper at `level` (-unbounded / unbounded for one side), weight > 0.
  bool addInequality(int level, const Eigen::Ref<const Eigen::MatrixXd>& jacobian,
                     const Eigen::Ref<const Eigen::VectorXd>& lower,
                     const Eigen::Ref<const Eigen::VectorXd>& upper, double weight = 1.0);

  /// Velocity-damper bounds for s_min <= s <= s_max: lower = gain (s_min - s), upper = gain (s_max - s).
  static void rateBounds(const Eigen::Ref<const Eigen::VectorXd>& feature,
                         const Eigen::Ref<const Eigen::VectorXd>& minimum,
                         const Eigen::Ref<const Eigen::VectorXd>& maximum, double gain,
                         Eigen::Ref<Eigen::VectorXd> lower, Eigen::Ref<Eigen::VectorXd> upper);

  /// Solves the levels in order; `start` warm starts each level's QP from its active set of the last solve().
  TaskStackStatus solve(QpSolver::Start start = QpSolver::Start::cold);

  Eigen::Map<const Eigen::VectorXd> solution() const { return {x_.data(), n_}; }
  /// Violation w of every row in the order added (equality: J x - target; inequality: the part of J x beyond
  /// its bounds, signed), as the row's own level left it; lower levels keep it.
  Eigen::Map<const Eigen::VectorXd> rowViolations() const { return {violation_.data(), rowCount_}; }
  int failedLevel() const { return failedLevel_; }
  QpStatus levelStatus(int level) const { return solvers_[static_cast<std::size_t>(level)].status(); }
  int rowCount() const { return rowCount_; }

private:
  struct Row
  {
    int level = 0;
    bool equality = true;
    double lower = 0.0; ///< target for an equality row
    double upper = 0.0;
    double weight = 1.0;
  };

  bool addRows(int level, const Eigen::Ref<const Eigen::MatrixXd>& jacobian, bool equality,
               const Eigen::Ref<const Eigen::VectorXd>& lower, const Eigen::Ref<const Eigen::VectorXd>& upper,
               double weight);
  bool solveLevel(int level, QpSolver::Start start);

  TaskStackCapacity capacity_;
  double regularization_;
  int n_ = 0;
  int rowCount_ = 0;
  int failedLevel_ = -1;
  bool invalid_ = false;
  std::vector<Row> rows_;
  std::vector<double> jacobian_; ///< rows x variables, row-major by task row: row i at i * capacity.variables
  std::vector<double> violation_; ///< per row, from its own level
  std::vector<double> x_;
  // The QP of one level, rebuilt per level (column-major, sized to the level).
  std::vector<double> hessian_, gradient_, equalityMatrix_, equalityVector_, inequalityMatrix_,
      inequalityBound_;
  std::vector<QpSolver> solvers_; ///< one per level, so that each keeps its own warm start
};
} // namespace nao::optimization
