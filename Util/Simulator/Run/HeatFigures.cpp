#include "Util/Simulator/Run/HeatFigures.h"
#include "Representations/Infrastructure/Joints.h"

#include <algorithm>

namespace nao
{
HeatFigures heatFigures(const std::vector<RunSample>& samples, double holdStart)
{
  HeatFigures figures;
  if (samples.empty()) return figures;
  std::size_t later = 0, laterAbove = 0;
  for (const RunSample& sample : samples)
  {
    double highest = 0;
    std::size_t legs = 0, quiet = 0;
    for (std::size_t j = 0; j < numOfJoints; ++j)
    {
      if (!isLegJoint(jointAt(j))) continue;
      ++legs;
      highest = std::max(highest, static_cast<double>(sample.currents[j]));
      quiet += sample.currents[j] < quietCurrent;
      if (&sample == &samples.back())
        figures.legWarming =
            std::max(figures.legWarming,
                     static_cast<double>(sample.temperatures[j] - samples.front().temperatures[j]));
    }
    if (sample.time < holdStart) continue;
    const double held = sample.time - holdStart;
    if (figures.allLegsBelowHeating < 0 && highest < heatingCurrent) figures.allLegsBelowHeating = held;
    if (figures.mostLegsQuiet < 0 && static_cast<double>(quiet) >= quietShare * static_cast<double>(legs))
      figures.mostLegsQuiet = held;
    if (held >= settleAllowance)
    {
      ++later;
      laterAbove += highest >= heatingCurrent;
    }
  }
  figures.shareAboveHeatingLater = later ? static_cast<double>(laterAbove) / static_cast<double>(later) : 0.0;
  return figures;
}
} // namespace nao
