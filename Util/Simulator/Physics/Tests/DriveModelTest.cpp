// The motor-board model as pure functions: encoder, position loop, current, derived drive constants.
#include "Util/Simulator/Physics/DriveModel.h"
#include "TestRobot.h"

#include <gtest/gtest.h>

namespace nao::sim
{
namespace
{
Drive testDrive()
{
  Drive drive;
  drive.positionGain = 1000.0; // N·m/rad
  drive.velocityGain = 0.5;    // N·m·s/rad
  drive.torquePerAmpere = 2.0; // N·m/A
  drive.noLoadCurrent = 0.03;  // A
  return drive;
}

TEST(DriveModel, EncoderHas4096CountsPerTurn)
{
  EXPECT_DOUBLE_EQ(encoderStep(12), 2.0 * std::numbers::pi / 4096.0);
  const double step = encoderStep(12);
  EXPECT_DOUBLE_EQ(quantise(10.4 * step, step), 10.0 * step);
  EXPECT_DOUBLE_EQ(quantise(-10.6 * step, step), -11.0 * step);
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

TEST(DriveModel, DeadBandLeavesTheBridgeOff)
{
  const Drive drive = testDrive();
  EXPECT_EQ(controllerTorque(drive, 0.0004, 0.0, 0.0, 3.0, 0.0005), 0.0);
  EXPECT_EQ(controllerTorque(drive, -0.0005, 0.0, 1.0, 3.0, 0.0005), 0.0);
  EXPECT_DOUBLE_EQ(controllerTorque(drive, 0.0006, 0.0, 0.0, 3.0, 0.0005), 0.6);
}

TEST(DriveModel, TorqueIsProportionalDampedAndLimited)
{
  const Drive drive = testDrive();
  EXPECT_DOUBLE_EQ(controllerTorque(drive, 0.001, 0.0, 0.0, 3.0, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(controllerTorque(drive, 0.001, 0.0, 1.0, 3.0, 0.0), 0.5);
  EXPECT_DOUBLE_EQ(controllerTorque(drive, 0.1, 0.0, 0.0, 0.9, 0.0), 0.9);
  EXPECT_DOUBLE_EQ(controllerTorque(drive, -0.1, 0.0, 0.0, 0.9, 0.0), -0.9);
  EXPECT_EQ(controllerTorque(drive, 0.1, 0.0, 0.0, 0.0, 0.0), 0.0); // stiffness 0: free
}

TEST(DriveModel, CurrentIsTorqueOverTorquePerAmperePlusNoLoad)
{
  const Drive drive = testDrive();
  EXPECT_DOUBLE_EQ(motorCurrent(drive, 1.0, true), 0.5 + 0.03);
  EXPECT_DOUBLE_EQ(motorCurrent(drive, -1.0, true), 0.5 + 0.03);
  EXPECT_DOUBLE_EQ(motorCurrent(drive, 0.0, true), 0.03);
  EXPECT_EQ(motorCurrent(drive, 0.0, false), 0.0);
}

TEST(DriveModel, DriveConstantsFollowFromMotorAndGear)
{
  MotorTypeParameters motor;
  motor.torqueConstant = 0.01;
  motor.terminalResistance = 2.0;
  motor.noLoadCurrent = 0.02;
  motor.rotorInertia = 1e-7;
  motor.gearEfficiency = 0.5;
  motor.positionGain = 400.0;
  motor.stictionRatio = 1.5;
  const Drive drive = makeDrive(motor, DriveParameters{1, 100.0, 3.0, 0.8});
  EXPECT_DOUBLE_EQ(drive.torquePerAmpere, 0.01 * 100.0 * 0.5);
  EXPECT_DOUBLE_EQ(drive.positionGain, 0.5 * 400.0 / 2.0);        // torquePerAmpere · V/rad / Ω
  EXPECT_DOUBLE_EQ(drive.velocityGain, 0.5 * 0.01 * 100.0 / 2.0); // back-EMF Kt·ratio per Ω
  EXPECT_DOUBLE_EQ(drive.armature, 1e-7 * 100.0 * 100.0);
  EXPECT_DOUBLE_EQ(drive.coulombFriction, 0.8);
  EXPECT_DOUBLE_EQ(drive.staticFriction, 1.2);
  EXPECT_DOUBLE_EQ(drive.maxTorque, 3.0);
}

TEST(DriveModel, EveryLoLAJointGetsTheDriveOfItsKind)
{
  const SimConfig config = test::projectConfig();
  const auto drives = makeDrives(config.motors);
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
