#include <cmath>
#include <numbers>
#include <random>

#include <gtest/gtest.h>

#include "TestParameters.h"
#include "Tools/Streams/TomlFiles.h"

using namespace nao::streams;
using namespace streams_test;

namespace
{
constexpr double degree = std::numbers::pi / 180.0; // rad

TestParameters exampleParameters()
{
  TestParameters parameters;
  parameters.enabled = true;
  parameters.cycles = -12;
  parameters.priority = 200;
  parameters.name = "line\nwith \"quotes\" and \\ backslash";
  parameters.mode = GaitMode::kick;
  parameters.maxGearStep = 0.0123456789012345;
  parameters.currentLimit = 0.3f;
  parameters.holdTime = 0.1;
  parameters.dutyCycle = 1.0 / 3.0;
  parameters.sensorIds = {-5, 0, 2147483647};
  parameters.sequence = {GaitMode::walk, GaitMode::stand};
  parameters.walk = WalkParameters{0.1 + 0.2, 0.0123f, {0.123456789, 0.7}};
  parameters.thresholds.values = {0.1, -0.2, 1.0 / 7.0, 0.5};
  parameters.poses = {Keyframe{0.25, {0.1f, -1.2f, 2.0f}}, Keyframe{1e-3, {0.0f, 1.0f / 3.0f, -0.7f}}};
  return parameters;
}

TestParameters reloaded(const TestParameters& parameters)
{
  const std::string text = toTomlString(saveToTable(parameters));
  TestParameters loaded;
  loadFromTable(parseToml(text, "virtual/saved.toml"), loaded);
  return loaded;
}

void expectRelativelyEqual(double expected, double actual, double relativeTolerance)
{
  EXPECT_LE(std::abs(expected - actual), relativeTolerance * std::abs(expected))
      << expected << " vs " << actual;
}

struct DegreeValues
{
  std::vector<double> radians;     ///< rad (degrees in files)
  std::vector<float> radiansFloat; ///< rad (degrees in files)
  std::vector<double> plain;
  std::vector<float> plainFloat;
  template<class Archive>
  void serialize(Archive& archive, const unsigned /*version*/)
  {
    archive& field("radians", radians).unit(Unit::degrees);
    archive& field("radiansFloat", radiansFloat).unit(Unit::degrees);
    archive& BOOST_SERIALIZATION_NVP(plain) & BOOST_SERIALIZATION_NVP(plainFloat);
  }
};
} // namespace

TEST(TomlSave, RoundTripThroughTextIsEqual)
{
  const TestParameters parameters = exampleParameters();
  TestParameters loaded = reloaded(parameters);
  // Double fields with a unit go through a multiplication each way; not every double is reachable from a
  // double in the file, so those are equal to 1e-15 relative. Float fields and plain doubles are exact.
  expectRelativelyEqual(parameters.maxGearStep, loaded.maxGearStep, 1e-15);
  expectRelativelyEqual(parameters.holdTime, loaded.holdTime, 1e-15);
  expectRelativelyEqual(parameters.dutyCycle, loaded.dutyCycle, 1e-15);
  for (std::size_t i = 0; i < 2; ++i)
    expectRelativelyEqual(parameters.walk.stepDuration[i], loaded.walk.stepDuration[i], 1e-15);
  for (std::size_t i = 0; i < 4; ++i)
    expectRelativelyEqual(parameters.thresholds[i], loaded.thresholds[i], 1e-15);
  loaded.maxGearStep = parameters.maxGearStep;
  loaded.holdTime = parameters.holdTime;
  loaded.dutyCycle = parameters.dutyCycle;
  loaded.walk.stepDuration = parameters.walk.stepDuration;
  loaded.thresholds = parameters.thresholds;
  EXPECT_EQ(loaded, parameters);
}

TEST(TomlSave, RoundTripOfTheValidFileIsEqual)
{
  TestParameters parameters;
  loadFromTable(parseToml(validToml, "virtual/path.toml"), parameters);
  EXPECT_EQ(reloaded(parameters), parameters);
}

