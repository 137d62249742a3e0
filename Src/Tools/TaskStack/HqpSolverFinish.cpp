// HqpSolver's finishing step of an exact level (README.md of this folder, "Method").
//
// The level's QP (with its proximal weight) tells which rows hold: the levels above that are at a bound, and its
// own inequality rows beyond or at a bound. With those as equalities and targets, an equality-constrained least
// squares gives a candidate without any weight on x. It is kept only when it meets the level's optimality
// conditions, checked on the true problem: every row above within its fixed bounds, the level's gradient of
// 1/2 |violation|^2 cancelled by multipliers of the held rows, and every held bound's multiplier pushing outward.
// A convex problem's KKT point is its optimum, so a wrong guess is refused, never used.
#include "Tools/TaskStack/HqpSolver.h"

#include <algorithm>
#include <cmath>

namespace nao::taskstack
{
namespace
{
double violationOf(double v, double lower, double upper)
{
  if (upper < unboundedMagnitude && v > upper) return v - upper;
  if (lower > -unboundedMagnitude && v < lower) return v - lower;
  return 0.0;
}
} // namespace

bool HqpSolver::guessChanged(int level, bool first)
{
  // The sides the QP holds: rows above when active, own rows by their slack (or an active side without slack).
  const Level own = rowsOf(level);
  const int rows = own.firstInequality + own.inequalities;
  const auto qpX = qp_.solution();
  std::fill_n(guessSide_.begin(), rows, 0);
  for (int k : qp_.activeInequalities())
    guessSide_[qpRow_[k]] = static_cast<int>(qpSide_[k]);
  for (int i = 0; i < own.inequalities; ++i)
  {
    const int row = own.firstInequality + i;
    const double slack = qpX[n_ + own.equalities + i];
    if (std::abs(slack) > settings_.finishTolerance * (1.0 + std::abs(slack > 0 ? hi_[row] : lo_[row])))
      guessSide_[row] = slack > 0 ? 1 : -1;
  }
  if (!first && std::equal(guessSide_.begin(), guessSide_.begin() + rows, lastGuess_.begin())) return false;
  std::copy_n(guessSide_.begin(), rows, lastGuess_.begin());
  return true;
}

bool HqpSolver::guessFromAbove(int level)
{
  // Rows above at their fixed bound at the current x are held; the level's own rows are guessed inside.
  const Level own = rowsOf(level);
  const Eigen::Map<const Eigen::VectorXd> x(x_.data(), n_);
  const double tolerance = settings_.finishTolerance;
  for (int row = 0; row < own.firstInequality; ++row)
  {
    const double v = c_.row(row).head(n_).dot(x);
    guessSide_[row] = 0;
    if (fixedHi_[row] < unboundedMagnitude &&
        v >= fixedHi_[row] - tolerance * (1.0 + std::abs(fixedHi_[row])))
      guessSide_[row] = 1;
    else if (fixedLo_[row] > -unboundedMagnitude &&
             v <= fixedLo_[row] + tolerance * (1.0 + std::abs(fixedLo_[row])))
      guessSide_[row] = -1;
  }
  std::fill_n(guessSide_.begin() + own.firstInequality, own.inequalities, 0);
  for (int guess = 0; guess < settings_.guessesBeforeQp; ++guess)
    if (finishLevel(level, x, true)) return true;
  return false;
}

bool HqpSolver::finishLevel(int level, const Eigen::Ref<const Eigen::VectorXd>& near, bool adjust)
{
  const Level own = rowsOf(level);
  const auto held = [&](int row) { return guessSide_[row] != 0; };
  const int heldAbove = static_cast<int>(std::count_if(
      guessSide_.begin(), guessSide_.begin() + own.firstInequality, [](int side) { return side != 0; }));
  // The least-norm step (level == levels()) minimises |x|^2: its objective rows are the identity.
  const bool final = level == levels_;
  int objectiveRows = final ? n_ : own.equalities;
  for (int row = own.firstInequality; row < own.firstInequality + own.inequalities; ++row)
    objectiveRows += held(row) ? 1 : 0;
  const int constraints = own.firstEquality + heldAbove;
  if (!ConstrainedLeastSquares::fits(n_, constraints, objectiveRows)) return false;
  ConstrainedLeastSquares& ls = *finish_;
  buildLevelProblem(own, final, constraints, objectiveRows);
  if (!ls.solve(near)) return false;
  const auto& x = ls.solution();
  bool optimal = true;
  if (!rowsAboveHold(own, x, adjust, optimal)) return false;
  if (!multipliersAgree(own, x, final, adjust, constraints) || !optimal) return false;
  std::copy_n(x.data(), n_, x_.begin());
  return true;
}

void HqpSolver::buildLevelProblem(const Level& own, bool final, int constraints, int objectiveRows)
{
  const auto held = [&](int row) { return guessSide_[row] != 0; };
  ConstrainedLeastSquares& ls = *finish_;
  ls.resize(n_, constraints, objectiveRows);
  for (int row = 0; row < own.firstEquality; ++row)
  {
    ls.constraintRowsTransposed.col(row) = a_.row(row).head(n_).transpose();
    ls.constraintTargets[row] = fixedB_[row];
  }
  int column = own.firstEquality;
  for (int row = 0; row < own.firstInequality; ++row)
    if (held(row))
    {
      const double side = guessSide_[row];
      heldRow_[column - own.firstEquality] = row;
      ls.constraintRowsTransposed.col(column) = side * c_.row(row).head(n_).transpose();
      ls.constraintTargets[column++] = side * (side > 0 ? fixedHi_[row] : fixedLo_[row]);
    }
  for (int i = 0; i < own.equalities; ++i)
  {
    ls.objectiveRows.row(i) = a_.row(own.firstEquality + i).head(n_);
    ls.objectiveTargets[i] = b_[own.firstEquality + i];
  }
  if (final)
  {
    ls.objectiveRows.setIdentity();
    ls.objectiveTargets.setZero();
  }
  int objectiveRow = final ? n_ : own.equalities;
  for (int row = own.firstInequality; row < own.firstInequality + own.inequalities; ++row)
    if (held(row))
    {
      ls.objectiveRows.row(objectiveRow) = c_.row(row).head(n_);
      ls.objectiveTargets[objectiveRow++] = guessSide_[row] > 0 ? hi_[row] : lo_[row];
    }
}

bool HqpSolver::rowsAboveHold(const Level& own, const ConstrainedLeastSquares::Vector& x, bool adjust,
                              bool& optimal)
{
  const double tolerance = settings_.finishTolerance;
  // Every equality above at its fixed target (rows that depend on others were left out of the solve).
  for (int row = 0; row < own.firstEquality; ++row)
    if (!(std::abs(a_.row(row).head(n_).dot(x.head(n_)) - fixedB_[row]) <=
          tolerance * (1.0 + std::abs(fixedB_[row]))))
      return false;
  // Every row above within its fixed bounds, the held ones too. With `adjust`, a refusal
  // also corrects the guess for the next try: a row above that x crosses is held, a held row whose multiplier
  // pulls inward is let go, an own row is held exactly where x violates it.
  for (int row = 0; row < own.firstInequality; ++row)
  {
    const double v = c_.row(row).head(n_).dot(x.head(n_));
    const double w = violationOf(v, fixedLo_[row] - tolerance * (1.0 + std::abs(fixedLo_[row])),
                                 fixedHi_[row] + tolerance * (1.0 + std::abs(fixedHi_[row])));
    if (w == 0.0) continue;
    if (!adjust) return false;
    optimal = false;
    guessSide_[row] = w > 0 ? 1 : -1;
  }
  return true;
}

bool HqpSolver::multipliersAgree(const Level& own, const ConstrainedLeastSquares::Vector& x, bool final,
                                 bool adjust, int constraints)
{
  const double tolerance = settings_.finishTolerance;
  ConstrainedLeastSquares& ls = *finish_;
  // The true gradient of 1/2 |violation|^2 at x, and the size of its terms (the scale of what cancels).
  auto gradient = levelGradient_.head(n_);
  gradient.setZero();
  // scale: the size of the gradient's terms; magnitude: the size of the rows' own terms, whose rounding no
  // multiplier cancels.
  double scale = 0.0, magnitude = 0.0;
  auto addTerm = [&](const auto& rowVector, double residual, double target)
  {
    gradient.noalias() += residual * rowVector.transpose();
    const double norm = rowVector.norm();
    scale += std::abs(residual) * norm;
    magnitude += norm * (std::abs(target) + std::abs(rowVector.dot(x.head(n_))));
  };
  for (int row = own.firstEquality; row < own.firstEquality + own.equalities; ++row)
    addTerm(a_.row(row).head(n_), a_.row(row).head(n_).dot(x.head(n_)) - b_[row], b_[row]);
  if (final)
  {
    gradient = x.head(n_);
    scale = magnitude = x.head(n_).lpNorm<1>();
  }

  // A violation within the feasibility tolerance is rounding, not a pull.
  for (int row = own.firstInequality; row < own.firstInequality + own.inequalities; ++row)
  {
    double w = violationOf(c_.row(row).head(n_).dot(x.head(n_)), lo_[row], hi_[row]);
    const double bound = w > 0 ? hi_[row] : lo_[row];
    if (std::abs(w) <= tolerance * (1.0 + std::abs(bound))) w = 0.0;
    addTerm(c_.row(row).head(n_), w, w != 0.0 ? bound : 0.0);
    if (adjust && (w != 0.0 || !atBound(row, x))) guessSide_[row] = w > 0 ? 1 : (w < 0 ? -1 : 0);
  }
  const double allowed = tolerance * (scale + 1e-3 * magnitude) + 1e-300;
  // Written so that a NaN refuses.
  bool optimal = ls.multipliers(gradient, multipliers_) <= allowed;
  for (int k = own.firstEquality; k < constraints; ++k)
    if (!(multipliers_[k] * ls.constraintRowsTransposed.col(k).norm() >= -allowed))
    {
      optimal = false;
      if (adjust) guessSide_[heldRow_[k - own.firstEquality]] = 0;
    }
  return optimal;
}

bool HqpSolver::atBound(int row, const ConstrainedLeastSquares::Vector& x) const
{
  const double v = c_.row(row).head(n_).dot(x.head(n_)), tolerance = settings_.finishTolerance;
  return std::abs(v - hi_[row]) <= tolerance * (1.0 + std::abs(hi_[row])) ||
         std::abs(v - lo_[row]) <= tolerance * (1.0 + std::abs(lo_[row]));
}
} // namespace nao::taskstack
