// The standing robot: staying upright, squatting, its noisy sensors, resting without freezing, reproducible
// seeds.
#include "TestRobot.h"
#include "Util/MujocoModel/MjcfBuilder.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <set>

namespace nao::sim
{
namespace
{
using test::deg;

TEST(Standing, StaysUprightFor60Seconds)
{
  SimulatedRobot robot(test::projectConfig());
  robot.resetToPosture(test::standPosture());
  robot.setCommand(test::standPosture(), test::uniform(1.f));
  // geometry.md §5: the stand puts the hip-pitch axes 230 mm above the soles; the torso origin is 85 mm
  // higher.
  const double expectedHeight = 0.230 + 0.085;
  for (int sample = 0; sample < 120; ++sample)
  {
    robot.advance(0.5);
    const GroundTruth& g = robot.groundTruth();
    ASSERT_NEAR(g.torsoHeight, expectedHeight, 0.005) << "at " << robot.time() << " s";
    ASSERT_LT(std::abs(robot.sensors().angles[0]), deg(2.0));
    ASSERT_LT(std::abs(robot.sensors().angles[1]), deg(2.0));
  }
  EXPECT_NEAR(robot.time(), 60.0, 1e-9);
}

/// B-Human's "sit" (geometry.md §5): a deep squat.
JointValues sitPosture()
{
  JointValues angles{};
  auto set = [&](Joint joint, double degrees) { angles[index(joint)] = deg(degrees); };
  set(Joint::LShoulderPitch, 77.0);
  set(Joint::LShoulderRoll, 20.0);
  set(Joint::LElbowRoll, -35.0);
  set(Joint::LWristYaw, -90.0);
  set(Joint::RShoulderPitch, 77.0);
  set(Joint::RShoulderRoll, -20.0);
  set(Joint::RElbowRoll, 35.0);
  set(Joint::RWristYaw, 90.0);
  for (const Joint joint : {Joint::LHipPitch, Joint::RHipPitch})
    set(joint, -40.0);
  for (const Joint joint : {Joint::LKneePitch, Joint::RKneePitch})
    set(joint, 110.0);
  for (const Joint joint : {Joint::LAnklePitch, Joint::RAnklePitch})
    set(joint, -45.0);
  return angles;
}

void interpolate(SimulatedRobot& robot, const JointValues& from, const JointValues& to, double seconds)
{
  const int frames = static_cast<int>(std::lround(seconds / robot.frameTime()));
  for (int frame = 1; frame <= frames; ++frame)
  {
    JointValues command;
    for (std::size_t joint = 0; joint < numOfJoints; ++joint)
      command[joint] =
          from[joint] + (to[joint] - from[joint]) * static_cast<float>(frame) / static_cast<float>(frames);
    robot.setCommand(command, test::uniform(1.f));
    robot.advance(robot.frameTime());
  }
}

TEST(Standing, SquatsDownAndRisesAgain)
{
  SimulatedRobot robot(test::projectConfig());
  test::standStill(robot, 0.5);
  interpolate(robot, test::standPosture(), sitPosture(), 2.0);
  robot.advance(2.0);
  // Squatting on its heels: the torso leans back by hip + knee + ankle = 25°, hips about 160 mm high.
  EXPECT_NEAR(test::toDegrees(robot.sensors().angles[1]), -25.0, 3.0);
  EXPECT_LT(robot.groundTruth().torsoHeight, 0.26);
  interpolate(robot, sitPosture(), test::standPosture(), 2.0);
  robot.advance(1.0);
  EXPECT_NEAR(robot.groundTruth().torsoHeight, 0.315, 0.005);
  EXPECT_LT(std::abs(robot.sensors().angles[1]), deg(2.0));
  EXPECT_NEAR(robot.groundTruth().fsrTotal, test::kilogramsOfRobot, 0.02 * test::kilogramsOfRobot);
}

/// Every contact is the floor touching a sole (an FSR pad or the sole's outline).
void expectOnlySolesTouchTheFloor(const SimulatedRobot& robot)
{
  const mjModel& m = robot.model();
  const mjData& d = robot.data();
  for (int contact = 0; contact < d.ncon; ++contact)
  {
    EXPECT_EQ(std::string(mj_id2name(&m, mjOBJ_GEOM, d.contact[contact].geom1)), mjcf::floorGeom);
    const std::string part = mj_id2name(&m, mjOBJ_GEOM, d.contact[contact].geom2);
    EXPECT_TRUE(part.rfind("fsr", 0) == 0 || part.ends_with(mjcf::outlineSuffix))
        << part << " touches the floor";
  }
}

TEST(Standing, BHumansSitSquatHangsTheBodyOnTheKnees)
{
  // Why the `sit` scenario's knees draw about 2 A: B-Human's sit is a squat on the feet whose torso leans back 25°,
  // so the upper body's weight hangs behind the knees. The soles are the only contacts (the plant's robot geoms
  // touch nothing but the floor), and each knee holds a gravity load of about 2.5 N·m, more than twice what its
  // gear's static friction holds (motors.toml: 1 N·m): the motor must carry at least the difference, whatever
  // offset the heat adjustment finds. The posture, not the plant or the module, makes the current.
  SimulatedRobot robot(test::projectConfig());
  test::standStill(robot, 0.5);
  interpolate(robot, test::standPosture(), sitPosture(), 2.0);
  robot.advance(3.0);
  expectOnlySolesTouchTheFloor(robot);
  const double stiction =
      robot.config().motors.drives[static_cast<std::size_t>(driveKindOf(Joint::LKneePitch))].staticFriction;
  for (const Joint knee : {Joint::LKneePitch, Joint::RKneePitch})
  {
    const GroundTruth& g = robot.groundTruth();
    // At rest the motor and the gear's friction together hold the knee's load.
    const double load = std::abs(g.motorTorques[index(knee)] + g.frictionTorques[index(knee)]);
    EXPECT_GT(load, 2.0 * stiction) << "N·m on knee " << index(knee) << " (gear holds " << stiction << ")";
    EXPECT_GT(g.currents[index(knee)], 1.0) << "A, knee " << index(knee);
  }
}

/// The `sit` scenario's crouch (Config/Scenarios/sit.toml): torso 16° forward, arms hanging.
JointValues crouchPosture()
{
  JointValues angles = sitPosture();
  auto set = [&](Joint joint, double degrees) { angles[index(joint)] = deg(degrees); };
  set(Joint::LShoulderPitch, 74.0);
  set(Joint::LShoulderRoll, 8.0);
  set(Joint::LElbowRoll, -5.0);
  set(Joint::RShoulderPitch, 74.0);
  set(Joint::RShoulderRoll, -8.0);
  set(Joint::RElbowRoll, 5.0);
  for (const auto& [joint, degrees] : {std::pair{Joint::LHipPitch, -66.0},
                                       {Joint::RHipPitch, -66.0},
                                       {Joint::LKneePitch, 90.0},
                                       {Joint::RKneePitch, 90.0},
                                       {Joint::LAnklePitch, -40.0},
                                       {Joint::RAnklePitch, -40.0}})
    set(joint, degrees);
  return angles;
}

TEST(Standing, TheCrouchLoadsNoJointBeyondItsGear)
{
  // The sit scenario's crouch shares the body's weight between hips, knees and ankles: each pitch joint's static
  // load stays below its gear's static friction, so the gears can hold the posture without motor current.
  // Placed in it (no motion before: two feet on the floor close a loop, and a motion leaves the legs pushing
  // against each other by up to a few tenths of a N·m, which the gears hold as well).
  SimulatedRobot robot(test::projectConfig());
  robot.resetToPosture(crouchPosture());
  robot.setCommand(crouchPosture(), test::uniform(0.6f));
  robot.advance(3.0);
  expectOnlySolesTouchTheFloor(robot);
  EXPECT_GT(robot.groundTruth().torsoHeight, 0.25);
  for (const Joint joint : {Joint::LHipPitch, Joint::RHipPitch, Joint::LKneePitch, Joint::RKneePitch,
                            Joint::LAnklePitch, Joint::RAnklePitch})
  {
    const GroundTruth& g = robot.groundTruth();
    const double load = std::abs(g.motorTorques[index(joint)] + g.frictionTorques[index(joint)]);
    const double stiction =
        robot.config().motors.drives[static_cast<std::size_t>(driveKindOf(joint))].staticFriction;
    EXPECT_LT(load, 0.9 * stiction) << "N·m on joint " << index(joint);
  }
}

TEST(Standing, SensorsShowAnUprightRobotOnBothFeet)
{
  SimulatedRobot robot(test::projectConfig());
  test::standStill(robot, 2.0);
  const SimSensors& s = robot.sensors();
  // sensors.toml noise: 0.02 m/s², 0.1 °/s (1σ); the bounds are 5σ.
  EXPECT_NEAR(s.accelerometer[2], 9.81, 0.1); // specific force: +g upwards when at rest
  EXPECT_NEAR(s.accelerometer[0], 0.0, 0.1);
  EXPECT_NEAR(s.accelerometer[1], 0.0, 0.1);
  for (const float rate : s.gyroscope)
    EXPECT_NEAR(rate, 0.0, 0.01);
  float left = 0.f;
  float right = 0.f;
  for (std::size_t fsr = 0; fsr < 4; ++fsr)
  {
    left += s.fsr[fsr];
    right += s.fsr[fsr + 4];
    EXPECT_GT(s.fsr[fsr], 0.2f) << fsr; // a flat foot loads all four sensors
    EXPECT_GT(s.fsr[fsr + 4], 0.2f) << fsr + 4;
  }
  EXPECT_NEAR(left + right, test::kilogramsOfRobot, 0.02 * test::kilogramsOfRobot); // kg, like LoLA
  EXPECT_NEAR(left, right, 0.1 * test::kilogramsOfRobot);
  EXPECT_NEAR(robot.groundTruth().fsrTotal, left + right, 8 * 5 * 0.01); // 8 FSRs, 0.01 kg noise each, 5σ
}

TEST(Standing, SleepingAtRestChangesNothing)
{
  SimConfig awakeConfig = test::projectConfig();
  awakeConfig.physics.sleepVelocity = 0.0;
  SimulatedRobot awake(awakeConfig);
  SimConfig sleepingConfig = test::projectConfig();
  sleepingConfig.physics.sleepVelocity = 1e-5; // whatever physics.toml says
  SimulatedRobot sleeping(sleepingConfig);
  test::standStill(awake, 5.0);
  test::standStill(sleeping, 5.0);
  EXPECT_TRUE(sleeping.isAsleep());
  EXPECT_LT(sleeping.computedSteps(), awake.computedSteps() / 2);
  // The same seed draws the same noise whether MuJoCo steps or not.
  for (std::size_t joint = 0; joint < numOfJoints; ++joint)
  {
    EXPECT_EQ(awake.sensors().positions[joint], sleeping.sensors().positions[joint]) << jointNames[joint];
    EXPECT_NEAR(awake.groundTruth().currents[joint], sleeping.groundTruth().currents[joint], 1e-3)
        << jointNames[joint];
    EXPECT_NEAR(awake.groundTruth().windingTemperatures[joint],
                sleeping.groundTruth().windingTemperatures[joint], 0.01);
  }
  // A new command wakes it up.
  JointValues targets = test::standPosture();
  targets[index(Joint::HeadYaw)] = deg(30.0);
  sleeping.setCommand(targets, test::uniform(1.f));
  sleeping.advance(1.0);
  EXPECT_NEAR(sleeping.groundTruth().angles[index(Joint::HeadYaw)], deg(30.0), deg(0.5));
}

TEST(Standing, ARestingRobotsReadingsStayNoisyAndItsMotorsWarm)
{
  SimulatedRobot robot(test::projectConfig(), nominalRobot(7));
  test::standStill(robot, 3.0);
  ASSERT_TRUE(robot.isAsleep());
  const double warmthBefore = robot.groundTruth().windingTemperatures[index(Joint::LKneePitch)];
  std::set<float> accelerations, forces;
  for (int frame = 0; frame < 100; ++frame)
  {
    robot.advance(robot.frameTime());
    accelerations.insert(robot.sensors().accelerometer[2]);
    forces.insert(robot.sensors().fsr[0]);
  }
  EXPECT_TRUE(robot.isAsleep());
  EXPECT_GT(accelerations.size(), 90u); // a new noisy value nearly every frame
  EXPECT_GT(forces.size(), 90u);
  EXPECT_GT(robot.groundTruth().windingTemperatures[index(Joint::LKneePitch)], warmthBefore); // electronics
}

TEST(Standing, TheSameSeedIsTheSameRunAndAnotherSeedAnother)
{
  const SimConfig config = test::projectConfig();
  const double step = test::oneCount;
  SimulatedRobot first(config, drawRobot(config.robots, step, 11));
  SimulatedRobot again(config, drawRobot(config.robots, step, 11));
  SimulatedRobot other(config, drawRobot(config.robots, step, 12));
  for (SimulatedRobot* robot : {&first, &again, &other})
    test::standStill(*robot, 2.0);
  int differences = 0;
  for (std::size_t joint = 0; joint < numOfJoints; ++joint)
  {
    EXPECT_EQ(first.sensors().positions[joint], again.sensors().positions[joint]);
    EXPECT_EQ(first.sensors().currents[joint], again.sensors().currents[joint]);
    differences += first.sensors().currents[joint] != other.sensors().currents[joint];
  }
  EXPECT_EQ(first.sensors().accelerometer, again.sensors().accelerometer);
  EXPECT_NE(first.sensors().accelerometer, other.sensors().accelerometer);
  EXPECT_GT(differences, 10);
}
} // namespace
} // namespace nao::sim
