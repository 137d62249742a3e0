#pragma once
// The redundancy resolution toward stiffness or compliance (Redundancy.h, Eqs 42-43) as tasks of the task layer
// (Tools/Optimization/TaskStack.h, the self-collision issue's): an endpoint task that holds chosen endpoint rows,
// and a stiffness task that pulls the joints along the metric's gradient. The stack's variables x are joint
// velocities (rad/s, m/s); each chain joint maps to one variable column, so a chain may be part of a larger
// problem (all of a robot's joints, other tasks).
//
// Stiffness task: the rows x_k = (alpha / k_d) dp/dq_k for the chain joints k, the steady state of Eq 43
// (k_d qdot = alpha dp/dq once the damping balances the pull; alpha < 0 stiffer, > 0 more compliant).
// Endpoint task: the held rows J_h x = -gain e (e = endpointError, Redundancy.h), the exponential decay of the
// endpoint's drift. With the endpoint task on a level above the stiffness task the stack returns
//   x = J_h^+ b + (I - J_h^+ J_h) (alpha / k_d) dp/dq,   b = -gain e_h,
// the least-squares pull in the endpoint task's null space: Eq 42 with M = I at the velocity level (J_h^+ the
// Moore-Penrose inverse). The endpoint task keeps its priority whatever the stiffness task's weight.
//
// Constructors allocate; add() does not (nor does TaskStack::solve()).
#include "Tools/Stiffness/Chain.h"
#include "Tools/Stiffness/Metric.h"
#include "Tools/Stiffness/Workspace.h"
#include "Util/StiffnessTool/Redundancy.h"
#include "Util/StiffnessTool/Tests/TaskStack.h"

#include <Eigen/Core>
#include <array>
#include <span>
#include <vector>

namespace nao::stiffness
{
/// Chain joint i is the stack's variable columns[i]; an empty span means column i (the chain alone).
class StiffnessTask
{
public:
  StiffnessTask(const Chain& chain, int stackVariables, std::span<const int> columns = {});

  /// Computes p and dp/dq at the geometry of the last updateChain() and adds the chain's rows at `level`.
  /// False if the stack refused them (see TaskStack::addEquality) or k_d is not positive.
  bool add(optimization::TaskStack& stack, int level, const Chain& chain, Workspace& workspace,
           const StiffnessQuery& query, const RedundancyParameters& parameters, double weight = 1.0);

  double metric() const { return metric_; }                     ///< p at the last add()
  const Eigen::VectorXd& gradient() const { return gradient_; } ///< dp/dq at the last add()
  const Eigen::VectorXd& target() const { return target_; }     ///< (alpha / k_d) dp/dq, rad/s

private:
  Eigen::MatrixXd selection_; ///< n x variables: row i selects chain joint i's column
  Eigen::VectorXd gradient_, target_;
  double metric_ = 0.0;
};

/// Holds the chosen endpoint rows (hold.rows) by J_h x = -gain e_h, gain in 1/s.
class EndpointTask
{
public:
  EndpointTask(const Chain& chain, int stackVariables, std::span<const int> columns = {});

  /// error: endpointError() at the last updateChain(). False if no row is held or the stack refused them.
  bool add(optimization::TaskStack& stack, int level, const Chain& chain, const Workspace& workspace,
           const kinematics::Vector6& error, const std::array<bool, 6>& rows, double gain,
           double weight = 1.0);

private:
  std::vector<int> columns_;
  Eigen::MatrixXd jacobian_; ///< 6 x variables; the first (held rows) rows used
  Eigen::VectorXd target_;   ///< 6; the first (held rows) entries used
};
} // namespace nao::stiffness
