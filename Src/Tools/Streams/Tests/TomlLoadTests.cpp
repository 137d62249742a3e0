#include <cmath>
#include <numbers>

#include <boost/serialization/array_wrapper.hpp>
#include <boost/serialization/base_object.hpp>
#include <boost/serialization/split_member.hpp>
#include <gtest/gtest.h>

#include "TestParameters.h"
#include "Tools/Streams/TomlFiles.h"

using namespace nao::streams;
using namespace streams_test;

namespace
{
constexpr double degree = std::numbers::pi / 180.0; // rad

TestParameters loadValid()
{
  TestParameters parameters;
  loadFromTable(parseToml(validToml, "virtual/path.toml"), parameters);
  return parameters;
}
} // namespace

TEST(TomlLoad, PlainValuesArriveUnchanged)
{
  const TestParameters parameters = loadValid();
  EXPECT_TRUE(parameters.enabled);
  EXPECT_EQ(parameters.cycles, 3);
  EXPECT_EQ(parameters.priority, 7);
  EXPECT_EQ(parameters.name, "standing");
  EXPECT_EQ(parameters.sensorIds, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(parameters.walk.maxSpeed, 0.25);
  EXPECT_EQ(parameters.poses.size(), 2u);
  EXPECT_EQ(parameters.poses[0].time, 0.5);
  EXPECT_EQ(parameters.poses[1].time, 1.5);
}

TEST(TomlLoad, EnumsAreReadByName)
{
  const TestParameters parameters = loadValid();
  EXPECT_EQ(parameters.mode, GaitMode::walk);
  EXPECT_EQ(parameters.sequence, (std::vector<GaitMode>{GaitMode::stand, GaitMode::walk, GaitMode::kick}));
}

TEST(TomlLoad, FileUnitsBecomeSiUnits)
{
  const TestParameters parameters = loadValid();
  EXPECT_DOUBLE_EQ(parameters.maxGearStep, 2.5 * degree);
  EXPECT_EQ(parameters.currentLimit, 0.25f);           // 250 mA
  EXPECT_EQ(parameters.holdTime, 0.0125);              // 12.5 ms
  EXPECT_EQ(parameters.dutyCycle, 0.4);                // 40 %
  EXPECT_FLOAT_EQ(parameters.walk.stepHeight, 0.015f); // 15 mm
  EXPECT_EQ(parameters.walk.stepDuration[0], 0.25);    // 250 ms
  EXPECT_EQ(parameters.walk.stepDuration[1], 0.3005);  // 300.5 ms
}

TEST(TomlLoad, NamedArrayIsReadByNamesWithUnitPerElement)
{
  const TestParameters parameters = loadValid();
  EXPECT_DOUBLE_EQ(parameters.thresholds[0], 1.0 * degree); // HeadYaw
  EXPECT_DOUBLE_EQ(parameters.thresholds[1], 2.0 * degree); // HeadPitch
  EXPECT_DOUBLE_EQ(parameters.thresholds[2], 0.5 * degree); // LShoulderRoll
  EXPECT_DOUBLE_EQ(parameters.thresholds[3], 4.0 * degree); // LKneePitch
}

TEST(TomlLoad, ArrayOfTablesWithUnitPerElement)
{
  const TestParameters parameters = loadValid();
  EXPECT_EQ(parameters.poses[0].angles[0], 0.0f);
  EXPECT_FLOAT_EQ(parameters.poses[0].angles[1], static_cast<float>(45.0 * degree));
  EXPECT_FLOAT_EQ(parameters.poses[0].angles[2], static_cast<float>(-90.0 * degree));
  EXPECT_FLOAT_EQ(parameters.poses[1].angles[2], static_cast<float>(30.0 * degree));
}

TEST(TomlLoad, VectorsTakeTheLengthOfTheFile)
{
  TestParameters parameters;
  parameters.sensorIds = {9, 9, 9, 9, 9};
  parameters.poses.resize(5);
  loadFromTable(parseToml(replaceLine(validToml, 10, "sensorIds = []"), "virtual/path.toml"), parameters);
  EXPECT_TRUE(parameters.sensorIds.empty());
  EXPECT_EQ(parameters.poses.size(), 2u);
}

TEST(TomlLoad, IntegersAreAcceptedForFloatingPointFields)
{
  TestParameters parameters;
  loadFromTable(parseToml(replaceLine(validToml, 14, "maxSpeed = 1"), "virtual/path.toml"), parameters);
  EXPECT_EQ(parameters.walk.maxSpeed, 1.0);
}

TEST(TomlLoad, ValuesAtTheRangeBoundsAreAccepted)
{
  TestParameters parameters;
  loadFromTable(parseToml(replaceLine(validToml, 6, "maxGearStep = 5"), "virtual/path.toml"), parameters);
  EXPECT_DOUBLE_EQ(parameters.maxGearStep, 5.0 * degree);
  loadFromTable(parseToml(replaceLine(validToml, 6, "maxGearStep = 0"), "virtual/path.toml"), parameters);
  EXPECT_EQ(parameters.maxGearStep, 0.0);
}

namespace
{
/// A named array with a size constant instead of a size() function, holding structs.
struct Gains
{
  double p = 0.0;
  double d = 0.0;
  bool operator==(const Gains&) const = default;
  template<class Archive>
  void serialize(Archive& archive, const unsigned /*version*/)
  {
    archive& BOOST_SERIALIZATION_NVP(p) & BOOST_SERIALIZATION_NVP(d);
  }
};

struct LegGains
{
  static constexpr std::size_t size = 2;
  static std::array<std::string_view, 2> names() { return {"hip", "knee"}; }
  Gains& operator[](std::size_t index) { return gains[index]; }
  const Gains& operator[](std::size_t index) const { return gains[index]; }
  std::array<Gains, 2> gains{};
};

struct Base
{
  int baseValue = 0;
  template<class Archive>
  void serialize(Archive& archive, const unsigned /*version*/)
  {
    archive& BOOST_SERIALIZATION_NVP(baseValue);
  }
};

struct Derived : Base
{
  LegGains legs;
  std::vector<std::vector<double>> matrix;
  std::vector<bool> flags;
  template<class Archive>
  void serialize(Archive& archive, const unsigned /*version*/)
  {
    archive& boost::serialization::base_object<Base>(*this);
    archive& BOOST_SERIALIZATION_NVP(legs) & BOOST_SERIALIZATION_NVP(matrix) & BOOST_SERIALIZATION_NVP(flags);
  }
};
} // namespace

TEST(TomlLoad, BaseObjectsNestedArraysBoolVectorsAndNamedArraysOfTables)
{
  const toml::table table = parseToml("baseValue = 4\n"
                                      "matrix = [[1, 2], [3.5]]\n"
                                      "flags = [true, false, true]\n"
                                      "legs.hip = { p = 1.5, d = 0.1 }\n"
                                      "legs.knee = { p = 2.5, d = 0.2 }\n",
                                      "virtual/derived.toml");
  Derived derived;
  loadFromTable(table, derived);
  EXPECT_EQ(derived.baseValue, 4);
  EXPECT_EQ(derived.matrix, (std::vector<std::vector<double>>{{1.0, 2.0}, {3.5}}));
  EXPECT_EQ(derived.flags, (std::vector<bool>{true, false, true}));
  EXPECT_EQ(derived.legs[0], (Gains{1.5, 0.1}));
  EXPECT_EQ(derived.legs[1], (Gains{2.5, 0.2}));
}

TEST(TomlLoad, FieldRejectsUnitsOnIntegersAndRangesOnStrings)
{
  int count = 0;
  std::string text;
  EXPECT_THROW(field("count", count).unit(Unit::degrees), std::logic_error);
  EXPECT_THROW(field("text", text).range(0.0, 1.0), std::logic_error);
  EXPECT_THROW(field("count", count).range(2.0, 1.0), std::logic_error);
  EXPECT_NO_THROW(field("count", count).range(1.0, 2.0));
  // Units apply to the elements of (const) containers, as in a split save().
  const std::array<std::vector<float>, 2> constAngles{};
  EXPECT_NO_THROW(field("angles", constAngles).unit(Unit::degrees).range(-90.0, 90.0));
  double raw[2] = {0.0, 0.0};
  EXPECT_NO_THROW(field("raw", boost::serialization::make_array(raw, 2)).unit(Unit::millimeters));
  const std::vector<bool> flags;
  EXPECT_THROW(field("flags", flags).range(0.0, 1.0), std::logic_error);
}

namespace
{
/// Serialized the way Eigen types usually are: a raw array through make_array.
struct Vector3
{
  double data[3] = {0.0, 0.0, 0.0};
  template<class Archive>
  void serialize(Archive& archive, const unsigned /*version*/)
  {
    archive& boost::serialization::make_nvp("xyz", boost::serialization::make_array(data, 3));
  }
};

/// Saves and loads differently, through Boost's split-member machinery (needs is_saving/is_loading).
struct SplitCounter
{
  int count = 0;
  template<class Archive>
  void save(Archive& archive, const unsigned /*version*/) const
  {
    const int doubled = count * 2;
    archive& boost::serialization::make_nvp("doubled", doubled);
  }
  template<class Archive>
  void load(Archive& archive, const unsigned /*version*/)
  {
    int doubled = 0;
    archive& boost::serialization::make_nvp("doubled", doubled);
    count = doubled / 2;
  }
  BOOST_SERIALIZATION_SPLIT_MEMBER()
};
} // namespace

TEST(TomlLoad, MakeArrayIsAFixedLengthArray)
{
  Vector3 vector;
  loadFromTable(parseToml("xyz = [1.5, -2, 3.25]\n", "virtual/vector.toml"), vector);
  EXPECT_EQ(vector.data[0], 1.5);
  EXPECT_EQ(vector.data[1], -2.0);
  EXPECT_EQ(vector.data[2], 3.25);
  EXPECT_EQ(toTomlString(saveToTable(vector)), "xyz = [1.5, -2.0, 3.25]\n");
  try
  {
    loadFromTable(parseToml("xyz = [1.5, -2]\n", "virtual/vector.toml"), vector);
    FAIL() << "loading did not fail";
  }
  catch (const ConfigError& error)
  {
    EXPECT_EQ(error.message, "expected array of 3 elements, got 2");
    EXPECT_EQ(error.column, 7);
  }
}

TEST(TomlLoad, SplitMemberSerializationSavesAndLoadsDifferently)
{
  SplitCounter counter;
  loadFromTable(parseToml("doubled = 8\n", "virtual/split.toml"), counter);
  EXPECT_EQ(counter.count, 4);
  counter.count = 5;
  EXPECT_EQ(saveToTable(counter)["doubled"].value<int>(), 10);
}
