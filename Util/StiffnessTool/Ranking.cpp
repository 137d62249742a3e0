#include "Util/StiffnessTool/Ranking.h"

#include "Tools/Stiffness/ChainKinematics.h"

#include <algorithm>

namespace nao::stiffness
{
std::vector<RankedConfiguration> rankConfigurations(const Chain& chain, Workspace& workspace,
                                                    const StiffnessQuery& query,
                                                    const Eigen::Ref<const Eigen::MatrixXd>& configurations)
{
  std::vector<RankedConfiguration> ranking;
  ranking.reserve(static_cast<std::size_t>(configurations.cols()));
  for (int c = 0; c < configurations.cols(); ++c)
  {
    updateChain(chain, workspace, configurations.col(c));
    ranking.push_back({c, computeMetric(chain, workspace, query)});
  }
  std::stable_sort(ranking.begin(), ranking.end(),
                   [](const RankedConfiguration& a, const RankedConfiguration& b)
                   { return a.metric < b.metric; });
  return ranking;
}
} // namespace nao::stiffness
