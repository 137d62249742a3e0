#include "Util/StiffnessTool/Tests/StiffnessTask.h"

#include "Tools/Stiffness/StiffnessError.h"

#include <string>

namespace nao::stiffness
{
namespace
{
std::vector<int> checkedColumns(const Chain& chain, int stackVariables, std::span<const int> columns)
{
  const int n = chain.jointCount();
  std::vector<int> result(static_cast<std::size_t>(n));
  if (!columns.empty() && static_cast<int>(columns.size()) != n)
    throw StiffnessError("stiffness task: " + std::to_string(columns.size()) + " columns for the " +
                         std::to_string(n) + " joints of the chain from '" + chain.baseLinkName() + "' to '" +
                         chain.tipLinkName() + "' (" + chain.jointNames() + ")");
  for (int i = 0; i < n; ++i)
  {
    const int column = columns.empty() ? i : columns[static_cast<std::size_t>(i)];
    if (column < 0 || column >= stackVariables)
      throw StiffnessError("stiffness task: joint '" + chain.joint(i).name + "' maps to column " +
                           std::to_string(column) + ", the stack has " + std::to_string(stackVariables) +
                           " variables");
    result[static_cast<std::size_t>(i)] = column;
  }
  return result;
}
} // namespace

StiffnessTask::StiffnessTask(const Chain& chain, int stackVariables, std::span<const int> columns)
    : selection_(Eigen::MatrixXd::Zero(chain.jointCount(), stackVariables)), gradient_(chain.jointCount()),
      target_(chain.jointCount())
{
  const std::vector<int> checked = checkedColumns(chain, stackVariables, columns);
  for (int i = 0; i < chain.jointCount(); ++i)
    selection_(i, checked[static_cast<std::size_t>(i)]) = 1.0;
}

bool StiffnessTask::add(optimization::TaskStack& stack, int level, const Chain& chain, Workspace& workspace,
                        const StiffnessQuery& query, const RedundancyParameters& parameters, double weight)
{
  if (!(parameters.jointDamping > 0.0)) return false;
  metric_ = computeMetricGradient(chain, workspace, query, gradient_);
  target_ = (parameters.alpha / parameters.jointDamping) * gradient_;
  return stack.addEquality(level, selection_, target_, weight);
}

EndpointTask::EndpointTask(const Chain& chain, int stackVariables, std::span<const int> columns)
    : columns_(checkedColumns(chain, stackVariables, columns)),
      jacobian_(Eigen::MatrixXd::Zero(6, stackVariables)), target_(Eigen::VectorXd::Zero(6))
{
}

bool EndpointTask::add(optimization::TaskStack& stack, int level, const Chain& chain,
                       const Workspace& workspace, const kinematics::Vector6& error,
                       const std::array<bool, 6>& rows, double gain, double weight)
{
  int held = 0;
  for (int row = 0; row < 6; ++row)
  {
    if (!rows[static_cast<std::size_t>(row)]) continue;
    jacobian_.row(held).setZero();
    for (int i = 0; i < chain.jointCount(); ++i)
      jacobian_(held, columns_[static_cast<std::size_t>(i)]) = workspace.jacobian(row, i);
    target_[held] = -gain * error[row];
    ++held;
  }
  if (held == 0) return false;
  return stack.addEquality(level, jacobian_.topRows(held), target_.head(held), weight);
}
} // namespace nao::stiffness