TEST(TomlSave, ManyRandomValuesRoundTripWithAndWithoutUnits)
{
  std::mt19937_64 generator(20240611);
  std::uniform_real_distribution<double> angle(-4.0, 4.0); // rad
  std::uniform_real_distribution<double> exponent(-12.0, 12.0);
  DegreeValues values;
  for (int i = 0; i < 2000; ++i)
  {
    values.radians.push_back(angle(generator));
    values.radiansFloat.push_back(static_cast<float>(angle(generator)));
    values.plain.push_back(angle(generator) * std::pow(10.0, exponent(generator)));
    values.plainFloat.push_back(static_cast<float>(angle(generator) * std::pow(10.0, exponent(generator))));
  }
  const std::string text = toTomlString(saveToTable(values));
  DegreeValues loaded;
  loadFromTable(parseToml(text, "virtual/random.toml"), loaded);
  ASSERT_EQ(loaded.radians.size(), values.radians.size());
  for (std::size_t i = 0; i < values.radians.size(); ++i)
  {
    expectRelativelyEqual(values.radians[i], loaded.radians[i], 1e-15); // rad -> deg -> rad
    EXPECT_EQ(values.radiansFloat[i], loaded.radiansFloat[i]);
    EXPECT_EQ(values.plain[i], loaded.plain[i]);
    EXPECT_EQ(values.plainFloat[i], loaded.plainFloat[i]);
  }
}

TEST(TomlSave, TextIsShortReadableAndInSerializeOrder)
{
  TestParameters parameters;
  loadFromTable(parseToml(validToml, "virtual/path.toml"), parameters);
  parameters.walk.maxSpeed = 0.1 + 0.2; // not 0.3: needs 17 digits
  parameters.poses.pop_back();
  const std::string expected = "enabled = true\n"
                               "cycles = 3\n"
                               "priority = 7\n"
                               "name = \"standing\"\n"
                               "mode = \"walk\"\n"
                               "maxGearStep = 2.5\n"
                               "currentLimit = 250.0\n"
                               "holdTime = 12.5\n"
                               "dutyCycle = 40.0\n"
                               "sensorIds = [1, 2, 3]\n"
                               "sequence = [\"stand\", \"walk\", \"kick\"]\n"
                               "\n"
                               "[walk]\n"
                               "maxSpeed = 0.30000000000000004\n"
                               "stepHeight = 15.0\n"
                               "stepDuration = [250.0, 300.5]\n"
                               "\n"
                               "[thresholds]\n"
                               "HeadYaw = 1.0\n"
                               "HeadPitch = 2.0\n"
                               "LShoulderRoll = 0.5\n"
                               "LKneePitch = 4.0\n"
                               "\n"
                               "[[poses]]\n"
                               "time = 0.5\n"
                               "angles = [0.0, 45.0, -90.0]\n";
  EXPECT_EQ(toTomlString(saveToTable(parameters)), expected);
}

TEST(TomlSave, ParsedTablesAreWrittenInFileOrder)
{
  const std::string text = "zeta = 1\n"
                           "alpha = \"a b\"\n"
                           "inline = { y = 2, x = 1.5 }\n"
                           "\n"
                           "[section]\n"
                           "b = [1, 2]\n"
                           "a = 1979-05-27\n"
                           "\n"
                           "[section.sub]\n"
                           "\"quoted key\" = true\n";
  EXPECT_EQ(toTomlString(parseToml(text, "virtual/order.toml")), text);
}

TEST(TomlSave, SavedTableHoldsFileUnits)
{
  TestParameters parameters;
  parameters.maxGearStep = 3.0 * degree;
  parameters.currentLimit = 1.25f;
  parameters.dutyCycle = 0.75;
  const toml::table table = saveToTable(parameters);
  EXPECT_EQ(table["maxGearStep"].value<double>(), 3.0);
  EXPECT_EQ(table["currentLimit"].value<double>(), 1250.0);
  EXPECT_EQ(table["dutyCycle"].value<double>(), 75.0);
  EXPECT_EQ(table["mode"].value<std::string>(), "stand");
}

namespace
{
struct Huge
{
  std::uint64_t count = std::numeric_limits<std::uint64_t>::max();
  template<class Archive>
  void serialize(Archive& archive, const unsigned /*version*/)
  {
    archive& BOOST_SERIALIZATION_NVP(count);
  }
};
} // namespace

TEST(TomlSave, ValuesTomlCannotHoldAreErrors)
{
  EXPECT_THROW((void)saveToTable(Huge{}), ConfigError);

  TestParameters parameters;
  parameters.mode = static_cast<GaitMode>(7);
  try
  {
    (void)saveToTable(parameters);
    FAIL() << "saving did not fail";
  }
  catch (const ConfigError& error)
  {
    EXPECT_EQ(error.keyPath, "mode");
  }
}
