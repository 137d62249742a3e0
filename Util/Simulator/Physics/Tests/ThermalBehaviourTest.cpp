// Heat on the simulated robot: motors warm with their current, LoLA status with hysteresis, the firmware cut,
// the battery.
#include "TestRobot.h"

#include <gtest/gtest.h>

namespace nao::sim
{
namespace
{
using test::deg;

TEST(ThermalBehaviour, AnUnadjustedKneeBecomesHotWithinThreeToTenMinutes)
{
  SimulatedRobot robot(test::projectConfig());
  test::standStill(robot, 1.0);
  const std::size_t knee = index(Joint::LKneePitch);
  const float startTemperature = robot.sensors().temperatures[knee];
  float previousTemperature = startTemperature;
  double hotAt = -1.0;
  float current = 0.f;
  while (robot.time() < 600.0 && hotAt < 0.0)
  {
    robot.advance(robot.frameTime());
    const SimSensors& s = robot.sensors();
    EXPECT_GE(s.temperatures[knee], previousTemperature - 1e-4f); // heating only
    if (s.status[knee] == 1)
    {
      hotAt = robot.time();
      EXPECT_GE(s.temperatures[knee], 76.f); // the status changes at the threshold ...
      EXPECT_LT(previousTemperature, 76.f);  // ... not before, not later
    }
    previousTemperature = s.temperatures[knee];
    current = s.currents[knee];
  }
  EXPECT_GT(current, 1.0f);
  EXPECT_GE(hotAt, 180.0);
  EXPECT_LE(hotAt, 600.0);
  EXPECT_NEAR(startTemperature, 25.f, 2.f); // ambient
}

TEST(ThermalBehaviour, AHotMotorReturnsToNormalOnlyBelowSeventyDegrees)
{
  SimulatedRobot robot(test::projectConfig());
  test::standStill(robot, 0.5);
  robot.setMotorTemperatures(77.0);
  const std::size_t knee = index(Joint::RKneePitch);
  EXPECT_EQ(robot.sensors().status[knee], 1);
  robot.setCommand(test::standPosture(), test::uniform(0.f)); // no current: the motors cool down
  float previousTemperature = robot.sensors().temperatures[knee];
  bool sawCoolHot = false;
  while (robot.sensors().status[knee] != 0 && robot.time() < 1200.0)
  {
    robot.advance(robot.frameTime());
    const float temperature = robot.sensors().temperatures[knee];
    if (robot.sensors().status[knee] == 1 && temperature < 75.f) sawCoolHot = true; // hysteresis
    if (robot.sensors().status[knee] == 0)
    {
      EXPECT_LT(temperature, 70.f);
      EXPECT_GE(previousTemperature, 70.f);
    }
    previousTemperature = temperature;
  }
  EXPECT_EQ(robot.sensors().status[knee], 0);
  EXPECT_TRUE(sawCoolHot);
}

TEST(ThermalBehaviour, FirmwareCutsTheTorqueLimitWithTheStatus)
{
  SimulatedRobot robot(test::projectConfig());
  JointValues posture = test::standPosture();
  const std::size_t shoulder = index(Joint::LShoulderPitch);
  posture[shoulder] = 0.f; // arm held out horizontally
  robot.resetToPosture(posture);
  robot.setCommand(posture, test::uniform(1.f));
  robot.advance(0.5);
  const double maxTorque = robot.drive(Joint::LShoulderPitch).maxTorque;

  robot.setMotorTemperatures(78.0); // status 1, halfway to "very hot": 1.0 -> 0.8, so 0.9
  robot.advance(robot.frameTime());
  EXPECT_EQ(robot.sensors().status[shoulder], 1);
  EXPECT_LT(robot.sensors().stiffnesses[shoulder], 1.f);
  EXPECT_GT(robot.sensors().stiffnesses[shoulder], 0.7f);
  EXPECT_NEAR(robot.groundTruth().torqueLimits[shoulder], robot.sensors().stiffnesses[shoulder] * maxTorque,
              1e-6);

  robot.setMotorTemperatures(85.0); // status 2: reduced by more than 30 %
  robot.advance(robot.frameTime());
  EXPECT_EQ(robot.sensors().status[shoulder], 2);
  EXPECT_LT(robot.sensors().stiffnesses[shoulder], 0.7f);
  EXPECT_GT(robot.sensors().stiffnesses[shoulder], 0.f);

  robot.setMotorTemperatures(95.0); // status 3: no torque at all, the arm drops
  robot.advance(1.0);
  EXPECT_EQ(robot.sensors().status[shoulder], 3);
  EXPECT_EQ(robot.sensors().stiffnesses[shoulder], 0.f);
  EXPECT_EQ(robot.groundTruth().motorTorques[shoulder], 0.0);
  EXPECT_GT(test::toDegrees(robot.groundTruth().angles[shoulder]), 45.0);
}

TEST(ThermalBehaviour, BatteryCarriesMotorsAndBaseLoad)
{
  const SimConfig config = test::projectConfig();
  SimulatedRobot robot(config);
  test::standStill(robot, 1.0);
  const double chargeBefore = robot.sensors().battery.charge;
  double drawn = 0.0;                        // A·s
  for (int frame = 0; frame < 5000; ++frame) // 60 s
  {
    robot.advance(robot.frameTime());
    double motors = 0.0;
    for (const float current : robot.sensors().currents)
      motors += current;
    EXPECT_NEAR(robot.sensors().battery.current, -(motors + config.motors.battery.baseLoad), 1e-3);
    drawn += -robot.sensors().battery.current * robot.frameTime();
  }
  EXPECT_NEAR(chargeBefore - robot.sensors().battery.charge,
              drawn / (config.motors.battery.capacity * 3600.0), 1e-6);
  EXPECT_GT(robot.sensors().battery.temperature, config.motors.ambientTemperature);
}
} // namespace
} // namespace nao::sim
