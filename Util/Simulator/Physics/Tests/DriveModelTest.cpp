// The motor-board model as pure functions: encoders, the position loop in whole counts, current, drive
// constants and how a robot's variation changes them.
#include "Util/Simulator/Physics/DriveModel.h"
#include "TestRobot.h"
#include "Util/Simulator/Physics/Encoder.h"

#include <gtest/gtest.h>

namespace nao::sim
{
namespace
{
Drive testDrive()
{
  Drive drive;
  drive.positionGain = 1000.0; // N·m/rad
  drive.derivativeGain = 2.0;  // N·m·s/rad
  drive.velocityGain = 0.5;    // N·m·s/rad
  drive.torquePerAmpere = 2.0; // N·m/A
  drive.maxTorque = 4.0;       // N·m at stall: the supply voltage
  return drive;
}

TEST(DriveModel, EncoderHas4096CountsPerTurn)
{
  EXPECT_DOUBLE_EQ(encoderStep(12), 2.0 * std::numbers::pi / 4096.0);
  const double step = encoderStep(12);
  EXPECT_DOUBLE_EQ(quantise(10.4 * step, step), 10.0 * step);
  EXPECT_DOUBLE_EQ(quantise(-10.6 * step, step), -11.0 * step);
  EXPECT_DOUBLE_EQ(quantise(0.123, 0.0), 0.123); // step 0: continuous
}

TEST(DriveModel, EncoderHysteresisHoldsAReadingNearTheBoundary)
{
  const double step = encoderStep(12);
  // Without hysteresis the count follows the nearest multiple.
  EXPECT_EQ(encoderCount(10, 10.51 * step, step, 0.0), 11);
  // With 0.2 counts a reading switches only 0.1 counts beyond the boundary, in both directions.
  EXPECT_EQ(encoderCount(10, 10.59 * step, step, 0.2), 10);
  EXPECT_EQ(encoderCount(10, 10.61 * step, step, 0.2), 11);
  EXPECT_EQ(encoderCount(11, 10.41 * step, step, 0.2), 11);
  EXPECT_EQ(encoderCount(11, 10.39 * step, step, 0.2), 10);
  // A large move jumps straight to the nearest count.
  EXPECT_EQ(encoderCount(10, 57.2 * step, step, 0.2), 57);
}

TEST(DriveModel, TheBoardsLoopWorksInWholeCounts)
{
  const Drive drive = testDrive();
  const double count = encoderStep(14);
  // Same count, nothing moving: exactly nothing, however close the target is to the count's edge.
  EXPECT_EQ(boardTorque(drive, 0, count, 0.0, 0.0, 3.0), 0.0);
  // One count: Kp times one count of the board's sensor.
  EXPECT_DOUBLE_EQ(boardTorque(drive, 1, count, 0.0, 0.0, 3.0), 1000.0 * count);
  EXPECT_DOUBLE_EQ(boardTorque(drive, -2, count, 0.0, 0.0, 3.0), -2000.0 * count);
}

TEST(DriveModel, TorqueIsProportionalDampedAndLimited)
{
  const Drive drive = testDrive();
  const double count = 0.001; // rad, for round numbers
  EXPECT_DOUBLE_EQ(boardTorque(drive, 1, count, 0.0, 0.0, 3.0), 1.0);
  EXPECT_DOUBLE_EQ(boardTorque(drive, 1, count, 0.1, 0.0, 3.0), 0.8); // the board's damping: 2 × 0.1
  EXPECT_DOUBLE_EQ(boardTorque(drive, 1, count, 0.0, 1.0, 3.0), 0.5); // back-EMF: 0.5 × 1
  EXPECT_DOUBLE_EQ(boardTorque(drive, 100, count, 0.0, 0.0, 0.9), 0.9);
  EXPECT_DOUBLE_EQ(boardTorque(drive, -100, count, 0.0, 0.0, 0.9), -0.9);
  EXPECT_EQ(boardTorque(drive, 100, count, 0.0, 0.0, 0.0), 0.0); // stiffness 0: free
}

TEST(DriveModel, TheSupplyVoltageLimitsTheSpeed)
{
  // The board's output is a voltage, at most the supply's (maxTorque at stall); the back-EMF of the spinning
  // motor takes its share after that limit, so the torque falls linearly to nothing at the no-load speed
  // maxTorque / velocityGain (8 rad/s here), and brakes above it.
  const Drive drive = testDrive();
  const double count = 0.001;
  EXPECT_DOUBLE_EQ(boardTorque(drive, 100, count, 0.0, 0.0, 10.0), 4.0);   // stall: the supply's torque
  EXPECT_DOUBLE_EQ(boardTorque(drive, 100, count, 0.0, 4.0, 10.0), 2.0);   // half the no-load speed: half
  EXPECT_DOUBLE_EQ(boardTorque(drive, 100, count, 0.0, 8.0, 10.0), 0.0);   // the no-load speed: nothing
  EXPECT_DOUBLE_EQ(boardTorque(drive, 100, count, 0.0, 10.0, 10.0), -1.0); // faster: braking
  EXPECT_DOUBLE_EQ(boardTorque(drive, -100, count, 0.0, -4.0, 10.0), -2.0);
  // The stiffness limits the current after the back-EMF: a slow joint at stiffness 0.25 still gets its 1 N·m.
  EXPECT_DOUBLE_EQ(boardTorque(drive, 100, count, 0.0, 4.0, 1.0), 1.0);
}

TEST(DriveModel, CurrentIsTorqueOverTorquePerAmpere)
{
  const Drive drive = testDrive();
  EXPECT_DOUBLE_EQ(motorCurrent(drive, 1.0), 0.5);
  EXPECT_DOUBLE_EQ(motorCurrent(drive, -1.0), 0.5);
  EXPECT_EQ(motorCurrent(drive, 0.0), 0.0); // no voltage, no motion: no current
}

TEST(DriveModel, ARobotsVariationChangesItsDriveAsMotorsDo)
{
  // What the drive constants are is checked by what a joint does against the datasheet (DriveDatasheetTest.cpp).
  // Here: how a robot's variation changes them, as ratios to the nominal drive. A DC motor's stall torque at a
  // given voltage is Kt·U/R, and a voltage-mode loop's gains scale with Kt/R too; a gear train cannot slide with
  // more friction than it sticks with.
  MotorTypeParameters motor;
  motor.torqueConstant = 0.01;
  motor.terminalResistance = 2.0;
  motor.rotorInertia = 1e-7;
  motor.gearEfficiency = 0.5;
  motor.positionGain = 400.0;
  motor.derivativeGain = 10.0;
  motor.windingToCase = 4.0;
  const DriveParameters gear{1, 100.0, 3.0, 0.8, 0.5, 0.002, 0.01};
  const Drive nominal = makeDrive(motor, gear);
  JointVariation variation;
  variation.torqueConstant = 1.1;
  variation.terminalResistance = 1.05;
  variation.staticFriction = 0.5;  // 0.4 N·m: now below the sliding friction's 0.5 ...
  variation.slidingFriction = 1.0; // ... which a gear train cannot have: capped at the static friction
  variation.backlash = 3.0;
  variation.thermalResistance = 1.2;
  const Drive varied = makeDrive(motor, gear, variation);
  EXPECT_DOUBLE_EQ(varied.maxTorque / nominal.maxTorque, 1.1 / 1.05);
  EXPECT_DOUBLE_EQ(varied.positionGain / nominal.positionGain, 1.1 / 1.05); // Kt·ratio·η·Kv / R
  EXPECT_DOUBLE_EQ(varied.torquePerAmpere / nominal.torquePerAmpere, 1.1);
  EXPECT_DOUBLE_EQ(varied.staticFriction, 0.4);
  EXPECT_DOUBLE_EQ(varied.slidingFriction, 0.4);
  EXPECT_DOUBLE_EQ(varied.backlash / nominal.backlash, 3.0);
  EXPECT_DOUBLE_EQ(varied.thermal.windingToCase / nominal.thermal.windingToCase, 1.2);
}

TEST(DriveModel, EveryLoLAJointGetsTheDriveOfItsKind)
{
  const SimConfig config = test::projectConfig();
  const auto drives = makeDrives(config.motors, nominalRobot());
  EXPECT_EQ(driveKindOf(Joint::LKneePitch), DriveKind::KneePitch);
  EXPECT_EQ(driveKindOf(Joint::RHand), DriveKind::Hand);
  EXPECT_EQ(driveKindOf(Joint::HeadPitch), DriveKind::HeadPitch);
  // motors.md §2: knee type 5 at 130.85, hip roll type 1 at 201.3, shoulder pitch type 4 at 150.27.
  EXPECT_EQ(drives[index(Joint::RKneePitch)].motorType, 5);
  EXPECT_DOUBLE_EQ(drives[index(Joint::RKneePitch)].gearRatio, 130.85);
  EXPECT_EQ(drives[index(Joint::LHipRoll)].motorType, 1);
  EXPECT_DOUBLE_EQ(drives[index(Joint::LHipRoll)].gearRatio, 201.3);
  EXPECT_EQ(drives[index(Joint::RShoulderPitch)].motorType, 4);
  EXPECT_EQ(drives[index(Joint::LWristYaw)].motorType, 2);
}
} // namespace
} // namespace nao::sim
