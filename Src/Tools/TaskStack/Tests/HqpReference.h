#pragma once
// What the HqpSolver tests compare with, computed another way: random hierarchies, the classic null-space
// projection with pseudo-inverses (equality-only hierarchies), and a check of every level's optimality (KKT)
// conditions at a given x with multipliers from a Lawson-Hanson non-negative least squares.
#include <Eigen/Core>
#include <random>
#include <vector>

namespace nao::taskstack::test
{
struct ReferenceLevel
{
  Eigen::MatrixXd a;
  Eigen::VectorXd b;
  Eigen::MatrixXd c;
  Eigen::VectorXd lo, hi; ///< ±1e300: unbounded
};

struct ReferenceProblem
{
  int n = 0;
  std::vector<ReferenceLevel> levels;
};

struct RandomShape
{
  int n = 10;
  int levels = 4;
  int equalityRows = 12;       ///< in all
  int inequalityRows = 40;     ///< in all
  bool redundantRows = true;   ///< copies and combinations of rows, also across levels
  bool unboundedSides = true;  ///< some sides ±1e300
  bool narrowIntervals = true; ///< intervals away from 0 that many rows cannot all meet
};

ReferenceProblem randomProblem(const RandomShape& shape, std::mt19937& random);

/// Equality-only hierarchies: x_k = x_{k-1} + (A_k P_{k-1})^+ (b_k - A_k x_{k-1}), P_k = P_{k-1} - (A_k
/// P_{k-1})^+ A_k P_{k-1} (Siciliano and Slotine 1991), pseudo-inverses by SVD.
Eigen::VectorXd nullSpaceProjection(const ReferenceProblem& problem);

/// The 2-norm of each level's violation at x.
std::vector<double> violationNorms(const ReferenceProblem& problem, const Eigen::VectorXd& x);

/// The largest KKT residual at x over the levels, each scaled by its gradient's size: level k's gradient of
/// 1/2 |violation|^2 must lie in minus the normal cone of the set where every level above keeps its violation
/// at x; and x itself must lie in minus the normal cone of the set where every level keeps it (least norm).
/// A bound counts as active within `activeTolerance` (relative to 1 + |bound|).
double kktResidual(const ReferenceProblem& problem, const Eigen::VectorXd& x, double activeTolerance = 1e-8);

/// min |M z - d| subject to z >= 0 (Lawson and Hanson, Solving Least Squares Problems, 1974, ch. 23).
Eigen::VectorXd nonNegativeLeastSquares(const Eigen::MatrixXd& m, const Eigen::VectorXd& d);
} // namespace nao::taskstack::test
