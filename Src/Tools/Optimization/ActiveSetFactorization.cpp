#include "Tools/Optimization/ActiveSetFactorization.h"

#include <cmath>
#include <stdexcept>

namespace nao::optimization
{
namespace
{
bool isDiagonal(const Eigen::Ref<const Eigen::MatrixXd>& matrix)
{
  // A plain loop: one Eigen expression per column costs more in set-up than the comparisons.
  const Eigen::Index n = matrix.rows();
  for (Eigen::Index column = 0; column + 1 < n; ++column) // the lower triangle is what is read
  {
    const double* entry = matrix.data() + column * matrix.outerStride();
    for (Eigen::Index row = column + 1; row < n; ++row)
      if (entry[row] != 0.0) return false;
  }
  return true;
}

std::size_t squared(int capacity)
{
  return static_cast<std::size_t>(capacity) * static_cast<std::size_t>(capacity);
}
} // namespace

ActiveSetFactorization::ActiveSetFactorization(int capacity)
    : capacity_(capacity), l_(squared(capacity)), inverseDiagonal_(static_cast<std::size_t>(capacity)),
      q1_(squared(capacity)), r_(squared(capacity)), residual_(static_cast<std::size_t>(capacity)),
      d1_(static_cast<std::size_t>(capacity)), scratch_(2 * static_cast<std::size_t>(capacity))
{
  if (capacity < 0) throw std::invalid_argument("ActiveSetFactorization: negative capacity");
}

bool ActiveSetFactorization::reset(const Eigen::Ref<const Eigen::MatrixXd>& hessian, double pivotTolerance)
{
  if (hessian.rows() > capacity_ || hessian.rows() != hessian.cols())
    throw std::invalid_argument("ActiveSetFactorization: Hessian not square or beyond the capacity");
  n_ = static_cast<int>(hessian.rows());
  q_ = 0;
  const int n = n_;
  Eigen::Map<Eigen::MatrixXd> lower(l_.data(), n, n);
  const double largestDiagonal = n > 0 ? hessian.diagonal().cwiseAbs().maxCoeff() : 0.0;
  diagonal_ = isDiagonal(hessian);
  if (diagonal_) // only the diagonal of L is set and read
  {
    for (int i = 0; i < n; ++i)
    {
      const double squaredPivot = hessian(i, i);
      if (!std::isfinite(squaredPivot) || squaredPivot <= pivotTolerance * largestDiagonal) return false;
      lower(i, i) = std::sqrt(squaredPivot);
      inverseDiagonal_[static_cast<std::size_t>(i)] = 1.0 / lower(i, i);
    }
    return true;
  }
  // Cholesky, right-looking: each finished column updates the trailing block in one rank-1 update (one Eigen
  // expression per column: Eigen's blocked LLT packs its operands, which costs more than the arithmetic at
  // n = 25, and plain loops are not vectorised at -O2).
  lower.triangularView<Eigen::Lower>() = hessian;
  for (int c = 0; c < n; ++c)
  {
    const double squaredPivot = lower(c, c);
    if (!std::isfinite(squaredPivot) || squaredPivot <= pivotTolerance * largestDiagonal) return false;
    const int below = n - c - 1;
    lower(c, c) = std::sqrt(squaredPivot);
    lower.col(c).tail(below) *= 1.0 / lower(c, c);
    lower.bottomRightCorner(below, below)
        .selfadjointView<Eigen::Lower>()
        .rankUpdate(lower.col(c).tail(below), -1.0);
  }
  return true;
}

void ActiveSetFactorization::solveLower(Eigen::Ref<Eigen::VectorXd> vector) const
{
  const Eigen::Map<const Eigen::MatrixXd> lower(l_.data(), n_, n_);
  if (diagonal_)
  {
    vector.head(n_).array() *= Eigen::Map<const Eigen::ArrayXd>(inverseDiagonal_.data(), n_);
    return;
  }
  lower.triangularView<Eigen::Lower>().solveInPlace(vector.head(n_));
}

void ActiveSetFactorization::solveLowerTransposed(Eigen::Ref<Eigen::VectorXd> vector) const
{
  const Eigen::Map<const Eigen::MatrixXd> lower(l_.data(), n_, n_);
  if (diagonal_)
  {
    vector.head(n_).array() /= lower.diagonal().array();
    return;
  }
  for (int k = n_ - 1; k >= 0; --k)
    vector[k] =
        (vector[k] - lower.col(k).tail(n_ - k - 1).dot(vector.segment(k + 1, n_ - k - 1))) / lower(k, k);
}

double ActiveSetFactorization::unconstrainedMinimumNorm(const Eigen::Ref<const Eigen::VectorXd>& gradient)
{
  Eigen::Map<Eigen::VectorXd> minimum(scratch_.data(), n_);
  minimum = gradient.head(n_);
  solveLower(minimum);
  solveLowerTransposed(minimum);
  return minimum.norm();
}

double ActiveSetFactorization::quadraticForm(const Eigen::Ref<const Eigen::VectorXd>& x)
{
  const Eigen::Map<const Eigen::MatrixXd> lower(l_.data(), n_, n_);
  Eigen::Map<Eigen::VectorXd> product(scratch_.data(), n_);
  if (diagonal_)
    product = lower.diagonal().cwiseProduct(x.head(n_));
  else
    product.noalias() = lower.transpose().triangularView<Eigen::Upper>() * x.head(n_);
  return product.squaredNorm();
}

void ActiveSetFactorization::solveUpper(Eigen::Ref<Eigen::VectorXd> vector) const
{
  const Eigen::Map<const Eigen::MatrixXd> r(r_.data(), n_, n_);
  for (int k = q_ - 1; k >= 0; --k)
  {
    vector[k] /= r(k, k);
    vector.head(k) -= vector[k] * r.col(k).head(k);
  }
}

double ActiveSetFactorization::projectOutActive(Eigen::Ref<Eigen::VectorXd> v, Eigen::Ref<Eigen::VectorXd> d1)
{
  const double before = v.head(n_).squaredNorm();
  if (q_ == 0) return before;
  const auto q1 = Q1();
  d1.head(q_).noalias() = q1.transpose() * v.head(n_);
  v.head(n_).noalias() -= q1 * d1.head(q_);
  const double after = v.head(n_).squaredNorm();
  // Kahan's criterion: if less than half of |v|^2 cancelled, the first pass is accurate to working precision;
  // otherwise a second pass removes what rounding left of Q1 ("twice is enough").
  if (after > 0.5 * before) return after;
  Eigen::Map<Eigen::VectorXd> correction(scratch_.data(), q_);
  correction.noalias() = q1.transpose() * v.head(n_);
  v.head(n_).noalias() -= q1 * correction;
  d1.head(q_) += correction;
  return v.head(n_).squaredNorm();
}

double ActiveSetFactorization::prepare(const Eigen::Ref<const Eigen::VectorXd>& normal,
                                       double dependenceTolerance, Eigen::Ref<Eigen::VectorXd> z,
                                       Eigen::Ref<Eigen::VectorXd> r)
{
  // d = J^T normal = Q^T L^-1 normal: d1 = Q1^T L^-1 normal, and |d2| = |L^-1 normal - Q1 d1|.
  Eigen::Map<Eigen::VectorXd> residual(residual_.data(), n_), d1(d1_.data(), n_);
  residual = normal.head(n_);
  solveLower(residual);
  const double squaredNorm = residual.squaredNorm();
  const double squaredNorm2 = projectOutActive(residual, d1);
  r.head(q_) = d1.head(q_);
  solveUpper(r);
  if (q_ == n_ || squaredNorm2 <= dependenceTolerance * dependenceTolerance * squaredNorm)
  {
    z.head(n_).setZero();
    residualNorm_ = 0.0;
    return 0.0;
  }
  // z = J2 d2 = L^-T Q2 Q2^T L^-1 normal = L^-T residual.
  z.head(n_) = residual;
  solveLowerTransposed(z);
  residualNorm_ = std::sqrt(squaredNorm2);
  return squaredNorm2;
}

void ActiveSetFactorization::addPrepared()
{
  Eigen::Map<Eigen::MatrixXd> q1(q1_.data(), n_, q_ + 1);
  Eigen::Map<Eigen::MatrixXd> r(r_.data(), n_, n_);
  q1.col(q_) = Eigen::Map<const Eigen::VectorXd>(residual_.data(), n_) * (1.0 / residualNorm_);
  r.col(q_).head(q_) = Eigen::Map<const Eigen::VectorXd>(d1_.data(), q_);
  r(q_, q_) = residualNorm_;
  ++q_;
}

void ActiveSetFactorization::drop(int position)
{
  Eigen::Map<Eigen::MatrixXd> r(r_.data(), n_, n_);
  Eigen::Map<Eigen::MatrixXd> q1(q1_.data(), n_, q_);
  // Removing column `position` leaves R upper Hessenberg from there on: shift the later columns left, then
  // rotate neighbouring rows (and the same neighbouring columns of Q1, since R = Q1^T L^-1 N) to clear the
  // subdiagonal.
  for (int column = position; column + 1 < q_; ++column)
    r.col(column).head(column + 2) = r.col(column + 1).head(column + 2);
  for (int row = position; row + 1 < q_; ++row)
  {
    const double a = r(row, row);
    const double b = r(row + 1, row);
    const double length = std::hypot(a, b);
    if (length == 0.0) continue;
    const double c = a / length;
    const double s = b / length;
    r(row, row) = length;
    r(row + 1, row) = 0.0;
    for (int column = row + 1; column + 1 < q_; ++column)
    {
      const double upper = r(row, column);
      const double lower = r(row + 1, column);
      r(row, column) = c * upper + s * lower;
      r(row + 1, column) = c * lower - s * upper;
    }
    auto left = q1.col(row);
    auto right = q1.col(row + 1);
    for (int i = 0; i < n_; ++i)
    {
      const double l = left[i];
      left[i] = c * l + s * right[i];
      right[i] = c * right[i] - s * l;
    }
  }
  --q_;
}

void ActiveSetFactorization::subproblemSolution(const Eigen::Ref<const Eigen::VectorXd>& gradient,
                                                const Eigen::Ref<const Eigen::VectorXd>& rhs,
                                                Eigen::Ref<Eigen::VectorXd> x, Eigen::Ref<Eigen::VectorXd> u)
{
  // In y = L^T x the objective is 1/2 |y|^2 + gy^T y with gy = L^-1 g, and the active constraints read
  // R^T Q1^T y = rhs. So Q1^T y = y1 = R^-T rhs, y = Q1 y1 - (I - Q1 Q1^T) gy = Q1 (y1 + Q1^T gy) - gy, and
  // the multipliers solve R u = y1 + Q1^T gy.
  const Eigen::Map<const Eigen::MatrixXd> r(r_.data(), n_, n_);
  Eigen::Map<Eigen::VectorXd> gy(scratch_.data(), n_), combined(scratch_.data() + capacity_, q_);
  gy = gradient.head(n_);
  solveLower(gy);
  for (int k = 0; k < q_; ++k) // y1 = R^-T rhs, forward substitution on the columns of R
    combined[k] = (rhs[k] - r.col(k).head(k).dot(combined.head(k))) / r(k, k);
  combined.noalias() += Q1().transpose() * gy;
  x.head(n_) = -gy;
  x.head(n_).noalias() += Q1() * combined;
  solveLowerTransposed(x);
  u.head(q_) = combined;
  solveUpper(u);
}
} // namespace nao::optimization
