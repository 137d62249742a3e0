#pragma once
// The moving average of each joint's motor current over the last `windowLength` packets, and the leg joint
// with the highest filtered current. A non-finite sample is skipped (the joint's average stays at its last
// good value).
#include "Framework/Module.h"
#include "Representations/Sensing/FilteredCurrent.h"
#include "Representations/Sensing/JointSensorData.h"
#include <array>

namespace nao
{
struct FilteredCurrentParameters
{
  static constexpr int maxWindowLength = 200; ///< samples the buffers hold (2.4 s at 12 ms)
  // One sample per 12 ms packet; 20 is B-Human's FilteredCurrentProvider's window.
  int windowLength = 20;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& streams::field("windowLength", windowLength)
        .range(1, maxWindowLength)
        .doc("samples averaged (20 × 12 ms = 240 ms)");
  }
};

class FilteredCurrentProvider
    : public Module<FilteredCurrentProvider, Requires<JointSensorData>, Provides<FilteredCurrent>,
                    Parameters<FilteredCurrentParameters>>
{
public:
  using Module::Module;
  void update(FilteredCurrent& filtered);

private:
  void onParametersChanged() override; ///< a new window length starts the windows afresh

  struct Window
  {
    std::array<float, FilteredCurrentParameters::maxWindowLength> samples{}; ///< A, ring buffer
    int next = 0;                                                            ///< where the next sample goes
    int count = 0;  ///< samples held, up to windowLength
    double sum = 0; ///< A, sum of the held samples (double: no drift over hours of add/subtract)
  };
  std::array<Window, numOfJoints> windows_{};
};
} // namespace nao
