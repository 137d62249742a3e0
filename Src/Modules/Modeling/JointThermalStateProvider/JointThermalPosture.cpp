// JointThermalStateProvider's posture forecast (README.md, "The posture forecast"): "if the robot took the named
// posture now", from the same nodes and thresholds as the forecast at the present load.
#include "Modules/Modeling/JointThermalStateProvider/JointThermalStateProvider.h"
#include <limits>

namespace nao
{
void JointThermalStateProvider::writePosture(std::size_t j, const ThermalNodes& nodes, double load,
                                             JointThermalState& state) const
{
  PostureThermalForecast& forecast = state.posture;
  forecast.name = posture_.name;
  constexpr float infinity = std::numeric_limits<float>::infinity();
  // A stiffness that is not finite counts as holding: the present load is the safe side of a bad value.
  const bool limp = posture_.stiffnesses[j] <= 0.f;
  const double postureLoad = limp ? 0.0 : load;
  forecast.rmsCurrents[j] = static_cast<float>(std::sqrt(postureLoad));
  if (posture_.name == PostureName::none || nodes.nodes == 0)
  {
    forecast.steadyTemperatures[j] =
        nodes.nodes == 0 ? infinity : static_cast<float>(nodes.steady(postureLoad));
    for (std::size_t s = 0; s < 3; ++s)
      forecast.reachTimes[s][j] = forecast.clearTimes[s][j] = infinity;
    return;
  }
  // Solved only where needed: limp, the nodes (c_i ≥ 0) only cool, so a status is reached at once or never; holding,
  // the load is the present one, whose times are written already. Back below a threshold is solved only for the
  // statuses the joint is in (in play, usually none).
  const JointModel& joint = joints_[j];
  const double now = nodes.temperature();
  std::array<double, 3> above{};
  int count = 0;
  for (std::size_t s = 0; s < 3; ++s)
  {
    const double threshold = joint.thresholds[s];
    forecast.reachTimes[s][j] = !limp              ? state.forecast(static_cast<int>(s) + 1).times[j]
                                : now >= threshold ? 0.f
                                                   : infinity;
    forecast.clearTimes[s][j] = 0.f;
    if (now >= threshold) above[static_cast<std::size_t>(count++)] = threshold;
  }
  std::array<double, 3> clear{};
  if (count > 0) timesToFallBelow(nodes, postureLoad, above.data(), clear.data(), count);
  for (std::size_t s = 0, k = 0; s < 3; ++s)
    if (now >= joint.thresholds[s]) forecast.clearTimes[s][j] = static_cast<float>(clear[k++]);
  forecast.steadyTemperatures[j] = static_cast<float>(nodes.steady(postureLoad));
}
} // namespace nao
