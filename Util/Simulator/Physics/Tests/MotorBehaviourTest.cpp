// Motor boards on the simulated robot: stiffness as a torque limit, gear friction, encoder, coupled hips.
#include "TestRobot.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <set>

namespace nao::sim
{
namespace
{
using test::deg;

/// Standing, left arm stretched forward (shoulder pitch 0: horizontal), everything at stiffness 1.
JointValues armForward()
{
  JointValues angles = test::standPosture();
  angles[index(Joint::LShoulderPitch)] = 0.f;
  return angles;
}

void standWithArmForward(SimulatedRobot& robot)
{
  robot.resetToPosture(armForward());
  robot.setCommand(armForward(), test::uniform(1.f));
  robot.advance(0.5);
}

TEST(MotorBehaviour, StiffnessOneHoldsAnArmAgainstGravity)
{
  SimulatedRobot robot(test::projectConfig());
  standWithArmForward(robot);
  robot.advance(5.0);
  const std::size_t shoulder = index(Joint::LShoulderPitch);
  // The arm needs about 0.5 N·m; the loop holds it within a few encoder counts (0.088° each).
  EXPECT_LT(std::abs(test::toDegrees(robot.groundTruth().angles[shoulder])), 0.5);
  EXPECT_LT(std::abs(test::toDegrees(robot.sensors().positions[shoulder])), 0.5);
  EXPECT_GT(robot.sensors().currents[shoulder], 0.1); // holding it costs current
}

TEST(MotorBehaviour, StiffnessZeroLetsAnArmFall)
{
  SimulatedRobot robot(test::projectConfig());
  standWithArmForward(robot);
  const std::size_t shoulder = index(Joint::LShoulderPitch);
  JointValues stiffness = test::uniform(1.f);
  stiffness[shoulder] = 0.f;
  robot.setCommand(armForward(), stiffness);
  double fallen = 0.0;
  for (int frame = 0; frame < 50 && fallen < 45.0; ++frame) // 0.6 s
  {
    robot.advance(robot.frameTime());
    fallen = test::toDegrees(robot.groundTruth().angles[shoulder]);
    EXPECT_EQ(robot.groundTruth().motorTorques[shoulder], 0.0);
  }
  // A free fall of the arm from horizontal passes 45° in about 0.2 s; gear friction (0.1 N·m) barely slows
  // it.
  EXPECT_GE(fallen, 45.0);
  robot.advance(3.0);
  EXPECT_NEAR(test::toDegrees(robot.groundTruth().angles[shoulder]), 90.0, 10.0); // hangs down
  EXPECT_EQ(robot.sensors().currents[shoulder], 0.f);
  EXPECT_EQ(robot.sensors().stiffnesses[shoulder], 0.f);
}

TEST(MotorBehaviour, TorqueNeverExceedsStiffnessTimesMaximum)
{
  SimulatedRobot robot(test::projectConfig());
  test::standStill(robot, 0.5);
  const std::size_t shoulder = index(Joint::LShoulderPitch);
  const std::size_t knee = index(Joint::RKneePitch);
  JointValues stiffness = test::uniform(1.f);
  stiffness[shoulder] = 0.2f;
  stiffness[knee] = 0.3f;
  JointValues targets = test::standPosture();
  targets[shoulder] = 0.f;    // lift the hanging arm to horizontal: needs about 0.5 N·m at the end
  targets[knee] += deg(20.0); // bend one knee by 20°
  robot.setCommand(targets, stiffness);
  // Stiffness travels as float, like LoLA's.
  const double shoulderLimit = double(0.2f) * robot.drive(Joint::LShoulderPitch).maxTorque;
  const double kneeLimit = double(0.3f) * robot.drive(Joint::RKneePitch).maxTorque;
  double shoulderPeak = 0.0;
  double kneePeak = 0.0;
  for (int step = 0; step < 2000; ++step)
  {
    robot.advance(0.001);
    shoulderPeak = std::max(shoulderPeak, std::abs(robot.groundTruth().motorTorques[shoulder]));
    kneePeak = std::max(kneePeak, std::abs(robot.groundTruth().motorTorques[knee]));
  }
  EXPECT_LE(shoulderPeak, shoulderLimit + 1e-12);
  EXPECT_LE(kneePeak, kneeLimit + 1e-12);
  EXPECT_GE(shoulderPeak, 0.99 * shoulderLimit); // the limit was reached, so the check above means something
  EXPECT_GE(kneePeak, 0.99 * kneeLimit);
  // 0.4 N·m cannot lift the arm (0.5 N·m when horizontal) all the way: it stops short (NAOqi: "stops short if
  // the needed torque exceeds the stiffness limit").
  EXPECT_GT(test::toDegrees(robot.groundTruth().angles[shoulder]), 10.0);
  EXPECT_NEAR(robot.groundTruth().torqueLimits[shoulder], shoulderLimit, 1e-12);
}

TEST(MotorBehaviour, FrictionHoldsTheLegsWithoutMotorTorque)
{
  SimulatedRobot robot(test::projectConfig());
  test::standStill(robot, 2.0);
  const GroundTruth before = robot.groundTruth();
  // Requests a hundredth of a degree from the measured angles: inside the boards' dead band, motors idle.
  JointValues targets = test::standPosture();
  for (std::size_t joint = index(Joint::LHipYawPitch); joint <= index(Joint::RAnkleRoll); ++joint)
    targets[joint] = robot.sensors().positions[joint] + deg(joint % 2 == 0 ? 0.01 : -0.01);
  robot.setCommand(targets, test::uniform(1.f));
  robot.advance(10.0);
  const GroundTruth& after = robot.groundTruth();
  for (std::size_t joint = index(Joint::LHipYawPitch); joint <= index(Joint::RAnkleRoll); ++joint)
  {
    EXPECT_EQ(after.motorTorques[joint], 0.0) << jointNames[joint];
    EXPECT_NEAR(after.angles[joint], before.angles[joint], 0.1 * test::oneCount) << jointNames[joint];
    EXPECT_LT(robot.sensors().currents[joint], 0.05) << jointNames[joint];
  }
  // Gravity still loads knees and ankles: the gears carry it.
  EXPECT_GT(std::abs(after.frictionTorques[index(Joint::LKneePitch)]), 0.3);
  EXPECT_NEAR(after.torsoHeight, before.torsoHeight, 0.0005);
}

TEST(MotorBehaviour, FrictionAloneKeepsTheRobotStandingWhenTheLegsGoLimp)
{
  SimulatedRobot robot(test::projectConfig());
  test::standStill(robot, 1.0);
  const GroundTruth before = robot.groundTruth();
  JointValues stiffness = test::uniform(1.f);
  for (std::size_t joint = index(Joint::LHipYawPitch); joint <= index(Joint::RAnkleRoll); ++joint)
    stiffness[joint] = 0.f;
  robot.setCommand(test::standPosture(), stiffness);
  robot.advance(10.0);
  for (std::size_t joint = index(Joint::LHipYawPitch); joint <= index(Joint::RAnkleRoll); ++joint)
    EXPECT_NEAR(robot.groundTruth().angles[joint], before.angles[joint], test::oneCount) << jointNames[joint];
  EXPECT_NEAR(robot.groundTruth().torsoHeight, before.torsoHeight, 0.001);
}

TEST(MotorBehaviour, EncoderReportsWholeCountsOf2PiOver4096)
{
  SimulatedRobot robot(test::projectConfig());
  test::standStill(robot, 0.2);
  for (const float position : robot.sensors().positions)
  {
    const double counts = position / test::oneCount;
    EXPECT_NEAR(counts, std::round(counts), 1e-3);
  }
  // A slow arm movement (10° in 2 s) passes through every count, one step at a time.
  const std::size_t shoulder = index(Joint::LShoulderPitch);
  std::set<long> seen;
  JointValues targets = test::standPosture();
  for (int frame = 0; frame < 200; ++frame)
  {
    targets[shoulder] = test::standPosture()[shoulder] - deg(10.0 * frame / 200.0);
    robot.setCommand(targets, test::uniform(1.f));
    robot.advance(0.01);
    seen.insert(std::lround(robot.sensors().positions[shoulder] / test::oneCount));
  }
  ASSERT_GT(seen.size(), 100u); // 10° = 114 counts
  EXPECT_EQ(static_cast<long>(seen.size()), *seen.rbegin() - *seen.begin() + 1);
}

TEST(MotorBehaviour, OneMotorDrivesBothHipYawPitchJoints)
{
  SimulatedRobot robot(test::projectConfig());
  test::standStill(robot, 0.5);
  robot.pickUp();
  robot.advance(1.0);
  JointValues targets = test::standPosture();
  targets[index(Joint::LHipYawPitch)] = deg(-20.0);
  robot.setCommand(targets, test::uniform(1.f));
  robot.advance(1.0);
  const mjModel& m = robot.model();
  const double right = robot.data().qpos[m.jnt_qposadr[mj_name2id(&m, mjOBJ_JOINT, "RHipYawPitch")]];
  EXPECT_NEAR(robot.groundTruth().angles[index(Joint::LHipYawPitch)], deg(-20.0),
              0.5 * std::numbers::pi / 180);
  EXPECT_NEAR(right, robot.groundTruth().angles[index(Joint::LHipYawPitch)], 1e-3);
}
} // namespace
} // namespace nao::sim
