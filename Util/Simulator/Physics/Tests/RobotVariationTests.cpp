// Robots drawn from Config/Sim/robots.toml: reproducible per seed, distributed as documented (also each robot's room
// and start temperature), presets change only what they name.
#include "TestRobot.h"
#include "Util/Simulator/Physics/Random.h"
#include "Util/Simulator/Physics/RobotVariation.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <stdexcept>
#include <vector>

namespace nao::sim
{
namespace
{
struct Moments
{
  double mean = 0.0, deviation = 0.0, minimum = 1e300, maximum = -1e300;
};

Moments momentsOf(const std::vector<double>& values)
{
  Moments m;
  for (const double v : values)
  {
    m.mean += v / static_cast<double>(values.size());
    m.minimum = std::min(m.minimum, v);
    m.maximum = std::max(m.maximum, v);
  }
  for (const double v : values)
    m.deviation += (v - m.mean) * (v - m.mean) / static_cast<double>(values.size() - 1);
  m.deviation = std::sqrt(m.deviation);
  return m;
}

TEST(Random, NormalAndUniformHaveTheirMoments)
{
  Random random(42);
  std::vector<double> normal, uniform;
  for (int i = 0; i < 200000; ++i)
  {
    normal.push_back(random.normal(3.0, 2.0));
    uniform.push_back(random.uniform(-1.0, 1.0));
  }
  const Moments n = momentsOf(normal), u = momentsOf(uniform);
  EXPECT_NEAR(n.mean, 3.0, 0.02); // 5 standard errors: 2 / sqrt(200000) = 0.0045
  EXPECT_NEAR(n.deviation, 2.0, 0.02);
  EXPECT_NEAR(u.mean, 0.0, 0.01);
  EXPECT_NEAR(u.deviation, 2.0 / std::sqrt(12.0), 0.005);
  EXPECT_GE(u.minimum, -1.0);
  EXPECT_LT(u.maximum, 1.0);
}

TEST(Random, StreamsOfOneSeedAreIndependentAndReproducible)
{
  Random a = Random::stream(5, 1), b = Random::stream(5, 1), c = Random::stream(5, 2),
         d = Random::stream(6, 1);
  const std::uint64_t first = a.next();
  EXPECT_EQ(first, b.next());
  EXPECT_NE(first, c.next());
  EXPECT_NE(first, d.next());
}

TEST(RobotVariation, DrawsFollowTheDocumentedDistributions)
{
  const SimConfig config = test::projectConfig();
  std::vector<double> offsets, staticFriction, torqueConstant;
  for (std::uint64_t seed = 1; seed <= 400; ++seed)
  {
    const RobotVariation robot = drawRobot(config.robots, test::oneCount, seed);
    for (const JointVariation& joint : robot.joints)
    {
      offsets.push_back(joint.positionOffset / test::oneCount);
      staticFriction.push_back(std::log(joint.staticFriction));
      torqueConstant.push_back(joint.torqueConstant);
    }
  }
  // robots.toml: offsets uniform within ±0.5 counts; static friction lognormal (median 1, 0.15); Kt normal
  // (1, 0.05).
  const Moments o = momentsOf(offsets), f = momentsOf(staticFriction), k = momentsOf(torqueConstant);
  EXPECT_GE(o.minimum, -0.5);
  EXPECT_LE(o.maximum, 0.5);
  EXPECT_NEAR(o.deviation, 1.0 / std::sqrt(12.0), 0.01);
  EXPECT_NEAR(o.mean, 0.0, 0.01);
  EXPECT_NEAR(f.mean, 0.0, 0.01); // log of the median
  EXPECT_NEAR(f.deviation, 0.15, 0.01);
  EXPECT_NEAR(k.mean, 1.0, 0.005);
  EXPECT_NEAR(k.deviation, 0.05, 0.005);
}

TEST(RobotVariation, EachRobotHasItsRoomAndStartTemperatureAndTheRestIsUnchanged)
{
  SimConfig config = test::projectConfig();
  std::vector<double> rooms;
  int warm = 0;
  for (std::uint64_t seed = 1; seed <= 400; ++seed)
  {
    const RobotVariation robot = drawRobot(config.robots, test::oneCount, seed);
    rooms.push_back(robot.roomTemperature);
    EXPECT_GE(robot.startRise, 0.0);
    EXPECT_LE(robot.startRise, 15.0);
    warm += robot.startRise > 0;
  }
  // robots.toml: the room uniform within 18..30 °C; the start rise uniform within -45..15 K, below 0 a cold start:
  // one robot in four starts warm, by up to 15 K.
  const Moments r = momentsOf(rooms);
  EXPECT_GE(r.minimum, 18.0);
  EXPECT_LE(r.maximum, 30.0);
  EXPECT_NEAR(r.mean, 24.0, 0.5);
  EXPECT_NEAR(r.deviation, 12.0 / std::sqrt(12.0), 0.3);
  EXPECT_NEAR(warm / 400.0, 0.25, 0.06);
  // Drawn after every joint's values: without them (the nominal room, no warm start) a robot is the same.
  const RobotVariation drawn = drawRobot(config.robots, test::oneCount, 5);
  config.robots.roomTemperature = {Law::fixed, 25.0, 0.0};
  config.robots.startRise = {Law::fixed, 0.0, 0.0};
  const RobotVariation plain = drawRobot(config.robots, test::oneCount, 5);
  EXPECT_EQ(plain.roomTemperature, 25.0);
  EXPECT_EQ(plain.startRise, 0.0);
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    EXPECT_EQ(plain.joints[j].positionOffset, drawn.joints[j].positionOffset);
    EXPECT_EQ(plain.joints[j].thermalResistance, drawn.joints[j].thermalResistance);
    EXPECT_EQ(plain.joints[j].heatCapacity, drawn.joints[j].heatCapacity);
  }
  // The nominal robot keeps motors.toml's room (NaN: not its own) and starts cold.
  EXPECT_TRUE(std::isnan(nominalRobot(5).roomTemperature));
  EXPECT_EQ(nominalRobot(5).startRise, 0.0);
}

TEST(RobotVariation, TheSameSeedIsTheSameRobot)
{
  const SimConfig config = test::projectConfig();
  const RobotVariation a = drawRobot(config.robots, test::oneCount, 9),
                       b = drawRobot(config.robots, test::oneCount, 9);
  const RobotVariation c = drawRobot(config.robots, test::oneCount, 10);
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    EXPECT_EQ(a.joints[j].positionOffset, b.joints[j].positionOffset);
    EXPECT_EQ(a.joints[j].backlash, b.joints[j].backlash);
    EXPECT_NE(a.joints[j].positionOffset, c.joints[j].positionOffset);
  }
}

