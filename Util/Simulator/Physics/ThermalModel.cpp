#include "Util/Simulator/Physics/ThermalModel.h"

#include <algorithm>
#include <cmath>

namespace nao::sim
{
void advanceTemperature(MotorTemperature& temperature, const MotorThermal& motor, double windingPower,
                        double casePower, double airTemperature, double dt)
{
  // Linear system x' = A x + b in the rises over the air; its exponential is taken in closed form through the
  // two real eigenvalues of A (a 2x2 with positive off-diagonal coupling always has real, negative ones).
  const double gwc = 1.0 / motor.windingToCase;
  const double gca = 1.0 / motor.caseToAir;
  const double a11 = -gwc / motor.windingCapacity;
  const double a12 = gwc / motor.windingCapacity;
  const double a21 = gwc / motor.caseCapacity;
  const double a22 = -(gwc + gca) / motor.caseCapacity;
  // Steady state for these powers above the air: case = (P_w + P_c) R_ca, winding = case + P_w R_wc.
  const double steadyHousing = (windingPower + casePower) * motor.caseToAir;
  const double steadyWinding = steadyHousing + windingPower * motor.windingToCase;
  const double x1 = temperature.winding - airTemperature - steadyWinding;
  const double x2 = temperature.housing - airTemperature - steadyHousing;
  const double trace = a11 + a22;
  const double determinant = a11 * a22 - a12 * a21;
  const double root = std::sqrt(std::max(0.0, trace * trace / 4.0 - determinant));
  const double l1 = trace / 2.0 + root;
  const double l2 = trace / 2.0 - root;
  const double e1 = std::exp(l1 * dt);
  const double e2 = std::exp(l2 * dt);
  // exp(A dt) = (e1 (A − l2 I) − e2 (A − l1 I)) / (l1 − l2)
  const double scale = 1.0 / (l1 - l2);
  const double m11 = scale * (e1 * (a11 - l2) - e2 * (a11 - l1));
  const double m12 = scale * (e1 - e2) * a12;
  const double m21 = scale * (e1 - e2) * a21;
  const double m22 = scale * (e1 * (a22 - l2) - e2 * (a22 - l1));
  temperature.winding = airTemperature + steadyWinding + m11 * x1 + m12 * x2;
  temperature.housing = airTemperature + steadyHousing + m21 * x1 + m22 * x2;
}

double advanceBodyAir(double airTemperature, const BodyAirParameters& air, double heatIn,
                      double roomTemperature, double dt)
{
  const double steady = roomTemperature + heatIn * air.toRoom;
  return steady + (airTemperature - steady) * std::exp(-dt / (air.toRoom * air.heatCapacity));
}

int temperatureStatus(int previous, double temperature, const TemperatureStatusParameters& thresholds)
{
  const int reached = temperature >= thresholds.criticalFrom  ? 3
                      : temperature >= thresholds.veryHotFrom ? 2
                      : temperature >= thresholds.hotFrom     ? 1
                                                              : 0;
  if (reached >= previous) return reached;
  const double below[4] = {0.0, thresholds.hotBelow, thresholds.veryHotBelow, thresholds.criticalBelow};
  int status = previous;
  while (status > reached && temperature < below[status])
    --status;
  return status;
}

double torqueLimitFactor(int status, double temperature, const TemperatureStatusParameters& thresholds,
                         const FirmwareProtectionParameters& protection)
{
  switch (status)
  {
  case 0:
    return 1.0;
  case 1:
  {
    const double span = thresholds.veryHotFrom - thresholds.hotFrom;
    const double progress =
        span > 0.0 ? std::clamp((temperature - thresholds.hotFrom) / span, 0.0, 1.0) : 1.0;
    return protection.hotLimitStart + progress * (protection.hotLimitEnd - protection.hotLimitStart);
  }
  case 2:
    return protection.veryHotLimit;
  default:
    return protection.criticalLimit;
  }
}
} // namespace nao::sim
