#pragma once
// One level of a task stack being written: tasks become rows (seed 003), then the level goes to an HqpSolver.
//
//   equality task:   J x = -gain (s - s*) + feedforward   (the exponential decay de/dt = -gain e, plus s*'s rate)
//   bound task:      gain (lower - s) <= J x <= gain (upper - s)   (a velocity damper: s approaches a bound no
//                    faster than exponentially, and a violated bound is left at that rate)
//   raw rows:        lower <= J x <= upper
//
// x is whatever the caller integrates (joint velocities, rad/s: gains in 1/s). Within a level, weight w scales a
// task's rows and targets by sqrt(w), so its squared violation counts w times. Capacity is fixed at
// construction; nothing else allocates.
#include "Tools/TaskStack/HqpSolver.h"

#include <Eigen/Core>

namespace nao::taskstack
{
class LevelRows
{
public:
  LevelRows(int variables, int equalityCapacity, int inequalityCapacity);

  void clear();

  /// False (and nothing added) when the rows do not fit, sizes disagree or a value is not finite.
  bool addEquality(const Eigen::Ref<const Eigen::MatrixXd>& jacobian,
                   const Eigen::Ref<const Eigen::VectorXd>& error, double gain, double weight = 1.0);
  bool addEquality(const Eigen::Ref<const Eigen::MatrixXd>& jacobian,
                   const Eigen::Ref<const Eigen::VectorXd>& error, double gain,
                   const Eigen::Ref<const Eigen::VectorXd>& feedforward, double weight = 1.0);
  /// lower/upper may be +-unboundedMagnitude (or infinite) for a one-sided bound.
  bool addBounds(const Eigen::Ref<const Eigen::MatrixXd>& jacobian,
                 const Eigen::Ref<const Eigen::VectorXd>& value,
                 const Eigen::Ref<const Eigen::VectorXd>& lower,
                 const Eigen::Ref<const Eigen::VectorXd>& upper, double gain, double weight = 1.0);
  bool addInequality(const Eigen::Ref<const Eigen::MatrixXd>& rows,
                     const Eigen::Ref<const Eigen::VectorXd>& lower,
                     const Eigen::Ref<const Eigen::VectorXd>& upper, double weight = 1.0);

  /// Appends this level to `solver` as its next lower level.
  bool addTo(HqpSolver& solver) const;

  int equalities() const { return equalities_; }
  int inequalities() const { return inequalities_; }
  auto equalityRows() const { return a_.topRows(equalities_); }
  auto equalityTargets() const { return b_.head(equalities_); }
  auto inequalityRows() const { return c_.topRows(inequalities_); }
  auto lowerBounds() const { return lo_.head(inequalities_); }
  auto upperBounds() const { return hi_.head(inequalities_); }

private:
  int variables_;
  int equalities_ = 0, inequalities_ = 0;
  Eigen::MatrixXd a_, c_;
  Eigen::VectorXd b_, lo_, hi_;
};
} // namespace nao::taskstack
