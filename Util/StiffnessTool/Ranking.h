#pragma once
// Ranking configurations of one chain by the metric p (Eq 13) for one direction, e.g. all analytic inverse
// kinematics solutions of an arm at one endpoint pose (the paper's Fig 11): smallest p = stiffest first.
#include "Tools/Stiffness/Chain.h"
#include "Tools/Stiffness/Metric.h"
#include "Tools/Stiffness/Workspace.h"

#include <Eigen/Core>
#include <vector>

namespace nao::stiffness
{
struct RankedConfiguration
{
  int index = 0;       ///< column of the configuration in the input
  double metric = 0.0; ///< p
};

/// configurations: n x count, one configuration per column (chain order). Returns all of them ordered from
/// the stiffest (smallest p) to the most compliant; equal p keep their input order. Allocates the result.
std::vector<RankedConfiguration> rankConfigurations(const Chain& chain, Workspace& workspace,
                                                    const StiffnessQuery& query,
                                                    const Eigen::Ref<const Eigen::MatrixXd>& configurations);
} // namespace nao::stiffness
