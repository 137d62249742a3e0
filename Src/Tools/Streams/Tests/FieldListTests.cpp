#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "TestParameters.h"
#include "Tools/Streams/FieldListArchive.h"
#include "Tools/Streams/FlatValuesArchive.h"
#include "Tools/Streams/TomlFiles.h"

using namespace nao::streams;
using namespace streams_test;

namespace
{
TestParameters loadValid()
{
  TestParameters parameters;
  loadFromTable(parseToml(validToml, "virtual/path.toml"), parameters);
  return parameters;
}

const FieldInfo& findField(const std::vector<FieldInfo>& fields, const std::string& path)
{
  const auto found =
      std::find_if(fields.begin(), fields.end(), [&](const FieldInfo& f) { return f.path == path; });
  if (found == fields.end()) throw std::runtime_error("no field " + path);
  return *found;
}

template<class Value>
Value findValue(const std::vector<std::pair<std::string, Value>>& values, const std::string& path)
{
  const auto found =
      std::find_if(values.begin(), values.end(), [&](const auto& entry) { return entry.first == path; });
  if (found == values.end()) throw std::runtime_error("no value " + path);
  return found->second;
}
} // namespace

TEST(FieldList, ListsEveryLeafInSerializeOrder)
{
  const std::vector<FieldInfo> fields = describeFields(loadValid());
  // 9 scalars, 3 sensor ids, 3 sequence entries, 4 walk leaves, 4 joints, 2 poses x (time + 3 angles).
  ASSERT_EQ(fields.size(), 9u + 3u + 3u + 4u + 4u + 8u);
  const std::vector<std::string> firstPaths{"enabled", "cycles", "priority", "name", "mode", "maxGearStep"};
  for (std::size_t i = 0; i < firstPaths.size(); ++i)
    EXPECT_EQ(fields[i].path, firstPaths[i]);
  EXPECT_EQ(fields.back().path, "poses[1].angles[2]");
}

TEST(FieldList, TypesUnitsAndRanges)
{
  const std::vector<FieldInfo> fields = describeFields(loadValid());
  EXPECT_EQ(findField(fields, "enabled").type, "bool");
  EXPECT_EQ(findField(fields, "cycles").type, "int32");
  EXPECT_EQ(findField(fields, "priority").type, "uint8");
  EXPECT_EQ(findField(fields, "name").type, "string");
  EXPECT_EQ(findField(fields, "mode").type, "enum:stand|walk|kick");
  EXPECT_EQ(findField(fields, "sequence[2]").type, "enum:stand|walk|kick");
  EXPECT_EQ(findField(fields, "sensorIds[1]").type, "int32");

  const FieldInfo& gearStep = findField(fields, "maxGearStep");
  EXPECT_EQ(gearStep.type, "double");
  EXPECT_EQ(gearStep.unit, Unit::degrees);
  EXPECT_EQ(gearStep.min, 0.0);
  EXPECT_EQ(gearStep.max, 5.0);

  const FieldInfo& current = findField(fields, "currentLimit");
  EXPECT_EQ(current.type, "float");
  EXPECT_EQ(current.unit, Unit::milliamperes);
  EXPECT_EQ(current.max, 1500.0);

  const FieldInfo& holdTime = findField(fields, "holdTime");
  EXPECT_EQ(holdTime.unit, Unit::milliseconds);
  EXPECT_TRUE(std::isnan(holdTime.min));
  EXPECT_TRUE(std::isnan(holdTime.max));

  const FieldInfo& joint = findField(fields, "thresholds.LShoulderRoll");
  EXPECT_EQ(joint.type, "double");
  EXPECT_EQ(joint.unit, Unit::degrees);

  const FieldInfo& angle = findField(fields, "poses[1].angles[2]");
  EXPECT_EQ(angle.type, "float");
  EXPECT_EQ(angle.unit, Unit::degrees);
  EXPECT_EQ(angle.min, -120.0);
  EXPECT_EQ(angle.max, 120.0);

  EXPECT_EQ(findField(fields, "walk.stepDuration[1]").unit, Unit::milliseconds);
  EXPECT_TRUE(std::isnan(findField(fields, "priority").min));
}

TEST(FieldList, UnitSymbols)
{
  EXPECT_EQ(unitSymbol(Unit::degrees), "deg");
  EXPECT_EQ(unitSymbol(Unit::milliamperes), "mA");
  EXPECT_EQ(unitSymbol(Unit::milliseconds), "ms");
  EXPECT_EQ(unitSymbol(Unit::millimeters), "mm");
  EXPECT_EQ(unitSymbol(Unit::percent), "%");
  EXPECT_EQ(unitSymbol(Unit::none), "");
}

namespace
{
/// A representation-like struct: values shown as the code holds them, each with its unit.
struct HeldValues
{
  float current = 0.25f;      // A
  std::uint32_t frameNs = 80; // ns
  float stiffness = 0.5f;     // dimensionless

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& field("current", current).unit(Unit::amperes) & field("frameNs", frameNs).unit(Unit::nanoseconds) &
        field("stiffness", stiffness);
  }
};
} // namespace

