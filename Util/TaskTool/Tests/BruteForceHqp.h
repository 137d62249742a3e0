#pragma once
// The hierarchical least-squares answer of small problems found by brute force, for TaskTool's tests: every active
// set of the inequality rows is enumerated (3^m), each one solved as an equality-constrained least squares of least
// norm by SVD, and the best feasible candidate kept. Written from the definition alone (Src/Tools/TaskStack's
// README.md, "Problem"); it shares nothing with HqpSolver. Slow (m <= ~8 inequality rows, n <= ~6).
#include <Eigen/Core>
#include <vector>

namespace nao::tasktool::test
{
struct BruteForceLevel
{
  Eigen::MatrixXd a; ///< equality rows a x = b
  Eigen::VectorXd b;
  Eigen::MatrixXd c; ///< inequality rows lo <= c x <= hi (±1e300: unbounded)
  Eigen::VectorXd lo, hi;
};

struct BruteForceProblem
{
  int n = 0;
  std::vector<BruteForceLevel> levels; ///< highest priority first
};

struct BruteForceAnswer
{
  bool found = false; ///< false only if no candidate was feasible (which would be a bug of this reference)
  Eigen::VectorXd x;  ///< the least-norm point among those keeping every level's optimal violation
  std::vector<double> slackNorms; ///< each level's least violation (2-norm)
};

/// Level k: with the levels above fixed at their optimal violations w*_j (equality rows at a x = b + w*, inequality
/// rows within [lo + w*, hi + w*]), every inequality row of level k and above gets a state (free; at its lower
/// bound; at its upper bound; a side that is absent is never active). A higher row at a bound is an equality
/// constraint; a row of level k at a bound is a least-squares row with that bound as target. The least-norm
/// minimiser for each state is a candidate; those within the higher rows' bounds are kept and the one with the
/// least true violation of level k gives w*_k (unique, even where x is not). Last, with every level fixed, every
/// active set's least-norm solution that meets all rows is a candidate and the shortest is the answer.
BruteForceAnswer bruteForceHqp(const BruteForceProblem& problem);

/// The signed violations of level `level` at x: equality residuals a x - b, then per inequality row c x - hi
/// above, c x - lo below, 0 inside.
Eigen::VectorXd levelViolation(const BruteForceLevel& level, const Eigen::VectorXd& x);
} // namespace nao::tasktool::test
