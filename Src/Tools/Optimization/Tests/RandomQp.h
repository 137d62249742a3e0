#pragma once
// Random QPs for the tests and the benchmark, in families that cover the degenerate cases, and the KKT
// residuals of a solution computed from the problem data alone.
#include "Tools/Optimization/QpSolver.h"
#include "Tools/Streams/Enum.h"

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/QR>
#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <string_view>

namespace nao::optimization::test
{
struct DenseQp
{
  Eigen::MatrixXd hessian;
  Eigen::VectorXd gradient;
  Eigen::MatrixXd equalityMatrix;
  Eigen::VectorXd equalityVector;
  Eigen::MatrixXd inequalityMatrix;
  Eigen::VectorXd inequalityBound;
  Eigen::VectorXd feasiblePoint = {}; ///< a point the generator made feasible

  QpProblem view() const
  {
    return {hessian, gradient, equalityMatrix, equalityVector, inequalityMatrix, inequalityBound};
  }
  int variables() const { return static_cast<int>(gradient.size()); }
};

NAO_ENUM(
    QpFamily, std::uint8_t,
    general,       ///< random H (condition up to 1e4), constraints through a feasible point, some equalities
    duplicateRows, ///< inequality rows repeated exactly, an equality repeated, an inequality equal to an
                   ///< equality
    redundantRows, ///< rows that are combinations of other rows (and their bounds the same combination)
    zeroRows,      ///< rows of zeros with b >= 0
    activeAtStart, ///< constraints that pass exactly through the unconstrained minimum
    crowdedVertex, ///< every row passes through the optimum: more active rows than variables
    selfCollision, ///< the SelfCollisionProvider's shape: diagonal H, sparse rows on joint chains, step bounds
);

inline constexpr std::array allQpFamilies{
    QpFamily::general,       QpFamily::duplicateRows, QpFamily::redundantRows, QpFamily::zeroRows,
    QpFamily::activeAtStart, QpFamily::crowdedVertex, QpFamily::selfCollision};
static_assert(allQpFamilies.size() == streams::enumCount<QpFamily>, "every family once");

class QpGenerator
{
public:
  explicit QpGenerator(unsigned seed) : random_(seed) {}

  int integer(int low, int high) { return std::uniform_int_distribution<int>(low, high)(random_); }
  double uniform(double low, double high)
  {
    return std::uniform_real_distribution<double>(low, high)(random_);
  }
  Eigen::MatrixXd matrix(int rows, int cols)
  {
    Eigen::MatrixXd m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i)
      m.data()[i] = uniform(-1.0, 1.0);
    return m;
  }
  Eigen::VectorXd vector(int size) { return matrix(size, 1); }

  /// Symmetric positive definite with eigenvalues spread over [1e-2, 1e2] on a random basis.
  Eigen::MatrixXd hessian(int n)
  {
    const Eigen::MatrixXd basis = matrix(n, n).householderQr().householderQ();
    Eigen::VectorXd eigenvalues(n);
    for (int i = 0; i < n; ++i)
      eigenvalues[i] = std::pow(10.0, uniform(-2.0, 2.0));
    const Eigen::MatrixXd h = basis * eigenvalues.asDiagonal() * basis.transpose();
    return 0.5 * (h + h.transpose());
  }

