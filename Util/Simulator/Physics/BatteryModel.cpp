#include "Util/Simulator/Physics/BatteryModel.h"

#include <algorithm>
#include <cmath>

namespace nao::sim
{
void advanceBattery(BatteryState& battery, const BatteryParameters& parameters, double drawnCurrent,
                    double ambientTemperature, double dt)
{
  constexpr double secondsPerHour = 3600.0;
  battery.charge = std::max(0.0, battery.charge - drawnCurrent * dt / (parameters.capacity * secondsPerHour));
  battery.current = -drawnCurrent;
  const double steadyRise =
      drawnCurrent * drawnCurrent * parameters.internalResistance * parameters.thermalResistance;
  const double decay = std::exp(-dt / (parameters.heatCapacity * parameters.thermalResistance));
  battery.temperature =
      ambientTemperature + steadyRise + (battery.temperature - ambientTemperature - steadyRise) * decay;
}
} // namespace nao::sim
