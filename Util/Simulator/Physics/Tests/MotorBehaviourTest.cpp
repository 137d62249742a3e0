// Motor boards on the simulated robot: stiffness as a torque limit, gear friction, the boards' own angle
// against LoLA's reading, encoder, coupled hips, and what a limp robot does.
#include "TestRobot.h"

#include "Util/Simulator/Physics/Encoder.h"

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
  EXPECT_EQ(robot.groundTruth().currents[shoulder], 0.0);
  EXPECT_LT(robot.sensors().currents[shoulder], 0.02f); // the measurement's offset and noise only
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
  SimConfig config = test::projectConfig();
  config.motors.board.positionNoise = 0.0; // no count may flicker: this is about the gears alone
  SimulatedRobot robot(config);
  test::standStill(robot, 2.0);
  const GroundTruth before = robot.groundTruth();
  // Targets exactly on the boards' own counts (a nominal robot: no calibration offsets): every leg motor
  // idles.
  JointValues targets = test::standPosture();
  for (std::size_t joint = index(Joint::LHipYawPitch); joint <= index(Joint::RAnkleRoll); ++joint)
    targets[joint] = static_cast<float>(before.boardAngles[joint]);
  robot.setCommand(targets, test::uniform(1.f));
  robot.advance(0.001);
  for (std::size_t joint = index(Joint::LHipYawPitch); joint <= index(Joint::RAnkleRoll); ++joint)
    EXPECT_EQ(robot.groundTruth().motorTorques[joint], 0.0) << jointNames[joint];
  robot.advance(10.0);
  const GroundTruth& after = robot.groundTruth();
  const double oneBoardCount =
      robot.drive(Joint::LKneePitch).positionGain * encoderStep(config.motors.board.positionBits);
  for (std::size_t joint = index(Joint::LHipYawPitch); joint <= index(Joint::RAnkleRoll); ++joint)
  {
    EXPECT_NEAR(after.angles[joint], before.angles[joint], 0.1 * test::oneCount) << jointNames[joint];
    // The floor's and the constraints' give may carry a joint resting on a count's edge over it: one count.
    EXPECT_LE(std::abs(after.motorTorques[joint]), oneBoardCount + 1e-9) << jointNames[joint];
  }
  // Gravity still loads knees and ankles: the gears carry it.
  EXPECT_GT(std::abs(after.frictionTorques[index(Joint::LKneePitch)]), 0.3);
  EXPECT_NEAR(after.torsoHeight, before.torsoHeight, 0.0005);
}

TEST(MotorBehaviour, ARequestEqualToTheReadingIsNotTheBoardsTarget)
{
  // The seed's case: request and reading agree exactly, yet the motors push. The boards control on their own,
  // finer angle, and LoLA's 12-bit reading is calibrated with an offset the board does not use: the board's
  // target (request − offset) lies up to half a reading count plus the offset away from where the joint is.
  const SimConfig config = test::projectConfig();
  RobotVariation variation = nominalRobot();
  for (std::size_t j = index(Joint::LHipYawPitch); j <= index(Joint::RAnkleRoll); ++j)
    variation.joints[j].positionOffset = (j % 2 ? 0.4 : -0.3) * test::oneCount;
  SimulatedRobot robot(config, variation);
  test::standStill(robot, 1.0);
  const JointValues request = robot.sensors().positions;
  robot.setCommand(request, test::uniform(1.f));
  robot.advance(0.001); // the first step with the new request: nothing has moved yet
  const double step = encoderStep(config.motors.board.positionBits);
  int pushing = 0;
  for (std::size_t j = index(Joint::LHipYawPitch); j <= index(Joint::RAnkleRoll); ++j)
  {
    EXPECT_EQ(robot.sensors().positions[j], request[j])
        << jointNames[j]; // the reading equals the request ...
    // ... and the board sees this many counts, worked out by hand from its target and its own count:
    const long long error = std::llround((request[j] - variation.joints[j].positionOffset) / step) -
                            std::llround(robot.groundTruth().boardAngles[j] / step);
    const Drive& drive = robot.drive(jointAt(j));
    EXPECT_NEAR(robot.groundTruth().motorTorques[j], drive.positionGain * static_cast<double>(error) * step,
                1e-4)
        << jointNames[j];
    pushing += std::abs(robot.groundTruth().motorTorques[j]) / drive.torquePerAmpere > 0.3;
  }
  EXPECT_GE(pushing, 3); // of 11 leg motors; a reading count is 4 board counts, a board count 0.35 N·m
}

TEST(MotorBehaviour, StiffnessLimitsTheCurrentOfAKneePressingOnItsStop)
{
  // Lifted, one knee commanded far beyond its stop (-5.29°): stalled, the motor gives stiffness × its
  // maximum. The seed: a knee at stiffness 0.75 draws noticeably less current under stress than at 1.0.
  double currents[2] = {};
  const float stiffnesses[2] = {1.f, 0.75f};
  for (int k = 0; k < 2; ++k)
  {
    const KneeStall stall = kneeStall(test::projectConfig(), nominalRobot(), stiffnesses[k]);
    // The stall current of the knee's motor (type 5, motors.md §1 [DS6]: 65 mN·m ± 10 %, 8700 rpm ± 10 %) with
    // the 12 V winding motors.toml assumes: I = T·ω₀/U = 4.94 A, ± 21 % (both tolerances); stiffness × that.
    const double stallCurrent = 0.065 * (8700.0 * 2.0 * std::numbers::pi / 60.0) / 12.0;
    EXPECT_NEAR(stall.trueCurrent, stiffnesses[k] * stallCurrent, 0.21 * stiffnesses[k] * stallCurrent);
    currents[k] = stall.reportedCurrent;
  }
  EXPECT_NEAR(currents[1] / currents[0], 0.75, 0.02); // what LoLA reports, noise included: a torque limit
}

TEST(MotorBehaviour, AtStiffnessZeroTheUndisturbedRobotStandsOnItsGears)
{
  SimulatedRobot robot(test::projectConfig());
  const LimpStand stand = limpStand(robot, 10.0);
  EXPECT_LT(stand.largestLegDrift, test::oneCount) << jointNames[index(stand.driftJoint)];
  EXPECT_NEAR(stand.torsoDrop, 0.0, 0.001);
  // What holds it: the knees' static friction above the load they carry.
  EXPECT_GT(stand.kneeStaticFriction, stand.kneeLoad);
}

TEST(MotorBehaviour, AtStiffnessZeroASmallPushMakesTheStandingRobotSagAndFall)
{
  // Static friction holds the stand's loads, sliding friction does not: once the push sets the legs moving,
  // the knees fold. Fallen: the torso origin below 0.2 m (it stands at 0.315 m).
  SimulatedRobot robot(test::projectConfig());
  const PushedFall fall = pushedLimpFall(robot, LimpBy::stiffnessZero);
  EXPECT_GT(fall.heightAtPush, 0.3);
  EXPECT_LT(fall.lowest, fallenTorsoHeight);
}

TEST(MotorBehaviour, AtStatusThreeTheFirmwareCutMakesThePushedRobotFallLikewise)
{
  SimulatedRobot robot(test::projectConfig());
  const PushedFall fall = pushedLimpFall(robot, LimpBy::statusThree);
  EXPECT_GT(fall.heightAtPush, 0.3);
  EXPECT_LT(fall.lowest, fallenTorsoHeight);
  EXPECT_EQ(robot.sensors().status[index(Joint::LKneePitch)], 3);
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
