#pragma once
// Hierarchical least squares (the Stack of Tasks; README.md of this folder):
//
//   level k (0 = highest priority): equality rows A_k x = b_k, inequality rows lo_k <= C_k x <= hi_k.
//
// The answer is the lexicographic optimum: level 0 minimises the squared 2-norm of its violation (equality
// residuals and inequality violations); level k minimises its own without changing any higher level's optimal
// violation (those rows become constraints with their slack fixed); among all such x the one of least norm.
// A level that cannot be met is allowed: its least violation is the answer, reported per level (slackNorms()).
//
// Exact mode ends each level with a finishing least squares on a guess of the rows that hold, kept only where it
// meets the level's KKT conditions (HqpSolverFinish.cpp); the guesses come from x, then from the level's QP over
// (x, slack) (QpSolver), then from proximal refinement of that QP. Damped mode solves one QP per level with a
// damping weight on |x|^2. Capacity is fixed at construction; clear(), addLevel() and solve() never allocate.
#include "Tools/Optimization/QpSolver.h"
#include "Tools/Streams/Enum.h"
#include "Tools/TaskStack/ConstrainedLeastSquares.h"

#include <Eigen/Core>
#include <memory>
#include <span>
#include <vector>

namespace nao::taskstack
{
/// A bound whose magnitude is at least this is absent (the JSON files write ±1e300; infinities are accepted).
inline constexpr double unboundedMagnitude = 1e300;

NAO_ENUM(HqpStatus, int,
         optimal,        ///< every level solved; in exact mode every refinement converged
         notConverged,   ///< exact mode: a level's refinement reached HqpSettings::maxRefinements
         qpFailed,       ///< a level's QP did not solve (failedLevel(), qpStatus())
         invalidProblem, ///< sizes disagree or exceed the capacity, a number is not finite, or lo > hi
         notSolved,      ///< no solve() yet
);

NAO_ENUM(HqpMode, int,
         exact,  ///< lexicographic optimum without damping (finishing least squares, proximal refinement)
         damped, ///< one QP per level with damping * |x|^2 added to the level's objective
);

struct HqpCapacity
{
  int variables = 0;
  int levels = 0;
  int equalityRows = 0;   ///< over all levels
  int inequalityRows = 0; ///< over all levels
};

struct HqpSettings
{
  HqpMode mode = HqpMode::exact;
  /// Damped mode: the weight of |x|^2 in each level's objective (|slack|^2 has weight 1).
  double damping = 1e-6;
  /// Exact mode: the weight mu of |x - x_previous|^2 in each refinement step. Smaller converges in fewer steps
  /// on well-conditioned rows, larger keeps the QP better conditioned.
  double proximalWeight = 1e-3;
  /// Exact mode: a level is converged when a step moves x by at most this times max(1, |x|) (max norms).
  double convergenceTolerance = 1e-13;
  /// Exact mode: a level is also converged when a step of at most this times max(1, |x|) moved x no less than
  /// 0.9 times the step before (the rounding floor of the QP, not progress).
  double stagnationTolerance = 1e-10;
  /// Exact mode: refinement steps per level before notConverged.
  int maxRefinements = 2000;
  /// Exact mode: finish a level by an equality-constrained least squares on the rows its QP found active, kept
  /// only where it meets the level's optimality conditions (ConstrainedLeastSquares.h); false: refinement only.
  bool finish = true;
  /// A level's QP that stops "infeasible" although the point of the level above meets its rows (a degenerate
  /// vertex) is solved again with the rows above opened by this, relative to 1 + |bound|.
  double degeneracyRelaxation = 1e-9;
  /// Exact mode: finishing attempts before a level's first QP, each guess corrected by the one before.
  int guessesBeforeQp = 3;
  /// Exact mode: relative tolerance of that check (feasibility, leftover gradient, multiplier signs).
  double finishTolerance = 1e-9;
  /// The QP of each level. Near a singular posture (an arm stretched toward a target out of reach) a level's rows
  /// are nearly dependent on the fixed rows above; a row within 1e-8 of their span counts as dependent (and must
  /// agree with them to that), where 1e-10 would take rounding noise for a direction and call the QP infeasible.
  optimization::QpSettings qp = {.dependenceTolerance = 1e-8};
};

class HqpSolver
{
public:
  explicit HqpSolver(HqpCapacity capacity, HqpSettings settings = {});

  /// Removes every level; the next problem has `variables` unknowns.
  void clear(int variables);

  /// Appends the next lower level: rows equalities * x = target and lower <= inequalities * x <= upper (either set
  /// may have 0 rows). Returns false (and solve() then says invalidProblem) when it does not fit or sizes disagree.
  bool addLevel(const Eigen::Ref<const Eigen::MatrixXd>& equalities,
                const Eigen::Ref<const Eigen::VectorXd>& target,
                const Eigen::Ref<const Eigen::MatrixXd>& inequalities,
                const Eigen::Ref<const Eigen::VectorXd>& lower,
                const Eigen::Ref<const Eigen::VectorXd>& upper);

  HqpStatus solve();