  /// n variables, me equalities and mi inequalities (n in [6, 25], me + mi <= 30 unless given).
  DenseQp make(QpFamily family, int n, int me, int mi)
  {
    DenseQp qp;
    qp.hessian = hessian(n);
    // The unconstrained minimum lies in [-3, 3]^n, so |x*| is of order 1 and the KKT residuals are absolute
    // figures on a known scale (multipliers up to about |H| = 100).
    qp.gradient = -qp.hessian * (3.0 * vector(n));
    const Eigen::VectorXd feasiblePoint = vector(n);
    qp.feasiblePoint = feasiblePoint;
    qp.equalityMatrix = matrix(me, n);
    qp.equalityVector = qp.equalityMatrix * feasiblePoint;
    qp.inequalityMatrix = matrix(mi, n);
    Eigen::VectorXd slack(mi);
    for (int i = 0; i < mi; ++i)
      slack[i] = integer(0, 3) == 0 ? 0.0 : uniform(0.0, 0.5);
    qp.inequalityBound = qp.inequalityMatrix * feasiblePoint + slack;
    switch (family)
    {
    case QpFamily::general:
      break;
    case QpFamily::duplicateRows:
      for (int i = 1; i < mi; i += 3)
        copyRow(qp, i - 1, i);
      if (me >= 2)
        qp.equalityMatrix.row(1) = qp.equalityMatrix.row(0), qp.equalityVector[1] = qp.equalityVector[0];
      if (me >= 1 && mi >= 1)
      {
        qp.inequalityMatrix.row(mi - 1) = qp.equalityMatrix.row(0);
        qp.inequalityBound[mi - 1] = qp.equalityVector[0];
      }
      break;
    case QpFamily::redundantRows:
      for (int i = 2; i < mi; i += 3)
      {
        const double a = uniform(0.2, 2.0), b = uniform(0.2, 2.0); // positive: a weaker or equal bound
        qp.inequalityMatrix.row(i) = a * qp.inequalityMatrix.row(i - 1) + b * qp.inequalityMatrix.row(i - 2);
        qp.inequalityBound[i] = a * qp.inequalityBound[i - 1] + b * qp.inequalityBound[i - 2];
      }
      break;
    case QpFamily::zeroRows:
      for (int i = 0; i < mi; i += 4)
      {
        qp.inequalityMatrix.row(i).setZero();
        qp.inequalityBound[i] = i % 8 == 0 ? 0.0 : uniform(0.0, 1.0);
      }
      if (me >= 2) qp.equalityMatrix.row(me - 1).setZero(), qp.equalityVector[me - 1] = 0.0;
      break;
    case QpFamily::activeAtStart:
    {
      qp.equalityMatrix.resize(0, n); // the unconstrained minimum must be the start
      qp.equalityVector.resize(0);
      // Every other row passes through the unconstrained minimum, turned so that the feasible point stays
      // feasible.
      const Eigen::VectorXd unconstrained = -qp.hessian.llt().solve(qp.gradient);
      for (int i = 0; i < mi; i += 2)
      {
        if (qp.inequalityMatrix.row(i).dot(feasiblePoint - unconstrained) > 0.0)
          qp.inequalityMatrix.row(i) *= -1.0;
        qp.inequalityBound[i] = qp.inequalityMatrix.row(i).dot(unconstrained);
      }
      break;
    }
    case QpFamily::selfCollision:
      return selfCollisionLike(n, mi);
    case QpFamily::crowdedVertex:
    {
      // Every row passes through x*, and g is chosen so that x* is optimal with multipliers mu >= 0 (some 0).
      qp.equalityVector = qp.equalityMatrix * feasiblePoint;
      qp.inequalityBound = qp.inequalityMatrix * feasiblePoint;
      Eigen::VectorXd mu(mi);
      for (int i = 0; i < mi; ++i)
        mu[i] = integer(0, 2) == 0 ? 0.0 : uniform(0.0, 2.0);
      qp.gradient = -qp.hessian * feasiblePoint - qp.inequalityMatrix.transpose() * mu -
                    qp.equalityMatrix.transpose() * vector(me);
      break;
    }
    }
    return qp;
  }

  DenseQp make(QpFamily family)
  {
    const int n = integer(6, 25);
    const int total = integer(0, 30);
    const int me = family == QpFamily::activeAtStart ? 0 : std::min(integer(0, n / 3), total);
    return make(family, n, me, total - me);
  }