TEST(FieldList, HeldUnitsAreNamedButNotConverted)
{
  EXPECT_FALSE(convertsValues(Unit::amperes));
  EXPECT_TRUE(convertsValues(Unit::milliamperes));
  EXPECT_EQ(fileToCode(0.25, Unit::amperes), 0.25);
  EXPECT_EQ(unitSymbol(Unit::degreesCelsius), "°C");
  EXPECT_EQ(unitSymbol(Unit::degreesPerSecond), "deg/s");
  const auto fields = describeFields(HeldValues{});
  ASSERT_EQ(fields.size(), 3u);
  EXPECT_EQ(fields[0].unit, Unit::amperes);
  EXPECT_EQ(fields[1].unit, Unit::nanoseconds) << "an integer may carry a unit it is held in";
  const auto values = flattenValues(HeldValues{});
  EXPECT_EQ(values[0].second, "0.25") << "shown as held, shortest text";
  EXPECT_EQ(values[1].second, "80");
  // The one label convention of every output.
  EXPECT_EQ(labelWithUnit("currents.LKneePitch", unitSymbol(Unit::amperes)), "currents.LKneePitch [A]");
  EXPECT_EQ(labelWithUnit("stiffness", unitSymbol(Unit::none)), "stiffness");
}

TEST(FlatValues, FileUnitsAsInTheFile)
{
  const auto values = flattenValues(loadValid());
  EXPECT_EQ(values.size(), describeFields(loadValid()).size());
  EXPECT_EQ(findValue(values, "enabled"), "true");
  EXPECT_EQ(findValue(values, "priority"), "7");
  EXPECT_EQ(findValue(values, "name"), "standing");
  EXPECT_EQ(findValue(values, "mode"), "walk");
  EXPECT_EQ(findValue(values, "maxGearStep"), "2.5");
  EXPECT_EQ(findValue(values, "currentLimit"), "250");
  EXPECT_EQ(findValue(values, "holdTime"), "12.5");
  EXPECT_EQ(findValue(values, "dutyCycle"), "40");
  EXPECT_EQ(findValue(values, "walk.stepDuration[1]"), "300.5");
  EXPECT_EQ(findValue(values, "thresholds.HeadPitch"), "2");
  EXPECT_EQ(findValue(values, "poses[0].angles[2]"), "-90");
}

TEST(FlatValues, CodeUnitsAndNumbers)
{
  FlatValuesArchive archive(ValueUnits::code);
  archive.flatten(loadValid());
  EXPECT_EQ(findValue(archive.values(), "holdTime"), "0.0125");
  EXPECT_EQ(findValue(archive.values(), "currentLimit"), "0.25");
  EXPECT_EQ(findValue(archive.values(), "walk.stepHeight"), "0.015");
  // Printed code values read back exactly.
  EXPECT_EQ(std::stod(findValue(archive.values(), "maxGearStep")), loadValid().maxGearStep);

  EXPECT_EQ(findValue(archive.numbers(), "enabled"), 1.0);
  EXPECT_EQ(findValue(archive.numbers(), "mode"), 1.0); // index of "walk"
  EXPECT_EQ(findValue(archive.numbers(), "holdTime"), 0.0125);
  EXPECT_THROW(findValue(archive.numbers(), "name"), std::runtime_error); // strings are not numbers
}

namespace
{
struct Documented
{
  float maxStep = 0.1f;
  std::array<int, 3> counts{1, 2, 3};
  bool flag = false;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& field("maxStep", maxStep).unit(Unit::degrees).range(0.0, 10.0).doc("how far a joint moves per frame");
    ar& field("counts", counts).range(0, 9).doc("rounds per leg");
    ar& field("flag", flag);
  }
};
} // namespace

TEST(FieldList, DocReachesEveryLeafOfItsField)
{
  const std::vector<FieldInfo> fields = describeFields(Documented{});
  ASSERT_EQ(fields.size(), 5u);
  EXPECT_EQ(findField(fields, "maxStep").doc, "how far a joint moves per frame");
  EXPECT_EQ(findField(fields, "maxStep").unit, Unit::degrees); // doc() keeps unit and range
  EXPECT_EQ(findField(fields, "maxStep").max, 10.0);
  for (const std::string path : {"counts[0]", "counts[1]", "counts[2]"})
    EXPECT_EQ(findField(fields, path).doc, "rounds per leg") << path;
  EXPECT_EQ(findField(fields, "flag").doc, "");
}

TEST(FieldList, DocIsNoPartOfTheFile)
{
  // The TOML archives write and read values only: the same file with or without docs.
  const std::string text = toTomlString(saveToTable(Documented{}));
  EXPECT_EQ(text.find("how far"), std::string::npos) << text;
  Documented loaded;
  loaded.maxStep = 0;
  loadFromTable(parseToml(text, "virtual/documented.toml"), loaded);
  EXPECT_FLOAT_EQ(loaded.maxStep, 0.1f);
}