  HqpStatus status() const { return status_; }
  Eigen::Map<const Eigen::VectorXd> solution() const { return {x_.data(), n_}; }
  /// Per level: the 2-norm of its violation at solution() (equality residuals and inequality violations).
  std::span<const double> slackNorms() const
  {
    return {slackNorms_.data(), static_cast<std::size_t>(levels_)};
  }
  int levels() const { return levels_; }
  int failedLevel() const { return failedLevel_; } ///< -1, or the level whose QP failed or did not converge
  optimization::QpStatus qpStatus() const { return qp_.status(); }
  int refinements() const
  {
    return refinements_;
  } ///< exact mode: refinement QPs of the last solve, all levels
  /// Exact mode: levels of the last solve that the finishing least squares closed, and of those the ones it
  /// closed before any QP (guessFromAbove()).
  int finishedLevels() const { return finishedLevels_; }
  int levelsWithoutQp() const { return levelsWithoutQp_; }
  /// QPs of the last solve that needed the rows above opened by degeneracyRelaxation.
  int relaxedQps() const { return relaxedQps_; }
  HqpSettings& settings() { return settings_; }
  const HqpCapacity& capacity() const { return capacity_; }

private:
  struct Level
  {
    int firstEquality = 0, equalities = 0, firstInequality = 0, inequalities = 0;
  };

  bool validProblem() const;
  /// The rows of `level`; for level == levels() (the least-norm step) every row, all of them above.
  Level rowsOf(int level) const
  {
    return level < levels_ ? level_[level] : Level{equalities_, 0, inequalities_, 0};
  }
  /// Fills the QP of `level` (its own rows with slacks, the rows of the levels above fixed), or of the final
  /// minimum-norm step when level == levels_; returns the number of variables.
  int buildLevelQp(int level, double xWeight);
  bool solveLevel(int level);
  /// The finishing step of an exact level from the current QP solution; true (and x_ set) when it is optimal.
  /// With `adjust`, a refusal corrects guessSide_ toward what the candidate showed.
  bool finishLevel(int level, const Eigen::Ref<const Eigen::VectorXd>& near, bool adjust = false);
  bool atBound(int row, const ConstrainedLeastSquares::Vector& x) const;
  /// finishLevel's least-squares problem: the rows above (fixed, and held inequalities) as constraints, the
  /// level's own rows (or the identity for the least-norm step) and its held inequalities as objective.
  void buildLevelProblem(const Level& own, bool final, int constraints, int objectiveRows);
  /// Every row above within its fixed target or bounds at x; with `adjust`, a row it crosses is held next time
  /// (and `optimal` false) instead of a refusal.
  bool rowsAboveHold(const Level& own, const ConstrainedLeastSquares::Vector& x, bool adjust, bool& optimal);
  /// The multipliers of x balance the level's true gradient and no held row pulls inward (within the tolerance);
  /// with `adjust`, the guess is corrected.
  bool multipliersAgree(const Level& own, const ConstrainedLeastSquares::Vector& x, bool final, bool adjust,
                        int constraints);
  /// The finishing step before any QP, from the rows above that the current x holds at a bound and the level's
  /// own rows inside: most frames' levels end here.
  bool guessFromAbove(int level);
  /// Reads the QP's guess of the held sides (guessSide_); false when it is the guess of the last attempt.
  bool guessChanged(int level, bool first);
  void fixLevel(int level);
  optimization::QpProblem problem(int variables);

  HqpCapacity capacity_;
  HqpSettings settings_;
  optimization::QpSolver qp_;
  int n_ = 0, levels_ = 0, equalities_ = 0, inequalities_ = 0;
  bool overflow_ = false;
  HqpStatus status_ = HqpStatus::notSolved;
  int failedLevel_ = -1, refinements_ = 0, finishedLevels_ = 0, levelsWithoutQp_ = 0, relaxedQps_ = 0;
  double relaxation_ = 0.0; ///< how far buildLevelQp() opens the rows above (degeneracyRelaxation, or 0)
  int lastQpLevel_ = -1; ///< the level of the last QP of this solve (its active rows start the next), or -1

  std::vector<Level> level_;
  Eigen::MatrixXd a_, c_;                      ///< every level's equality rows, inequality rows, stacked
  Eigen::VectorXd b_, lo_, hi_;                ///< their targets and bounds
  Eigen::VectorXd fixedB_, fixedLo_, fixedHi_; ///< the same with the slack of their level's optimum added
  // The QP (capacity n + equalityRows + inequalityRows variables).
  Eigen::MatrixXd hessian_, qpEq_, qpIneq_;
  Eigen::VectorXd gradient_, qpBeq_, qpBIneq_;
  int qpEqualities_ = 0, qpInequalities_ = 0;
  std::vector<int> qpRow_;     ///< per QP inequality row: its row of c_
  std::vector<double> qpSide_; ///< per QP inequality row: +1 upper bound, -1 lower bound
  std::vector<int> guessSide_; ///< per row of c_: the side the level's QP holds it at (0: free or inside)
  std::vector<int> lastGuess_; ///< guessSide_ at the last finishing attempt
  std::vector<int> heldRow_;   ///< per held row above in the finishing least squares: its row of c_
  std::unique_ptr<ConstrainedLeastSquares> finish_;
  Eigen::VectorXd levelGradient_;
  Eigen::VectorXd
      baseGradient_; ///< the QP's gradient in x without the proximal term (-A^T b of a folded level)
  ConstrainedLeastSquares::Vector multipliers_;
  std::vector<double> x_, previous_, slackNorms_;
};
} // namespace nao::taskstack
