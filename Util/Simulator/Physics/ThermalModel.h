#pragma once
// Motor temperatures and the firmware's reaction to them. Each motor is two thermal nodes: the winding,
// heated by I²R, and the case with the gear housing, heated by the motor board's electronics next to it,
// which passes the heat on to the air inside the robot:
//   C_w dT_w/dt = P_w − (T_w − T_c) / R_wc
//   C_c dT_c/dt = P_c + (T_w − T_c) / R_wc − (T_c − T_air) / R_ca
// The air inside the robot is one more node, warmed by every motor case and the other electronics and cooled
// by the room:
//   C_a dT_a/dt = P_base + Σ (T_c − T_a) / R_ca − (T_a − T_room) / R_ar
// The reported temperature is the winding's: that is what the firmware protects.
#include "Util/MujocoModel/MotorParameters.h"

namespace nao::sim
{
struct MotorTemperature
{
  double winding = 25.0; ///< °C
  double housing = 25.0; ///< °C, case and gear housing
};

/// Thermal constants of one motor.
struct MotorThermal
{
  double windingCapacity = 1.0; ///< J/K
  double windingToCase = 1.0;   ///< K/W
  double caseCapacity = 1.0;    ///< J/K
  double caseToAir = 1.0;       ///< K/W
};

/// Advances both nodes by dt seconds with `windingPower` W into the winding and `casePower` W into the case,
/// the air inside the robot at `airTemperature` (exact for constant powers and air over dt: any step is
/// stable).
void advanceTemperature(MotorTemperature& temperature, const MotorThermal& motor, double windingPower,
                        double casePower, double airTemperature, double dt);

/// Advances the air inside the robot by dt seconds with `heatIn` W flowing into it from motors and
/// electronics.
double advanceBodyAir(double airTemperature, const BodyAirParameters& air, double heatIn,
                      double roomTemperature, double dt);

/// The LoLA status 0..3 after `previous` given the temperature now: raised as soon as a "From" threshold is
/// reached, lowered one level at a time only below that level's "Below" threshold.
int temperatureStatus(int previous, double temperature, const TemperatureStatusParameters& thresholds);

/// Fraction of stiffness × maximum torque the board still allows: 1 in status 0; in status 1 falling linearly
/// from hotLimitStart (at hotFrom) to hotLimitEnd (at veryHotFrom); veryHotLimit in status 2; criticalLimit
/// in 3.
double torqueLimitFactor(int status, double temperature, const TemperatureStatusParameters& thresholds,
                         const FirmwareProtectionParameters& protection);
} // namespace nao::sim
