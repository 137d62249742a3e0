// Equality-constrained least squares by the null-space method (ConstrainedLeastSquares.h).
//
// G^T P = Q R (pivoted QR, rank r): G = P R^T Q^T, so with u = Q^T x the constraints read R11^T u1 = (P^T g)_1:r
// (and R12^T u1 = (P^T g)_r+1:p, which holds when the rows are consistent); u2 is free and minimises
// |E Q2 u2 - (t - E Q1 u1)|; of all its minimisers (the residual E x - t is the same for each) the one nearest
// to the given point.
#include "Tools/TaskStack/ConstrainedLeastSquares.h"

#include <algorithm>
#include <cmath>

namespace nao::taskstack
{
void ConstrainedLeastSquares::resize(int variables, int constraints, int objectiveRows)
{
  n_ = variables;
  p_ = constraints;
  q_ = objectiveRows;
  constraintRowsTransposed.resize(n_, p_);
  constraintTargets.resize(p_);
  this->objectiveRows.resize(q_, n_);
  objectiveTargets.resize(q_);
}

bool ConstrainedLeastSquares::solve(const Eigen::Ref<const Eigen::VectorXd>& near)
{
  u_.setZero(n_);
  rank_ = 0;
  if (p_ > 0)
  {
    constraintQr_.setThreshold(dependenceTolerance);
    constraintQr_.compute(constraintRowsTransposed);
    rank_ = static_cast<int>(constraintQr_.rank());
    orthogonal_.resize(n_, n_);
    orthogonal_ = constraintQr_.householderQ();
    rhs_.resize(p_);
    rhs_.noalias() = constraintQr_.colsPermutation().transpose() * constraintTargets;
    const auto r11 = constraintQr_.matrixQR().topLeftCorner(rank_, rank_);
    u_.head(rank_) = r11.transpose().template triangularView<Eigen::Lower>().solve(rhs_.head(rank_));
    // Rows dependent on the others (below the rank) are left out: whether they agree is the caller's check.
  }
  else
    orthogonal_.setIdentity(n_, n_);

  // x = Q1 u1 + Q2 (Q2^T near + v): the constraints fix u1; v is the least change that minimises the objective.
  const int free = n_ - rank_;
  x_.resize(n_);
  x_.noalias() = orthogonal_.leftCols(rank_) * u_.head(rank_);
  u_.tail(free).noalias() = orthogonal_.rightCols(free).transpose() * near;
  x_.noalias() += orthogonal_.rightCols(free) * u_.tail(free);
  if (free > 0 && q_ > 0)
  {
    reduced_.resize(q_, free);
    reduced_.noalias() = objectiveRows * orthogonal_.rightCols(free);
    rhs_.resize(q_);
    rhs_ = objectiveTargets;
    rhs_.noalias() -= objectiveRows * x_;
    // E Z P = Q' [W; 0], W = [R11 R12] of full row rank k. The rank counts pivots against E's own size, not
    // against E Z's largest pivot: rows of E that depend on G leave rounding noise in E Z, no direction to move.
    reducedQr_.compute(reduced_);
    const double floor = dependenceTolerance * objectiveRows.rowwise().norm().maxCoeff();
    int rank = 0;
    while (rank < std::min(q_, free) && std::abs(reducedQr_.matrixQR()(rank, rank)) > floor)
      ++rank;
    rhs_.applyOnTheLeft(reducedQr_.householderQ().adjoint());
    // The least-norm y with W y = c1: W^T = Q'' R'', y = Q'' R''^-T c1.
    work_.setZero(free);
    if (rank > 0)
    {
      rowSpace_.resize(free, rank);
      rowSpace_ = reducedQr_.matrixQR().topRows(rank).template triangularView<Eigen::Upper>().transpose();
      rowSpaceQr_.compute(rowSpace_);
      work_.head(rank) = rowSpaceQr_.matrixQR()
                             .topLeftCorner(rank, rank)
                             .template triangularView<Eigen::Upper>()
                             .transpose()
                             .solve(rhs_.head(rank));
      work_.applyOnTheLeft(rowSpaceQr_.householderQ());
    }
    u_.head(free).noalias() = reducedQr_.colsPermutation() * work_;
    x_.noalias() += orthogonal_.rightCols(free) * u_.head(free);
  }
  return x_.allFinite();
}

double ConstrainedLeastSquares::multipliers(const Eigen::Ref<const Eigen::VectorXd>& gradient, Vector& lambda)
{
  lambda.setZero(p_);
  if (p_ == 0) return gradient.norm();
  // R (P^T lambda) = -Q^T gradient; the rows below the rank are what no multiplier can cancel.
  work_.resize(n_);
  work_.noalias() = -orthogonal_.transpose() * gradient;
  const auto r11 = constraintQr_.matrixQR().topLeftCorner(rank_, rank_);
  rhs_.resize(p_);
  rhs_.setZero();
  rhs_.head(rank_) = r11.template triangularView<Eigen::Upper>().solve(work_.head(rank_));
  lambda.noalias() = constraintQr_.colsPermutation() * rhs_;
  return work_.tail(n_ - rank_).norm();
}
} // namespace nao::taskstack
