// Scenario events: picking the robot up, putting it down, pushing it; and what serve --control adds: a push at any
// body, another plant mid-run.
#include "TestRobot.h"
#include "Util/Simulator/Physics/Encoder.h"
#include "Util/Simulator/Physics/PlantVariants.h"

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

TEST(Events, APushActsOnTheNamedBodyForItsDurationOnly)
{
  SimulatedRobot robot(test::projectConfig());
  const int head = robot.bodyId("Head"), torso = robot.bodyId("torso");
  ASSERT_GT(head, 0);
  EXPECT_EQ(robot.bodyId("world"), -1);
  EXPECT_EQ(robot.bodyId("Nose"), -1);
  const std::vector<std::string> names = robot.bodyNames();
  EXPECT_EQ(names.front(), "torso");
  EXPECT_NE(std::find(names.begin(), names.end(), "RTibia"), names.end());
  EXPECT_EQ(std::find(names.begin(), names.end(), "world"), names.end());
  robot.push({0.0, 30.0, 0.0}, 0.1, head);
  EXPECT_EQ(robot.data().xfrc_applied[6 * head + 1], 30.0);
  EXPECT_EQ(robot.data().xfrc_applied[6 * torso + 1], 0.0);
  robot.advance(0.05);
  robot.push({10.0, 0.0, 0.0}, 0.1); // the torso's: the head's push ends first
  EXPECT_EQ(robot.data().xfrc_applied[6 * head + 1], 0.0);
  robot.advance(0.1);
  for (int axis = 0; axis < 3; ++axis)
    EXPECT_EQ(robot.data().xfrc_applied[6 * torso + axis], 0.0) << "ended after 0.1 s";
}

TEST(Events, AnotherPlantMidRunKeepsTheStandAndTheBoardsAngle)
{
  // boardSensor12Bit (Config/Sim/variants.toml): the boards count 4 times coarser; their angle stays where it was.
  SimConfig config = test::projectConfig();
  SimulatedRobot robot(config);
  test::standStill(robot, 1.0);
  const double standingHeight = robot.groundTruth().torsoHeight;
  const auto knee = static_cast<std::size_t>(Joint::LKneePitch);
  const double boardAngle = robot.groundTruth().boardAngles[knee];
  RobotVariation variation = robot.robot();
  applyVariant(config.variants, "boardSensor12Bit", config, variation);
  robot.changePlant(config, variation);
  robot.advance(robot.frameTime());
  EXPECT_NEAR(robot.groundTruth().boardAngles[knee], boardAngle, encoderStep(12));
  robot.advance(2.0);
  EXPECT_NEAR(robot.groundTruth().torsoHeight, standingHeight, 0.005);
}
} // namespace
} // namespace nao::sim
