// Scenario events: picking the robot up, putting it down, pushing it.
#include "TestRobot.h"

#include <gtest/gtest.h>

namespace nao::sim
{
namespace
{
double soleHeight(const SimulatedRobot& robot, const char* site)
{
  return robot.data().site_xpos[3 * mj_name2id(&robot.model(), mjOBJ_SITE, site) + 2];
}

TEST(Events, PickUpLiftsTheFeetOffTheGroundAndPutDownLoadsThemAgain)
{
  SimulatedRobot robot(test::projectConfig());
  test::standStill(robot, 1.0);
  const double standingHeight = robot.groundTruth().torsoHeight;
  EXPECT_NEAR(robot.groundTruth().fsrTotal, test::kilogramsOfRobot, 0.1);

  robot.pickUp();
  EXPECT_TRUE(robot.isHeld());
  robot.advance(1.0); // 0.5 s lifting, 0.5 s held
  EXPECT_NEAR(robot.groundTruth().torsoHeight, standingHeight + 0.1, 0.005);
  EXPECT_GT(soleHeight(robot, "l_sole"), 0.05);
  EXPECT_GT(soleHeight(robot, "r_sole"), 0.05);
  for (const float kg : robot.sensors().fsr)
    EXPECT_NEAR(kg, 0.f, 0.05); // noise only (sensors.toml: 0.01 kg, 5σ)

  robot.putDown();
  robot.advance(1.5);
  EXPECT_FALSE(robot.isHeld());
  EXPECT_NEAR(robot.groundTruth().fsrTotal, test::kilogramsOfRobot, 0.05 * test::kilogramsOfRobot);
  EXPECT_NEAR(robot.groundTruth().torsoHeight, standingHeight, 0.005);
  EXPECT_LT(std::abs(robot.sensors().angles[1]), test::deg(2.0));
}

TEST(Events, ASmallPushIsAbsorbed)
{
  SimulatedRobot robot(test::projectConfig());
  test::standStill(robot, 1.0);
  const double standingHeight = robot.groundTruth().torsoHeight;
  robot.push({5.0, 0.0, 0.0}, 0.1); // 0.5 N·s forwards
  robot.advance(0.05);
  EXPECT_FALSE(robot.isAsleep());
  robot.advance(3.0);
  EXPECT_NEAR(robot.groundTruth().torsoHeight, standingHeight, 0.005);
  EXPECT_LT(std::abs(robot.sensors().angles[1]), test::deg(3.0));
}

TEST(Events, AHardPushTopplesTheRobot)
{
  SimulatedRobot robot(test::projectConfig());
  test::standStill(robot, 1.0);
  robot.push({-60.0, 0.0, 0.0}, 0.2); // 12 N·s backwards: more than 2 m/s for a 5.4 kg robot
  double lowest = robot.groundTruth().torsoHeight;
  for (int frame = 0; frame < 250; ++frame) // 3 s
  {
    robot.advance(robot.frameTime());
    lowest = std::min(lowest, robot.groundTruth().torsoHeight);
  }
  EXPECT_LT(lowest, 0.15);
  EXPECT_GT(std::abs(robot.sensors().angles[1]), test::deg(45.0)); // lying on its back
  for (const double angle : robot.groundTruth().angles)
    EXPECT_TRUE(std::isfinite(angle));
}
} // namespace
} // namespace nao::sim
