// Plant variants (Config/Sim/variants.toml): each changes what it names and nothing else, the same way for a seed,
// and the plant then behaves as the change says: a held torso stays where it was taken and no longer loads the legs
// through the floor, a board of twice the gain pushes twice as hard per count, a late current reading reads what the
// motor drew frames ago, a wrong current sensor reads a scaled and shifted current.
#include "TestRobot.h"
#include "Tools/Streams/ConfigError.h"
#include "Util/Simulator/Physics/Encoder.h"
#include "Util/Simulator/Physics/PlantVariants.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <stdexcept>

namespace nao::sim
{
namespace
{
struct Drawn
{
  SimConfig config;
  RobotVariation robot;
  VariantEffect effect;
};

Drawn drawn(const std::string& variant, std::uint64_t seed, const std::string& preset = "")
{
  Drawn d{test::projectConfig(), {}, {}};
  d.robot = drawRobot(d.config.robots, encoderStep(d.config.sensors.position.bits), seed, preset);
  if (!variant.empty()) d.effect = applyVariant(d.config.variants, variant, d.config, d.robot);
  return d;
}

const Drive& nominalDrive(const SimConfig& config, Joint joint)
{
  static thread_local Drive drive;
  drive = makeDrives(config.motors, nominalRobot())[index(joint)];
  return drive;
}

TEST(PlantVariants, EveryVariantOfTheFileLoadsAndAppliesToEverySeed)
{
  const SimConfig config = test::projectConfig();
  ASSERT_GE(config.variants.variants.size(), 12u);
  for (const PlantVariant& variant : config.variants.variants)
    for (std::uint64_t seed : {1u, 2u, 3u})
    {
      const Drawn d = drawn(variant.name, seed);
      EXPECT_EQ(d.robot.variant.rfind(variant.name, 0), 0u) << d.robot.variant;
      EXPECT_FALSE(variant.reason.empty()) << variant.name << ": every variant says why it is physics";
    }
}

TEST(PlantVariants, AVariantChangesOnlyWhatItNamesOfTheRobotItsSeedDraws)
{
  const Drawn plain = drawn("", 7), gain = drawn("boardGainDouble", 7), worn = drawn("wornKneesAnkles", 7);
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const JointVariation &a = plain.robot.joints[j], &b = gain.robot.joints[j], &c = worn.robot.joints[j];
    EXPECT_EQ(a.positionOffset, b.positionOffset);
    EXPECT_EQ(a.staticFriction, b.staticFriction);
    EXPECT_DOUBLE_EQ(b.boardGain, 2.0);
    EXPECT_EQ(a.currentOffset, c.currentOffset);
    const std::string_view kind = streams::enumName(driveKindOf(jointAt(j)));
    if (kind == "KneePitch" || kind == "AnklePitch")
    {
      // 0.5 to 0.95 of the stand's load: knee 0.66 N·m, ankle pitch 0.41 N·m (variants.toml).
      const double load = kind == "KneePitch" ? 0.66 : 0.41;
      const double friction = c.staticFriction * nominalDrive(plain.config, jointAt(j)).staticFriction;
      EXPECT_GE(friction, 0.5 * load - 1e-9) << jointNames[j];
      EXPECT_LE(friction, 0.95 * load + 1e-9) << jointNames[j];
      EXPECT_DOUBLE_EQ(c.slidingFriction, c.staticFriction) << "the nominal sliding-to-static ratio";
    }
    else
      EXPECT_EQ(a.staticFriction, c.staticFriction) << jointNames[j];
  }
  EXPECT_EQ(drawn("boardSensor12Bit", 7).config.motors.board.positionBits, 12);
  EXPECT_EQ(drawn("boardSensor16Bit", 7).config.motors.board.positionBits, 16);
  EXPECT_EQ(plain.config.motors.board.positionBits, 14);
  for (const JointVariation& joint : drawn("stiffnessScalesGain", 7).robot.joints)
    EXPECT_EQ(joint.stiffnessGain, 1.0);
  for (const JointVariation& joint : plain.robot.joints)
    EXPECT_EQ(joint.stiffnessGain, 0.0);
  std::vector<double> shifts;
  for (std::uint64_t seed = 1; seed <= 10; ++seed)
  {
    const TemperatureStatusParameters& nominal = plain.config.motors.temperatureStatus;
    const TemperatureStatusParameters& shifted =
        drawn("statusThresholdsShifted", seed).config.motors.temperatureStatus;
    const double shift = shifted.hotFrom - nominal.hotFrom;
    EXPECT_LE(std::abs(shift), 8.0) << seed;
    for (const double by :
         {shifted.hotBelow - nominal.hotBelow, shifted.veryHotFrom - nominal.veryHotFrom,
          shifted.veryHotBelow - nominal.veryHotBelow, shifted.criticalFrom - nominal.criticalFrom,
          shifted.criticalBelow - nominal.criticalBelow})
      EXPECT_NEAR(by, shift, 1e-9) << seed << ": every threshold by the same";
    shifts.push_back(shift);
  }
  EXPECT_GT(*std::max_element(shifts.begin(), shifts.end()) - *std::min_element(shifts.begin(), shifts.end()),
            4.0)
      << "robots differ";
  const Drawn calibration = drawn("calibrationTwoCounts", 7);
  double largest = 0;
  for (const JointVariation& joint : calibration.robot.joints)
    largest = std::max(largest, std::abs(joint.positionOffset) / encoderStep(12));
  EXPECT_LE(largest, 2.0);
  EXPECT_GT(largest, 1.0) << "25 joints, uniform within ±2 counts";
  for (std::uint64_t seed = 1; seed <= 20; ++seed)
  {
    const int delay = drawn("currentLate", seed).robot.currentDelayFrames;
    EXPECT_GE(delay, 1);
    EXPECT_LE(delay, 3);
  }
}

TEST(PlantVariants, ACombinationPicksThreeOthersPerSeedTheSameEveryTime)
{
  const std::string first = drawn("random", 11).effect.description;
  EXPECT_EQ(first, drawn("random", 11).effect.description);
  EXPECT_EQ(std::count(first.begin(), first.end(), '+'), 2) << first;
  bool differs = false;
  for (std::uint64_t seed = 12; seed < 20; ++seed)
    differs |= drawn("random", seed).effect.description != first;
  EXPECT_TRUE(differs);
}

TEST(PlantVariants, AnUnknownNameIsRefusedWithTheClosestKnownOne)
{
  try
  {
    drawn("boardGainHlf", 1);
    FAIL() << "no error";
  }
  catch (const std::runtime_error& error)
  {
    EXPECT_NE(std::string(error.what()).find("did you mean 'boardGainHalf'"), std::string::npos)
        << error.what();
  }
}

TEST(PlantVariants, ABoardOfTwiceTheGainPushesTwiceAsHardPerCount)
{
  const Drawn plain = drawn("", 1), gain = drawn("boardGainDouble", 1);
  const std::array<Drive, numOfJoints> a = makeDrives(plain.config.motors, plain.robot);
  const std::array<Drive, numOfJoints> b = makeDrives(gain.config.motors, gain.robot);
  const std::size_t knee = index(Joint::LKneePitch);
  EXPECT_DOUBLE_EQ(b[knee].positionGain, 2 * a[knee].positionGain);
  EXPECT_DOUBLE_EQ(b[knee].derivativeGain, 2 * a[knee].derivativeGain);
  EXPECT_DOUBLE_EQ(b[knee].maxTorque, a[knee].maxTorque) << "the supply still limits it";
}

TEST(PlantVariants, ABoardWhoseGainsFollowTheStiffnessPushesPerCountInProportionToIt)
{
  const Drawn plain = drawn("", 1), scaled = drawn("stiffnessScalesGain", 1);
  const std::size_t knee = index(Joint::LKneePitch);
  const Drive a = makeDrives(plain.config.motors, plain.robot)[knee];
  const Drive b = makeDrives(scaled.config.motors, scaled.robot)[knee];
  EXPECT_EQ(a.stiffnessGain, 0.0);
  EXPECT_EQ(b.stiffnessGain, 1.0);
  EXPECT_DOUBLE_EQ(b.positionGain, a.positionGain);
  const double count = encoderStep(14);
  // Stiffness 1: the same push. Stiffness 0.5 (the torque limit half the maximum torque), three counts of error,
  // far below either limit: the plain board pushes as at stiffness 1, the scaled one half as hard.
  EXPECT_DOUBLE_EQ(boardTorque(b, 3, count, 0.0, 0.0, b.maxTorque),
                   boardTorque(a, 3, count, 0.0, 0.0, a.maxTorque));
  const double plainPush = boardTorque(a, 3, count, 0.0, 0.0, 0.5 * a.maxTorque);
  ASSERT_LT(plainPush, 0.5 * a.maxTorque);
  EXPECT_DOUBLE_EQ(plainPush, boardTorque(a, 3, count, 0.0, 0.0, a.maxTorque));
  EXPECT_NEAR(boardTorque(b, 3, count, 0.0, 0.0, 0.5 * b.maxTorque), 0.5 * plainPush, 1e-12);
  EXPECT_EQ(boardTorque(b, 3, count, 0.0, 0.0, 0.0), 0.0) << "stiffness 0: free";
}

TEST(PlantVariants, ALateCurrentReadingReadsWhatTheMotorDrewFramesAgo)
{
  SimConfig config = test::projectConfig();
  config.sensors.current.noise = 0;
  RobotVariation late = nominalRobot(3);
  late.currentDelayFrames = 3;
  SimulatedRobot now(config, nominalRobot(3)), later(config, late);
  for (SimulatedRobot* robot : {&now, &later})
    test::standStill(*robot, 0.5);
  // A step of the knee's request: the current jumps within a frame; the late reading follows 3 frames after.
  JointValues request = test::standPosture();
  request[index(Joint::LKneePitch)] += test::deg(0.5);
  std::vector<float> nowReadings, lateReadings;
  for (int frame = 0; frame < 8; ++frame)
  {
    for (SimulatedRobot* robot : {&now, &later})
    {
      robot->setCommand(request, test::uniform(1.f));
      robot->advance(robot->frameTime());
    }
    nowReadings.push_back(now.sensors().currents[index(Joint::LKneePitch)]);
    lateReadings.push_back(later.sensors().currents[index(Joint::LKneePitch)]);
  }
  ASSERT_GT(*std::max_element(nowReadings.begin(), nowReadings.end()), 0.2f)
      << "A: the step makes the knee draw";
  EXPECT_LT(lateReadings[2], 0.5f * *std::max_element(nowReadings.begin(), nowReadings.end()));
  for (int frame = 3; frame < 8; ++frame)
    EXPECT_NEAR(lateReadings[static_cast<std::size_t>(frame)],
                nowReadings[static_cast<std::size_t>(frame - 3)], 0.002)
        << "frame " << frame;
}

TEST(PlantVariants, AWrongCurrentSensorReadsAScaledAndShiftedCurrent)
{
  SimConfig config = test::projectConfig();
  config.sensors.current.noise = 0;
  RobotVariation wrong = nominalRobot(3);
  wrong.joints[index(Joint::LKneePitch)].currentGain = 1.1;
  wrong.joints[index(Joint::LKneePitch)].currentOffset = 0.03;
  SimulatedRobot robot(config, wrong);
  test::standStill(robot, 0.5);
  JointValues request = test::standPosture();
  request[index(Joint::LKneePitch)] += test::deg(0.3); // the motor pushes and draws
  robot.setCommand(request, test::uniform(1.f));
  robot.advance(0.3);
  const double truth = robot.groundTruth().currents[index(Joint::LKneePitch)];
  ASSERT_GT(truth, 0.2);
  EXPECT_NEAR(robot.sensors().currents[index(Joint::LKneePitch)], truth * 1.1 + 0.03, 0.002);
}

TEST(PlantVariants, AHeldTorsoStaysWhereItWasTakenAndCarriesTheBody)
{
  SimulatedRobot robot(test::projectConfig());
  test::standStill(robot, 1.0);
  const double height = robot.groundTruth().torsoHeight;
  robot.holdTorso(0.0);
  // Stiffness 0: without the hold the robot sags and falls (Standing tests); held, the torso stays put.
  robot.setCommand(test::standPosture(), test::uniform(0.f));
  robot.advance(3.0);
  EXPECT_NEAR(robot.groundTruth().torsoHeight, height, 0.002);
  robot.putDown(); // a hold for good is neither put down ...
  robot.pickUp();  // ... nor picked up
  robot.advance(1.0);
  EXPECT_TRUE(robot.isHeld());
  EXPECT_NEAR(robot.groundTruth().torsoHeight, height, 0.002);

  SimulatedRobot inAir(test::projectConfig());
  test::standStill(inAir, 1.0);
  inAir.holdTorso(0.02);
  inAir.advance(1.0);
  EXPECT_NEAR(inAir.groundTruth().torsoHeight, height + 0.02, 0.002);
  EXPECT_LT(inAir.groundTruth().fsrTotal, 0.05) << "kg: the feet are off the floor";
}

TEST(PlantVariants, ContradictionsInTheFileAreRefusedNamingTheVariant)
{
  PlantVariants variants = test::projectConfig().variants;
  variants.variants[0].changes.push_back({VariantQuantity::boardGain, 2.0, 1.0, {}});
  EXPECT_THROW(validate(variants), streams::ConfigError);
  variants = test::projectConfig().variants;
  variants.variants[0].changes.push_back({VariantQuantity::staticFriction, 0.1, 0.2, {"Kneepitch"}});
  EXPECT_THROW(validate(variants), streams::ConfigError);
  variants = test::projectConfig().variants;
  variants.variants.back().combine.push_back("nosuchvariant");
  EXPECT_THROW(validate(variants), streams::ConfigError);
  variants = test::projectConfig().variants;
  variants.variants.push_back(variants.variants.front());
  EXPECT_THROW(validate(variants), streams::ConfigError) << "two of one name";
}
} // namespace
} // namespace nao::sim
