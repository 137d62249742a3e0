// Tasks written as rows of one level (LevelRows.h).
#include "Tools/TaskStack/LevelRows.h"

#include <algorithm>
#include <cmath>

namespace nao::taskstack
{
namespace
{
/// +-unboundedMagnitude for an absent side (infinite or beyond it), else the value.
double side(double bound)
{
  return std::clamp(bound, -unboundedMagnitude, unboundedMagnitude);
}
} // namespace

LevelRows::LevelRows(int variables, int equalityCapacity, int inequalityCapacity)
    : variables_(variables), a_(equalityCapacity, variables), c_(inequalityCapacity, variables),
      b_(equalityCapacity), lo_(inequalityCapacity), hi_(inequalityCapacity)
{
}

void LevelRows::clear()
{
  equalities_ = inequalities_ = 0;
}

bool LevelRows::addEquality(const Eigen::Ref<const Eigen::MatrixXd>& jacobian,
                            const Eigen::Ref<const Eigen::VectorXd>& error, double gain, double weight)
{
  const auto rows = static_cast<int>(jacobian.rows());
  if (jacobian.cols() != variables_ || error.size() != rows || equalities_ + rows > a_.rows() ||
      !(weight >= 0.0) || !std::isfinite(gain) || !jacobian.allFinite() || !error.allFinite())
    return false;
  const double scale = std::sqrt(weight);
  a_.middleRows(equalities_, rows) = scale * jacobian;
  b_.segment(equalities_, rows) = -scale * gain * error;
  equalities_ += rows;
  return true;
}

bool LevelRows::addEquality(const Eigen::Ref<const Eigen::MatrixXd>& jacobian,
                            const Eigen::Ref<const Eigen::VectorXd>& error, double gain,
                            const Eigen::Ref<const Eigen::VectorXd>& feedforward, double weight)
{
  if (feedforward.size() != error.size() || !feedforward.allFinite()) return false;
  const int first = equalities_;
  if (!addEquality(jacobian, error, gain, weight)) return false;
  b_.segment(first, feedforward.size()) += std::sqrt(weight) * feedforward;
  return true;
}

bool LevelRows::addBounds(const Eigen::Ref<const Eigen::MatrixXd>& jacobian,
                          const Eigen::Ref<const Eigen::VectorXd>& value,
                          const Eigen::Ref<const Eigen::VectorXd>& lower,
                          const Eigen::Ref<const Eigen::VectorXd>& upper, double gain, double weight)
{
  const auto rows = static_cast<int>(jacobian.rows());
  if (jacobian.cols() != variables_ || value.size() != rows || lower.size() != rows || upper.size() != rows ||
      inequalities_ + rows > c_.rows() || !(weight >= 0.0) || !(gain > 0.0) || !std::isfinite(gain) ||
      !jacobian.allFinite() || !value.allFinite() || lower.hasNaN() || upper.hasNaN())
    return false;
  const double scale = std::sqrt(weight);
  for (int i = 0; i < rows; ++i)
  {
    const double lo = side(lower[i]), hi = side(upper[i]);
    if (lo > hi) return false;
    c_.row(inequalities_ + i) = scale * jacobian.row(i);
    lo_[inequalities_ + i] = lo <= -unboundedMagnitude ? lo : scale * gain * (lo - value[i]);
    hi_[inequalities_ + i] = hi >= unboundedMagnitude ? hi : scale * gain * (hi - value[i]);
  }
  inequalities_ += rows;
  return true;
}

bool LevelRows::addInequality(const Eigen::Ref<const Eigen::MatrixXd>& rows,
                              const Eigen::Ref<const Eigen::VectorXd>& lower,
                              const Eigen::Ref<const Eigen::VectorXd>& upper, double weight)
{
  const auto count = static_cast<int>(rows.rows());
  if (rows.cols() != variables_ || lower.size() != count || upper.size() != count ||
      inequalities_ + count > c_.rows() || !(weight >= 0.0) || !rows.allFinite() || lower.hasNaN() ||
      upper.hasNaN())
    return false;
  const double scale = std::sqrt(weight);
  for (int i = 0; i < count; ++i)
  {
    const double lo = side(lower[i]), hi = side(upper[i]);
    if (lo > hi) return false;
    c_.row(inequalities_ + i) = scale * rows.row(i);
    lo_[inequalities_ + i] = lo <= -unboundedMagnitude ? lo : scale * lo;
    hi_[inequalities_ + i] = hi >= unboundedMagnitude ? hi : scale * hi;
  }
  inequalities_ += count;
  return true;
}

bool LevelRows::addTo(HqpSolver& solver) const
{
  return solver.addLevel(a_.topRows(equalities_), b_.head(equalities_), c_.topRows(inequalities_),
                         lo_.head(inequalities_), hi_.head(inequalities_));
}
} // namespace nao::taskstack
