#pragma once
// The battery as LoLA reports it: charge 0..1, current (negative while discharging) and pack temperature.
#include "Util/MujocoModel/MotorParameters.h"

namespace nao::sim
{
struct BatteryState
{
  double charge = 1.0;       ///< 0..1
  double current = 0.0;      ///< A, negative = discharging
  double temperature = 25.0; ///< °C
};

/// Drains `drawnCurrent` amperes (motors plus the base load) for dt seconds; the pack warms by I²R and cools
/// towards ambient (exact for a constant current over dt).
void advanceBattery(BatteryState& battery, const BatteryParameters& parameters, double drawnCurrent,
                    double ambientTemperature, double dt);
} // namespace nao::sim
