#include "Tools/TaskStack/Stiffness/StiffnessTask.h"

#include "Tools/Stiffness/StiffnessError.h"

#include <algorithm>
#include <string>

namespace nao::taskstack
{
namespace
{
std::vector<int> checkedColumns(const char* task, const stiffness::Chain& chain, int variables,
                                std::span<const int> columns)
{
  const int n = chain.jointCount();
  std::vector<int> result(static_cast<std::size_t>(n));
  if (!columns.empty() && static_cast<int>(columns.size()) != n)
    throw stiffness::StiffnessError(std::string(task) + ": " + std::to_string(columns.size()) +
                                    " columns for the " + std::to_string(n) + " joints of the chain from '" +
                                    chain.baseLinkName() + "' to '" + chain.tipLinkName() + "' (" +
                                    chain.jointNames() + ")");
  for (int i = 0; i < n; ++i)
  {
    const int column = columns.empty() ? i : columns[static_cast<std::size_t>(i)];
    if (column < 0 || column >= variables)
      throw stiffness::StiffnessError(std::string(task) + ": joint '" + chain.joint(i).name +
                                      "' maps to column " + std::to_string(column) + ", the stack has " +
                                      std::to_string(variables) + " variables");
    result[static_cast<std::size_t>(i)] = column;
  }
  return result;
}

bool fits(const Eigen::Ref<Eigen::MatrixXd>& rows, const Eigen::Ref<Eigen::VectorXd>& targets, int count,
          int variables)
{
  return rows.rows() >= count && rows.cols() == variables && targets.size() >= count;
}
} // namespace

StiffnessTask::StiffnessTask(const stiffness::Chain& chain, int variables, std::span<const int> columns)
    : columns_(checkedColumns("stiffness task", chain, variables, columns)), variables_(variables),
      gradient_(Eigen::VectorXd::Zero(chain.jointCount()))
{
}

int StiffnessTask::fillRows(const stiffness::Chain& chain, stiffness::Workspace& workspace,
                            const stiffness::StiffnessQuery& query,
                            const stiffness::RedundancyParameters& parameters,
                            Eigen::Ref<Eigen::MatrixXd> rows, Eigen::Ref<Eigen::VectorXd> targets)
{
  const int n = rowCount();
  if (!(parameters.jointDamping > 0.0) || chain.jointCount() != n || !fits(rows, targets, n, variables_))
    return 0;
  metric_ = stiffness::computeMetricGradient(chain, workspace, query, gradient_);
  rows.topRows(n).setZero();
  for (int i = 0; i < n; ++i)
    rows(i, columns_[static_cast<std::size_t>(i)]) = 1.0;
  targets.head(n) = (parameters.alpha / parameters.jointDamping) * gradient_;
  return n;
}

EndpointTask::EndpointTask(const stiffness::Chain& chain, int variables, std::span<const int> columns)
    : columns_(checkedColumns("endpoint task", chain, variables, columns)), variables_(variables)
{
}

int EndpointTask::heldCount(const std::array<bool, 6>& held)
{
  return static_cast<int>(std::count(held.begin(), held.end(), true));
}

int EndpointTask::fillRows(const stiffness::Chain& chain, const stiffness::Workspace& workspace,
                           const kinematics::Vector6& error, const std::array<bool, 6>& held, double gain,
                           Eigen::Ref<Eigen::MatrixXd> rows, Eigen::Ref<Eigen::VectorXd> targets) const
{
  const int m = heldCount(held);
  if (m == 0 || chain.jointCount() != static_cast<int>(columns_.size()) ||
      !fits(rows, targets, m, variables_))
    return 0;
  rows.topRows(m).setZero();
  int row = 0;
  for (int r = 0; r < 6; ++r)
  {
    if (!held[static_cast<std::size_t>(r)]) continue;
    for (int i = 0; i < chain.jointCount(); ++i)
      rows(row, columns_[static_cast<std::size_t>(i)]) = workspace.jacobian(r, i);
    targets[row] = -gain * error[r];
    ++row;
  }
  return m;
}
} // namespace nao::taskstack
