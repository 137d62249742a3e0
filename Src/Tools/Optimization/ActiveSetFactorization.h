#pragma once
// The factorisation a dual active-set QP method keeps up to date (Goldfarb and Idnani 1983, section 3):
// with H = L L^T and N the matrix whose columns are the normals of the q active constraints,
//   J = L^-T Q,   J^T N = Q^T L^-1 N = [R; 0],   Q = [Q1 Q2] orthogonal, R upper triangular (q x q).
// J2 = L^-T Q2 spans the directions that keep the active constraints; J1 = L^-T Q1 with R gives the
// multipliers.
//
// Stored: L, Q1 (n x q) and R. J2 is never formed: everything the method needs from it is a projection,
// Q2 Q2^T = I - Q1 Q1^T, applied a second time when the first one cancelled much ("twice is enough": the
// second pass removes what rounding left of Q1, so Q1 stays orthonormal to working precision, as with
// Householder QR). This makes an update O(n q) plus
// two triangular solves with L (O(n) for a diagonal H, the joint weights of a robot), where updating an
// explicit n x n J costs O(n^2) whatever H is. Adding a constraint appends a column to Q1 and R; dropping
// one restores R with Givens rotations of neighbouring rows, applied to the same columns of Q1.
//
// Storage is allocated once for `capacity` variables; no method allocates.
#include <Eigen/Core>
#include <vector>

namespace nao::optimization
{
class ActiveSetFactorization
{
public:
  explicit ActiveSetFactorization(int capacity);

  /// Factorises `hessian` (n x n, lower triangle read), no active constraint. False when the matrix is not
  /// (numerically) positive definite: a squared pivot below `pivotTolerance` times the largest diagonal
  /// entry, or not finite. A diagonal H takes O(n^2) (the check) instead of O(n^3).
  bool reset(const Eigen::Ref<const Eigen::MatrixXd>& hessian, double pivotTolerance);

  /// No active constraint, keeping the factor of the last successful reset().
  void restart() { q_ = 0; }

  int size() const { return n_; }
  int activeCount() const { return q_; }

  /// Prepares adding the constraint with `normal` (size n): d = J^T normal = (d1, d2). Gives the primal step
  /// direction z = J2 d2 (size n) and the dual one r = R^-1 d1 (size q), and returns |d2|^2 = z^T normal,
  /// the curvature along the step, or 0 (z = 0) when the normal depends on the active ones:
  /// |d2| <= dependenceTolerance * |d|.
  double prepare(const Eigen::Ref<const Eigen::VectorXd>& normal, double dependenceTolerance,
                 Eigen::Ref<Eigen::VectorXd> z, Eigen::Ref<Eigen::VectorXd> r);

  /// Appends the constraint of the last prepare(), which must have returned a curvature > 0, with no drop()
  /// since: Q1 gains the unit vector of the new direction, R the column (d1, |d2|).
  void addPrepared();

  /// Removes the active constraint at `position` (0 <= position < q); later ones move up by one.
  void drop(int position);

  /// The equality-constrained optimum of 1/2 x^T H x + g^T x subject to N_A^T x = rhs (rhs: q entries, the
  /// right-hand sides of the active constraints in order): x (size n) and the multipliers u (size q) with
  /// H x + g = N_A u.
  void subproblemSolution(const Eigen::Ref<const Eigen::VectorXd>& gradient,
                          const Eigen::Ref<const Eigen::VectorXd>& rhs, Eigen::Ref<Eigen::VectorXd> x,
                          Eigen::Ref<Eigen::VectorXd> u);

  /// |H^-1 g|: the size of the unconstrained minimum, a scale for tolerances.
  double unconstrainedMinimumNorm(const Eigen::Ref<const Eigen::VectorXd>& gradient);

  /// x^T H x from the factor (H itself is not kept).
  double quadraticForm(const Eigen::Ref<const Eigen::VectorXd>& x);

  Eigen::Map<const Eigen::MatrixXd> Q1() const { return {q1_.data(), n_, q_}; }
  Eigen::Map<const Eigen::MatrixXd> R() const { return {r_.data(), n_, n_}; } ///< upper q x q block used

private:
  void solveLower(Eigen::Ref<Eigen::VectorXd> vector) const;           ///< vector = L^-1 vector
  void solveLowerTransposed(Eigen::Ref<Eigen::VectorXd> vector) const; ///< vector = L^-T vector
  void solveUpper(Eigen::Ref<Eigen::VectorXd> vector) const; ///< vector.head(q) = R^-1 vector.head(q)
  /// d1 = Q1^T v, v -= Q1 d1, a second time when the first cancelled more than half of |v|^2; returns |v|^2
  /// afterwards.
  double projectOutActive(Eigen::Ref<Eigen::VectorXd> v, Eigen::Ref<Eigen::VectorXd> d1);

  int capacity_;
  int n_ = 0;
  int q_ = 0;
  bool diagonal_ = false;
  std::vector<double> l_; ///< Cholesky factor L, n x n column-major (only the diagonal set if diagonal_)
  std::vector<double> inverseDiagonal_; ///< 1 / L_ii when diagonal_ (multiplying is cheaper than dividing)
  std::vector<double> q1_;              ///< Q1, n x q column-major
  std::vector<double> r_;               ///< R, n x n column-major, upper q x q used
  std::vector<double> residual_;        ///< L^-1 normal without its Q1 part, of the last prepare()
  std::vector<double> d1_;              ///< Q1^T L^-1 normal of the last prepare()
  double residualNorm_ = 0.0;           ///< |d2| of the last prepare()
  std::vector<double> scratch_;         ///< 2 n
};
} // namespace nao::optimization
