// Heat on the simulated robot: motors warm with their current, LoLA status with hysteresis, the firmware cut,
// the battery.
#include "TestRobot.h"
#include "Util/Simulator/Physics/Encoder.h"

#include <gtest/gtest.h>

namespace nao::sim
{
namespace
{
using test::deg;

TEST(ThermalBehaviour, AKneeHoldingAboutOneAmpereBecomesHotWithinTenMinutes)
{
  // Both knees pushed three of their boards' counts past where they rest: 1.04 N·m against gravity and
  // friction, which hold the joint still, so about 1 A flows the whole time — an unadjusted stand (NaoFacts.md BHDOC:
  // "a heat state after only 3 minutes"; teams see a few minutes).
  SimulatedRobot robot(test::projectConfig());
  test::standStill(robot, 1.0);
  JointValues targets = test::standPosture();
  const double count = encoderStep(robot.config().motors.board.positionBits);
  for (const Joint knee : {Joint::LKneePitch, Joint::RKneePitch})
    targets[index(knee)] = static_cast<float>(robot.groundTruth().boardAngles[index(knee)] - 3 * count);
  robot.setCommand(targets, test::uniform(1.f));
  const std::size_t knee = index(Joint::LKneePitch);
  double previous = robot.groundTruth().windingTemperatures[knee];
  double hotAt = -1.0;
  double current = 0.0;
  while (robot.time() < 600.0 && hotAt < 0.0)
  {
    robot.advance(robot.frameTime());
    const double temperature = robot.groundTruth().windingTemperatures[knee];
    EXPECT_GE(temperature, previous - 1e-9); // heating only
    if (robot.sensors().status[knee] == 1)
    {
      hotAt = robot.time();
      EXPECT_GE(temperature, 76.0);                        // the status changes at the threshold ...
      EXPECT_LT(previous, 76.0);                           // ... not before, not later
      EXPECT_GE(robot.sensors().temperatures[knee], 76.f); // and LoLA's whole degrees show it
    }
    previous = temperature;
    current = robot.groundTruth().currents[knee];
  }
  EXPECT_NEAR(current,
              3 * count * robot.drive(Joint::LKneePitch).positionGain /
                  robot.drive(Joint::LKneePitch).torquePerAmpere,
              1e-6);
  EXPECT_GT(current, 0.95);
  EXPECT_GE(hotAt, 180.0);
  EXPECT_LE(hotAt, 600.0);
}

TEST(ThermalBehaviour, AStandingRobotWithoutMotorCurrentStillWarmsAFewDegreesInTenMinutes)
{
  // Seed 002: a well-adjusted goalie "only gains a few degrees Celsius ... standing 10 minutes". With no
  // motor current at all only the boards' electronics and the air inside the robot warm the motors.
  SimulatedRobot robot(test::projectConfig());
  const LimpWarming warming = limpWarming(robot, 600.0);
  EXPECT_GE(warming.kneeRise, 2.0);
  EXPECT_LE(warming.kneeRise, 6.0);
  EXPECT_GT(warming.airAboveRoom, 1.0);
  EXPECT_EQ(warming.largestCurrent, 0.0);
}

TEST(ThermalBehaviour, AHotMotorReturnsToNormalOnlyBelowSeventyDegrees)
{
  SimulatedRobot robot(test::projectConfig());
  test::standStill(robot, 0.5);
  robot.setMotorTemperatures(77.0);
  const std::size_t knee = index(Joint::RKneePitch);
  EXPECT_EQ(robot.sensors().status[knee], 1);
  robot.setCommand(test::standPosture(), test::uniform(0.f)); // no current: the motors cool down
  double previousTemperature = robot.groundTruth().windingTemperatures[knee];
  bool sawCoolHot = false;
  while (robot.sensors().status[knee] != 0 && robot.time() < 1200.0)
  {
    robot.advance(robot.frameTime());
    const double temperature = robot.groundTruth().windingTemperatures[knee];
    if (robot.sensors().status[knee] == 1 && temperature < 75.0) sawCoolHot = true; // hysteresis
    if (robot.sensors().status[knee] == 0)
    {
      EXPECT_LT(temperature, 70.0);
      EXPECT_GE(previousTemperature, 70.0);
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
    for (const double current : robot.groundTruth().currents)
      motors += current;
    EXPECT_NEAR(robot.sensors().battery.current, -(motors + config.motors.battery.baseLoad), 1e-3);
    drawn += -robot.sensors().battery.current * robot.frameTime();
  }
  EXPECT_NEAR(chargeBefore - robot.sensors().battery.charge,
              drawn / (config.motors.battery.capacity * 3600.0), 1e-6);
  EXPECT_GT(robot.sensors().battery.temperature, config.motors.roomTemperature);
}
} // namespace
} // namespace nao::sim
