#pragma once
// A small dense convex QP solver for real-time use:
//
//   minimise 1/2 x^T H x + g^T x   subject to   Aeq x = beq,   A x <= b,
//
// with H symmetric positive definite. The method is the dual active-set method of Goldfarb and Idnani (Math.
// Programming 27, 1983): it starts from the unconstrained minimum (or from a warm-start active set), adds the
// most violated constraint at a time and drops constraints whose multiplier would turn negative, so every
// iterate is dual feasible and the first primal feasible one is the optimum. The factorisation
// (ActiveSetFactorization.h) is updated, never recomputed, between iterations.
//
// Sizes: capacity fixed at construction (variables, equalities, inequalities); every problem up to it is
// accepted. solve() never allocates. The capacity is a run-time value, not a template parameter, because the
// sizes come from configuration (shape pairs, chains) and the task layer stacks levels of different sizes.
//
// H is factorised (Cholesky) in every solve(); solveWithLastHessian() reuses the factor of the previous solve
// when only g, the constraints or the bounds changed.
#include "Tools/Optimization/ActiveSetFactorization.h"
#include "Tools/Streams/Enum.h"

#include <Eigen/Core>
#include <optional>
#include <span>
#include <vector>

namespace nao::optimization
{
NAO_ENUM(QpStatus, int,
         optimal,       ///< KKT conditions hold within the tolerances
         infeasible,    ///< the constraints admit no x; blockingConstraint() says which one could not be met
         maxIterations, ///< gave up after QpSettings::maxIterations steps (numerical trouble or cycling)
         notPositiveDefinite, ///< H is not (numerically) positive definite
         invalidProblem,      ///< sizes disagree or exceed the capacity, or a number is not finite
         notSolved,           ///< no solve() yet
);

/// The problem, as views of the caller's matrices (no copy). Rows of A and Aeq may be zero or repeated.
struct QpProblem
{
  Eigen::Ref<const Eigen::MatrixXd> hessian;          ///< H, n x n; only the lower triangle is read
  Eigen::Ref<const Eigen::VectorXd> gradient;         ///< g, n
  Eigen::Ref<const Eigen::MatrixXd> equalityMatrix;   ///< Aeq, me x n (me may be 0)
  Eigen::Ref<const Eigen::VectorXd> equalityVector;   ///< beq, me
  Eigen::Ref<const Eigen::MatrixXd> inequalityMatrix; ///< A, mi x n (mi may be 0)
  Eigen::Ref<const Eigen::VectorXd> inequalityBound;  ///< b, mi
};

struct QpCapacity
{
  int variables = 0;
  int equalities = 0;
  int inequalities = 0;
};

struct QpSettings
{
  /// A constraint counts as violated when its residual exceeds this times its scale |b_i| + |a_i| |x|, with
  /// |x| at least its value at the start (the unconstrained minimum for a cold start).
  double feasibilityTolerance = 1e-12;
  /// A constraint normal is taken as dependent on the active ones when the part of it (in the metric of H)
  /// outside their span is below this fraction of its length.
  double dependenceTolerance = 1e-10;
  /// H is rejected when a squared Cholesky pivot is below this fraction of its largest diagonal entry.
  double pivotTolerance = 1e-14;
  /// Steps (each computes one search direction) before giving up; 0 means 3 * (n + me + mi) + 10.
  int maxIterations = 0;
};

class QpSolver
{
public:
  enum class Start
  {
    cold, ///< from the unconstrained minimum
    warm, ///< from the active inequalities of the previous solve (or those given to setWarmStart())
  };

  explicit QpSolver(QpCapacity capacity, QpSettings settings = {});

  QpStatus solve(const QpProblem& problem, Start start = Start::cold);
  /// As solve(), with the Cholesky factor of the previous successful solve (problem.hessian is not read).
  QpStatus solveWithLastHessian(const QpProblem& problem, Start start = Start::cold);

  /// The inequalities (row indices of A) a warm start begins with; replaces the remembered active set.
  void setWarmStart(std::span<const int> inequalities);

