// A hostile LoLA client's absurd commands (found by probing `Simulator serve`): the plant takes a target beyond a
// board's encoder turn (±π) as the end of that turn on the command's side, never as an integer overflow; stiffness
// is taken as 0..1.
#include "TestRobot.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <numbers>

namespace nao::sim
{
namespace
{
TEST(AbsurdCommands, HugePositionsDriveEachJointToTheStopOnTheirOwnSide)
{
  // 1e30 rad overflowed the boards' integer count (llround): HeadYaw +1e30 went to −2.08 rad. The head moves
  // freely (no floor, no body in its way) to its stop on the command's side: HeadYaw ±2.09, HeadPitch −0.67 and
  // +0.51 rad (the URDF), and stalls there as a motor commanded beyond its stop does.
  for (const float command : {1e30f, -1e30f, 1e16f, -1e16f})
  {
    SimulatedRobot robot(test::projectConfig());
    test::standStill(robot, 0.5);
    JointValues positions = test::standPosture();
    for (const Joint joint : {Joint::HeadYaw, Joint::HeadPitch})
      positions[index(joint)] = command;
    robot.setCommand(positions, test::uniform(1.f));
    robot.advance(2.0);
    for (const Joint joint : {Joint::HeadYaw, Joint::HeadPitch})
    {
      const std::size_t j = index(joint);
      EXPECT_EQ(robot.targets()[j], std::copysign(std::numbers::pi_v<float>, command)) << j;
      EXPECT_GT(robot.sensors().positions[j] * command, 0.f)
          << "joint " << j << " moved to the command's side";
      EXPECT_GT(std::abs(robot.sensors().positions[j]), 0.45f) << "joint " << j << " reached its stop";
    }
  }
}

TEST(AbsurdCommands, StiffnessIsTakenAsZeroToOneAndNotANumberAsZero)
{
  SimulatedRobot robot(test::projectConfig());
  JointValues stiffness = test::uniform(0.5f);
  stiffness[0] = std::numeric_limits<float>::quiet_NaN();
  stiffness[1] = 1e30f;
  stiffness[2] = -1e30f;
  stiffness[3] = std::numeric_limits<float>::infinity();
  robot.setCommand(test::standPosture(), stiffness);
  EXPECT_EQ(robot.stiffnesses()[0], 0.f);
  EXPECT_EQ(robot.stiffnesses()[1], 1.f);
  EXPECT_EQ(robot.stiffnesses()[2], 0.f);
  EXPECT_EQ(robot.stiffnesses()[3], 1.f);
  EXPECT_EQ(robot.stiffnesses()[4], 0.5f);
}
} // namespace
} // namespace nao::sim
