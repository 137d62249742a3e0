#pragma once
// The redundancy resolution toward stiffness or compliance (Woolfrey et al. 2024, Eqs 42-43; Tools/Stiffness)
// as rows of a hierarchical least-squares problem, written into the caller's storage: no solver class is
// needed here. The variables x are joint velocities (rad/s, m/s); chain joint i is variable column
// columns[i], so a chain may be part of a larger problem (all of a robot's joints, other tasks).
//
// StiffnessTask: the rows x_k = (alpha / k_d) dp/dq_k for the chain joints k, the steady state of Eq 43.
// EndpointTask: the held rows J_h x = -gain e_h, the exponential decay of the endpoint's deviation e.
// With the endpoint rows on a level above the stiffness rows a lexicographic solver (HqpSolver) returns
//   x = J_h^+ b + (I - J_h^+ J_h) (alpha / k_d) dp/dq,   b = -gain e_h,
// Eq 42 with M = I at the velocity level. README.md of this folder.
//
// The constructors allocate and validate the column map; fillRows() never allocates.
#include "Tools/Kinematics/Jacobian.h"
#include "Tools/Stiffness/Chain.h"
#include "Tools/Stiffness/Metric.h"
#include "Tools/Stiffness/RedundancyParameters.h"
#include "Tools/Stiffness/Workspace.h"

#include <Eigen/Core>
#include <array>
#include <span>
#include <vector>

namespace nao::taskstack
{
class StiffnessTask
{
public:
  /// Chain joint i is column columns[i] of `variables` (empty: column i). Throws stiffness::StiffnessError,
  /// naming the joint, when the map has the wrong length or a column is outside [0, variables).
  StiffnessTask(const stiffness::Chain& chain, int variables, std::span<const int> columns = {});

  int rowCount() const { return static_cast<int>(columns_.size()); } ///< n, one row per chain joint
  int variables() const { return variables_; }

  /// Computes p and dp/dq at the geometry of the last updateChain() and writes rows.topRows(n) (the selection
  /// of the chain joints' columns) and targets.head(n) = (alpha / k_d) dp/dq. Returns n, or 0 (nothing
  /// written) when k_d is not positive, the chain has another joint count, or the storage has fewer than n
  /// rows or not variables() columns.
  int fillRows(const stiffness::Chain& chain, stiffness::Workspace& workspace,
               const stiffness::StiffnessQuery& query, const stiffness::RedundancyParameters& parameters,
               Eigen::Ref<Eigen::MatrixXd> rows, Eigen::Ref<Eigen::VectorXd> targets);

  double metric() const { return metric_; }                     ///< p at the last fillRows()
  const Eigen::VectorXd& gradient() const { return gradient_; } ///< dp/dq at the last fillRows()

private:
  std::vector<int> columns_;
  int variables_ = 0;
  Eigen::VectorXd gradient_;
  double metric_ = 0.0;
};

/// Holds the chosen endpoint rows (x, y, z, rx, ry, rz of the base frame) by J_h x = -gain e_h, gain in 1/s.
class EndpointTask
{
public:
  /// The column map as StiffnessTask's.
  EndpointTask(const stiffness::Chain& chain, int variables, std::span<const int> columns = {});

  static int heldCount(const std::array<bool, 6>& held);
  int variables() const { return variables_; }

  /// Writes rows.topRows(m) = J_h (the held rows of the last updateChain()'s Jacobian, in the stack's
  /// columns) and targets.head(m) = -gain e_h; error: the endpoint's deviation (m, rad; position difference,
  /// rotation vector). Returns m = heldCount(held), or 0 (nothing written) when no row is held, the chain has
  /// another joint count, or the storage has fewer than m rows or not variables() columns.
  int fillRows(const stiffness::Chain& chain, const stiffness::Workspace& workspace,
               const kinematics::Vector6& error, const std::array<bool, 6>& held, double gain,
               Eigen::Ref<Eigen::MatrixXd> rows, Eigen::Ref<Eigen::VectorXd> targets) const;

private:
  std::vector<int> columns_;
  int variables_ = 0;
};
} // namespace nao::taskstack
