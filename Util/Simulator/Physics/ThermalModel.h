#pragma once
// Motor temperatures and the firmware's reaction to them. Each motor is two thermal nodes: the winding,
// heated by I²R, and the case (with the gear housing), which passes the heat on to the air inside the robot:
//   C_w dT_w/dt = P − (T_w − T_c) / R_wc
//   C_c dT_c/dt = (T_w − T_c) / R_wc − (T_c − T_ambient) / R_ca
// The reported temperature is the winding's: that is what the firmware protects.
#include "Util/Simulator/Physics/SimParameters.h"

namespace nao::sim
{
struct MotorTemperature
{
  double winding = 25.0; ///< °C
  double housing = 25.0; ///< °C, case and gear housing
};

/// Advances both nodes by dt seconds (exact for constant power over dt, so any step size is stable).
void advanceTemperature(MotorTemperature& temperature, const MotorTypeParameters& motor, double heatPower,
                        double ambientTemperature, double dt);

/// The LoLA status 0..3 after `previous` given the temperature now: raised as soon as a "From" threshold is
/// reached, lowered one level at a time only below that level's "Below" threshold.
int temperatureStatus(int previous, double temperature, const TemperatureStatusParameters& thresholds);

/// Fraction of stiffness × maximum torque the board still allows: 1 in status 0; in status 1 falling linearly
/// from hotLimitStart (at hotFrom) to hotLimitEnd (at veryHotFrom); veryHotLimit in status 2; criticalLimit
/// in 3.
double torqueLimitFactor(int status, double temperature, const TemperatureStatusParameters& thresholds,
                         const FirmwareProtectionParameters& protection);
} // namespace nao::sim