  QpStatus status() const { return status_; }
  /// x of the last solve (for `infeasible` and `maxIterations`: the last iterate, not feasible).
  Eigen::Map<const Eigen::VectorXd> solution() const { return {x_.data(), n_}; }
  /// Multipliers nu (me) and lambda (mi) with H x + g + Aeq^T nu + A^T lambda = 0, lambda >= 0, and
  /// lambda_i = 0 for inactive rows (valid when optimal).
  Eigen::Map<const Eigen::VectorXd> equalityMultipliers() const { return {equalityMultipliers_.data(), me_}; }
  Eigen::Map<const Eigen::VectorXd> inequalityMultipliers() const
  {
    return {inequalityMultipliers_.data(), mi_};
  }
  /// Rows of A active at the solution, in the order they were added.
  std::span<const int> activeInequalities() const
  {
    return {warmStart_.data(), static_cast<std::size_t>(warmCount_)};
  }
  double objective() const { return objective_; } ///< 1/2 x^T H x + g^T x at solution()
  int iterations() const { return iterations_; }  ///< search directions computed in the last solve
  /// Constraints added to or dropped from the factorisation in the last solve, including the start set.
  int factorUpdates() const { return factorUpdates_; }
  /// For `infeasible`: the inequality row that could not be met (>= 0), or -1 - k for equality row k.
  int blockingConstraint() const { return blockingConstraint_; }
  const QpCapacity& capacity() const { return capacity_; }
  QpSettings& settings() { return settings_; }

private:
  QpStatus run(const QpProblem& problem, Start start);
  bool startFromActiveSet(const QpProblem& problem, Start start);
  bool addToFactorisation(const QpProblem& problem, int constraint);
  void dropFromFactorisation(int position);
  void solveSubproblem(const QpProblem& problem);
  bool dropNegativeMultipliers(const QpProblem& problem);
  int mostViolatedInequality(const QpProblem& problem);
  QpStatus finish(const QpProblem& problem, QpStatus status);
  /// Per row, once per solve: its feasibility tolerance and 1 / |a_i|.
  void prepareRowTolerances(const QpProblem& problem);
  /// Adds the violated inequality `row` to the active set (dropping rows whose multiplier reaches 0 on the way);
  /// a status when the solve ends there (infeasible, out of iterations), none when the row was added.
  std::optional<QpStatus> addViolatedRow(const QpProblem& problem, int row, int maxIterations);

  /// The normal of constraint k in Goldfarb-Idnani form n^T x >= rhs (equalities: n^T x = rhs): equality k
  /// is row k of Aeq; inequality i (k = me + i) is minus row i of A, with rhs -b_i.
  void loadNormal(const QpProblem& problem, int constraint);
  double rhs(const QpProblem& problem, int constraint) const;

  QpCapacity capacity_;
  QpSettings settings_;
  ActiveSetFactorization factorisation_;
  QpStatus status_ = QpStatus::notSolved;
  bool hessianFactorised_ = false;
  int n_ = 0, me_ = 0, mi_ = 0;
  int iterations_ = 0, factorUpdates_ = 0, blockingConstraint_ = -1;
  double objective_ = 0.0;
  double startNorm_ = 0.0; ///< |x| at the start of the last solve, the scale of the feasibility tolerance

  // Per variable (capacity.variables).
  std::vector<double> x_, normal_, z_, r_, u_, rhs_;
  std::vector<int> active_; ///< constraint index (equalities 0..me-1, then me + row of A) per active position
  int equalitiesActive_ = 0; ///< active positions [0, equalitiesActive_) hold equalities, never dropped
  // Per constraint.
  std::vector<double> slack_, inverseRowNorm_, rowTolerance_, boundTolerance_;
  std::vector<char> isActive_, dependentEquality_;
  std::vector<double> equalityMultipliers_, inequalityMultipliers_;
  std::vector<int> warmStart_; ///< active inequalities after a solve, start set of the next warm solve
  int warmCount_ = 0;
};
} // namespace nao::optimization