TEST(RobotVariation, TheWornPresetChangesKneesAndAnklesOnly)
{
  const SimConfig config = test::projectConfig();
  const RobotVariation fresh = drawRobot(config.robots, test::oneCount, 3);
  const RobotVariation worn = drawRobot(config.robots, test::oneCount, 3, "worn");
  EXPECT_EQ(worn.preset, "worn");
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const DriveKind kind = driveKindOf(jointAt(j));
    const bool changed = kind == DriveKind::KneePitch || kind == DriveKind::AnklePitch;
    // robots.toml [[presets]] worn: static friction × 0.7, sliding × 0.9, backlash × 4.
    EXPECT_DOUBLE_EQ(worn.joints[j].staticFriction, fresh.joints[j].staticFriction * (changed ? 0.7 : 1.0));
    EXPECT_DOUBLE_EQ(worn.joints[j].slidingFriction, fresh.joints[j].slidingFriction * (changed ? 0.9 : 1.0));
    EXPECT_DOUBLE_EQ(worn.joints[j].backlash, fresh.joints[j].backlash * (changed ? 4.0 : 1.0));
    EXPECT_EQ(worn.joints[j].positionOffset, fresh.joints[j].positionOffset);
  }
}

TEST(RobotVariation, AnUnknownPresetNamesTheKnownOnes)
{
  const SimConfig config = test::projectConfig();
  try
  {
    drawRobot(config.robots, test::oneCount, 1, "tired");
    FAIL() << "no error";
  }
  catch (const std::runtime_error& error)
  {
    EXPECT_NE(std::string(error.what()).find("'tired'"), std::string::npos);
    EXPECT_NE(std::string(error.what()).find("worn"), std::string::npos);
  }
}
} // namespace
} // namespace nao::sim
