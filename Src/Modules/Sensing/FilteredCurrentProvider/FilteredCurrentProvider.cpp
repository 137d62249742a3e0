#include "Modules/Sensing/FilteredCurrentProvider/FilteredCurrentProvider.h"
#include <cmath>

namespace nao
{
void FilteredCurrentProvider::onParametersChanged()
{
  windows_ = {};
}

void FilteredCurrentProvider::update(FilteredCurrent& filtered)
{
  const int length = params().windowLength;
  const JointSensorData& sensors = get<JointSensorData>();
  bool allFull = true;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    Window& window = windows_[j];
    const float sample = sensors.currents[j];
    if (std::isfinite(sample))
    {
      if (window.count == length)
        window.sum -= window.samples[static_cast<std::size_t>(window.next)]; // the oldest sample leaves
      else
        ++window.count;
      window.samples[static_cast<std::size_t>(window.next)] = sample;
      window.sum += sample;
      window.next = (window.next + 1) % length;
    }
    if (window.count > 0) filtered.currents[j] = static_cast<float>(window.sum / window.count);
    allFull = allFull && window.count == length;
  }
  filtered.windowFull = allFull;

  filtered.highestLegJoint = Joint::LHipYawPitch;
  filtered.highestLegCurrent = std::abs(filtered.currents[Joint::LHipYawPitch]);
  for (std::size_t j = 0; j < numOfJoints; ++j)
    if (isLegJoint(jointAt(j)) && std::abs(filtered.currents[j]) > filtered.highestLegCurrent)
    {
      filtered.highestLegJoint = jointAt(j);
      filtered.highestLegCurrent = std::abs(filtered.currents[j]);
    }
}

MAKE_MODULE(FilteredCurrentProvider);
} // namespace nao