  /// min |x - step|^2_W s.t. velocity-damper rows n^T (J_a - J_b) x >= -xi (d - d_safe) and step bounds:
  /// x is the joint step of one frame (rad), W diagonal (stiffness-like, 0.1-1), each damper row touches a
  /// chain of 2-6 consecutive joints with lever arms up to 0.1 m, the desired step (up to 0.1 rad per joint)
  /// violates about a fifth of the rows; the last quarter of the rows bound single joints (limits).
  DenseQp selfCollisionLike(int n, int rows)
  {
    DenseQp qp;
    Eigen::VectorXd weights(n);
    for (int k = 0; k < n; ++k)
      weights[k] = uniform(0.1, 1.0);
    qp.hessian = weights.asDiagonal();
    const Eigen::VectorXd step = 0.1 * vector(n);
    qp.gradient = -(weights.asDiagonal() * step);
    qp.equalityMatrix.resize(0, n);
    qp.equalityVector.resize(0);
    qp.inequalityMatrix = Eigen::MatrixXd::Zero(rows, n);
    qp.inequalityBound.resize(rows);
    const int limitRows = rows / 4;
    for (int i = 0; i < rows - limitRows; ++i)
    {
      const int length = integer(2, 6), first = integer(0, n - length);
      for (int k = first; k < first + length; ++k)
        qp.inequalityMatrix(i, k) = 0.1 * uniform(-1.0, 1.0);
      const double approach = qp.inequalityMatrix.row(i).dot(step); // m the desired step moves the pair
      // b = xi (d - d_safe) >= 0: staying put is allowed; a fifth of the rows block the desired step.
      qp.inequalityBound[i] =
          std::max(0.0, integer(0, 4) == 0 ? approach - uniform(0.0, 0.01) : approach + uniform(0.0, 0.01));
    }
    for (int i = rows - limitRows; i < rows; ++i)
    {
      const int joint = integer(0, n - 1);
      const double sign = step[joint] > 0.0 ? 1.0 : -1.0; // a limit in the direction of the step
      qp.inequalityMatrix(i, joint) = sign;
      qp.inequalityBound[i] = std::abs(step[joint]) * uniform(0.5, 1.5);
    }
    qp.feasiblePoint = Eigen::VectorXd::Zero(n); // staying put is always allowed
    return qp;
  }

private:
  static void copyRow(DenseQp& qp, int from, int to)
  {
    qp.inequalityMatrix.row(to) = qp.inequalityMatrix.row(from);
    qp.inequalityBound[to] = qp.inequalityBound[from];
  }

  std::mt19937 random_;
};

/// Largest violations of the KKT conditions of (x, nu, lambda), all from the problem data:
/// stationarity |H x + g + Aeq^T nu + A^T lambda|_inf, primal (equalities and inequalities), dual (lambda >=
/// 0) and complementarity |lambda_i (A x - b)_i|.
struct KktResiduals
{
  double stationarity = 0.0;
  double primal = 0.0;
  double dual = 0.0;
  double complementarity = 0.0;

  double worst() const { return std::max({stationarity, primal, dual, complementarity}); }
};

inline KktResiduals kktResiduals(const DenseQp& qp, const Eigen::VectorXd& x, const Eigen::VectorXd& nu,
                                 const Eigen::VectorXd& lambda)
{
  KktResiduals r;
  const Eigen::VectorXd gradient = qp.hessian * x + qp.gradient + qp.equalityMatrix.transpose() * nu +
                                   qp.inequalityMatrix.transpose() * lambda;
  r.stationarity = gradient.lpNorm<Eigen::Infinity>();
  const Eigen::VectorXd equality = qp.equalityMatrix * x - qp.equalityVector;
  const Eigen::VectorXd inequality = qp.inequalityMatrix * x - qp.inequalityBound;
  r.primal = std::max(equality.size() ? equality.lpNorm<Eigen::Infinity>() : 0.0,
                      inequality.size() ? std::max(0.0, inequality.maxCoeff()) : 0.0);
  r.dual = lambda.size() ? std::max(0.0, -lambda.minCoeff()) : 0.0;
  r.complementarity = lambda.size() ? lambda.cwiseProduct(inequality).cwiseAbs().maxCoeff() : 0.0;
  return r;
}

inline KktResiduals kktResiduals(const DenseQp& qp, const QpSolver& solver)
{
  return kktResiduals(qp, solver.solution(), solver.equalityMultipliers(), solver.inequalityMultipliers());
}
} // namespace nao::optimization::test
