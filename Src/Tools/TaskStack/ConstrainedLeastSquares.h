#pragma once
// min |E x - t|^2 subject to G x = g, solved exactly by the null-space method (Householder QR with column
// pivoting of G^T, then of E Z), and the multipliers of G at the answer. HqpSolver uses it to finish a level once
// its QP has found the active rows: the answer then has no damping left in it (README.md of this folder).
//
// Storage has a compile-time maximum so that Eigen's decompositions never allocate; problems beyond it are
// refused (fits()), and HqpSolver then goes on with its proximal refinement alone.
#include <Eigen/Core>
#include <Eigen/QR>

namespace nao::taskstack
{
class ConstrainedLeastSquares
{
public:
  static constexpr int maxVariables = 64;
  static constexpr int maxRows = 192; ///< constraint rows, and objective rows, each

  using Wide = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, maxVariables, maxRows>;
  using Tall = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, maxRows, maxVariables>;
  using Square = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, maxVariables, maxVariables>;
  using Vector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, maxRows, 1>;

  /// A row counts as dependent on others when the part of it outside their span is below this fraction of the
  /// largest row (as QpSolver's dependenceTolerance).
  static constexpr double dependenceTolerance = 1e-10;

  static bool fits(int variables, int constraints, int objectiveRows)
  {
    return variables <= maxVariables && constraints <= maxRows && objectiveRows <= maxRows;
  }

  /// Sizes the problem (within fits()); then fill constraintRowsTransposed (n x p, column i = row i of G),
  /// constraintTargets (p), objectiveRows (q x n), objectiveTargets (q).
  void resize(int variables, int constraints, int objectiveRows);

  /// Solves; of all minimisers the one nearest to `near` (n). Constraint rows that depend on others (within
  /// dependenceTolerance) are left out, so the caller checks that they hold. False when the answer is not finite.
  bool solve(const Eigen::Ref<const Eigen::VectorXd>& near);
  const Vector& solution() const { return x_; }

  /// Multipliers lambda with gradient + G^T lambda = 0 in the least-squares sense (a basic solution when G's
  /// rows are dependent); returns the 2-norm of what remains of the gradient (0 at a constrained optimum).
  double multipliers(const Eigen::Ref<const Eigen::VectorXd>& gradient, Vector& lambda);

  Wide constraintRowsTransposed;
  Tall objectiveRows;
  Vector constraintTargets, objectiveTargets;

private:
  int n_ = 0, p_ = 0, q_ = 0, rank_ = 0;
  Eigen::ColPivHouseholderQR<Wide> constraintQr_;
  Eigen::ColPivHouseholderQR<Tall> reducedQr_;
  Square
      orthogonal_;  ///< Q of G^T = Q R P^T: its first rank_ columns span G's rows, the others its null space
  Tall reduced_;    ///< E times the null-space columns
  Square rowSpace_; ///< the transposed rows of reduced_'s triangular factor, for the least-norm step
  Eigen::HouseholderQR<Square> rowSpaceQr_;
  Vector x_, u_, rhs_, work_;
};
} // namespace nao::taskstack
