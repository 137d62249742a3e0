// Two-node motor temperature, LoLA temperature status with hysteresis, the firmware's torque cut, battery.
#include "Util/Simulator/Physics/ThermalModel.h"
#include "Util/Simulator/Physics/BatteryModel.h"

#include <cmath>
#include <gtest/gtest.h>

namespace nao::sim
{
namespace
{
/// motors.toml [temperatureStatus] as shipped: 76/70, 80/78, 90/88 °C (from/below per status).
TemperatureStatusParameters shippedThresholds()
{
  return {76.0, 70.0, 80.0, 78.0, 90.0, 88.0};
}

MotorThermal thermalMotor()
{
  MotorThermal motor;
  motor.windingCapacity = 3.0; // J/K
  motor.windingToCase = 4.0;   // K/W
  motor.caseCapacity = 30.0;   // J/K
  motor.caseToAir = 22.0;      // K/W
  return motor;
}

/// Reference: explicit Euler with a step far below both time constants.
MotorTemperature integrateFinely(MotorTemperature t, const MotorThermal& m, double windingPower,
                                 double casePower, double air, double seconds)
{
  const double dt = 1e-3;
  for (double time = 0.0; time < seconds - dt / 2; time += dt)
  {
    const double toCase = (t.winding - t.housing) / m.windingToCase;
    const double toAir = (t.housing - air) / m.caseToAir;
    t.winding += dt * (windingPower - toCase) / m.windingCapacity;
    t.housing += dt * (casePower + toCase - toAir) / m.caseCapacity;
  }
  return t;
}

TEST(ThermalModel, MatchesAFineIntegrationForAnyStepSize)
{
  const MotorThermal motor = thermalMotor();
  const MotorTemperature start{40.0, 30.0};
  const MotorTemperature reference = integrateFinely(start, motor, 3.5, 0.2, 25.0, 120.0);
  MotorTemperature oneStep = start;
  advanceTemperature(oneStep, motor, 3.5, 0.2, 25.0, 120.0);
  MotorTemperature frames = start;
  for (int frame = 0; frame < 10000; ++frame)
    advanceTemperature(frames, motor, 3.5, 0.2, 25.0, 0.012);
  EXPECT_NEAR(oneStep.winding, reference.winding, 0.01);
  EXPECT_NEAR(oneStep.housing, reference.housing, 0.01);
  EXPECT_NEAR(frames.winding, reference.winding, 0.01);
  EXPECT_NEAR(frames.housing, reference.housing, 0.01);
}

TEST(ThermalModel, SettlesAtPowerTimesThermalResistances)
{
  const MotorThermal motor = thermalMotor();
  MotorTemperature temperature{25.0, 25.0};
  advanceTemperature(temperature, motor, 2.0, 0.0, 25.0, 1e5);
  EXPECT_NEAR(temperature.winding, 25.0 + 2.0 * (4.0 + 22.0), 1e-6);
  EXPECT_NEAR(temperature.housing, 25.0 + 2.0 * 22.0, 1e-6);
  // Heat into the case (the board's electronics) warms both nodes by the case's share alone.
  advanceTemperature(temperature, motor, 2.0, 0.5, 25.0, 1e5);
  EXPECT_NEAR(temperature.winding, 25.0 + 2.0 * (4.0 + 22.0) + 0.5 * 22.0, 1e-6);
  EXPECT_NEAR(temperature.housing, 25.0 + 2.5 * 22.0, 1e-6);
  // Without power both nodes return to the air's temperature.
  advanceTemperature(temperature, motor, 0.0, 0.0, 25.0, 1e5);
  EXPECT_NEAR(temperature.winding, 25.0, 1e-6);
}

TEST(ThermalModel, BodyAirSettlesAtRoomPlusPowerTimesResistanceWithItsTimeConstant)
{
  BodyAirParameters air;
  air.heatCapacity = 800.0; // J/K
  air.toRoom = 0.5;         // K/W: time constant 400 s
  // 6 W: the air settles 3 K above the room; after one time constant it has come 1 − 1/e of the way.
  EXPECT_NEAR(advanceBodyAir(25.0, air, 6.0, 25.0, 1e6), 28.0, 1e-9);
  EXPECT_NEAR(advanceBodyAir(25.0, air, 6.0, 25.0, 400.0), 25.0 + 3.0 * (1.0 - std::exp(-1.0)), 1e-9);
  double stepped = 25.0;
  for (int frame = 0; frame < 1000; ++frame)
    stepped = advanceBodyAir(stepped, air, 6.0, 25.0, 0.4);
  EXPECT_NEAR(stepped, advanceBodyAir(25.0, air, 6.0, 25.0, 400.0), 1e-9);
}

TEST(ThermalModel, StatusRisesAtThresholdsAndFallsWithHysteresis)
{
  const TemperatureStatusParameters t = shippedThresholds();
  EXPECT_EQ(temperatureStatus(0, 75.9, t), 0);
  EXPECT_EQ(temperatureStatus(0, 76.0, t), 1);
  EXPECT_EQ(temperatureStatus(1, 71.0, t), 1); // hysteresis: still hot between 70 and 76
  EXPECT_EQ(temperatureStatus(1, 69.9, t), 0);
  EXPECT_EQ(temperatureStatus(1, 80.0, t), 2);
  EXPECT_EQ(temperatureStatus(2, 79.0, t), 2);
  EXPECT_EQ(temperatureStatus(2, 77.9, t), 1);
  EXPECT_EQ(temperatureStatus(0, 95.0, t), 3); // a jump goes straight up
  EXPECT_EQ(temperatureStatus(3, 89.0, t), 3);
  EXPECT_EQ(temperatureStatus(3, 87.0, t), 2);
  EXPECT_EQ(temperatureStatus(3, 60.0, t), 0); // a fast cool-down passes every level
}

TEST(ThermalModel, FirmwareCutFollowsTheStatus)
{
  const TemperatureStatusParameters t = shippedThresholds();
  // motors.toml [firmwareProtection]: 1.0 -> 0.8 in status 1, 0.6 in 2, 0 in 3
  const FirmwareProtectionParameters p{1.0, 0.8, 0.6, 0.0};
  EXPECT_EQ(torqueLimitFactor(0, 75.0, t, p), 1.0);
  EXPECT_DOUBLE_EQ(torqueLimitFactor(1, 76.0, t, p), 1.0);
  EXPECT_DOUBLE_EQ(torqueLimitFactor(1, 78.0, t, p), 0.9);
  EXPECT_DOUBLE_EQ(torqueLimitFactor(1, 72.0, t, p), 1.0); // hot by hysteresis, below the entry temperature
  EXPECT_LT(torqueLimitFactor(2, 85.0, t, p), 0.7);        // "reduced by more than 30 %"
  EXPECT_EQ(torqueLimitFactor(3, 91.0, t, p), 0.0);
}

TEST(BatteryModel, DrainsChargeByAmpereHours)
{
  BatteryParameters parameters; // motors.toml [battery]: the datasheet's 2.9 A·h, 0.1 Ω, 200 J/K, 5 K/W
  parameters.capacity = 2.9;
  parameters.internalResistance = 0.1;
  parameters.heatCapacity = 200.0;
  parameters.thermalResistance = 5.0;
  BatteryState battery{1.0, 0.0, 25.0};
  advanceBattery(battery, parameters, 2.9, 25.0, 1800.0); // 2.9 A for half an hour
  EXPECT_NEAR(battery.charge, 0.5, 1e-9);
  EXPECT_DOUBLE_EQ(battery.current, -2.9); // negative: discharging
  EXPECT_GT(battery.temperature, 25.0);
  advanceBattery(battery, parameters, 2.9, 25.0, 36000.0);
  EXPECT_EQ(battery.charge, 0.0);
}
} // namespace
} // namespace nao::sim
