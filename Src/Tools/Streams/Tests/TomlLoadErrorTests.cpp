// Every kind of load error, with the position a person would point at in validToml (see TestParameters.h
// for its line numbers; columns are counted by hand from the replaced line).

#include <gtest/gtest.h>

#include "LoadError.h"
#include "TestParameters.h"
#include "Tools/Streams/TomlFiles.h"

using namespace nao::streams;
using namespace streams_test;

namespace
{
const std::string filePath = "virtual/path.toml";

ConfigError loadError(const std::string& text)
{
  return loadErrorOf(parseToml(text, filePath));
}

void expectIssue(const ConfigIssue& issue, int line, int column, const std::string& keyPath,
                 const std::string& message)
{
  EXPECT_EQ(issue.file, filePath);
  EXPECT_EQ(issue.line, line);
  EXPECT_EQ(issue.column, column);
  EXPECT_EQ(issue.keyPath, keyPath);
  EXPECT_EQ(issue.message, message);
}
} // namespace

TEST(TomlLoadError, MissingKeyPointsAtTheEnclosingTable)
{
  const ConfigError rootError = loadError(replaceLine(validToml, 2, ""));
  ASSERT_EQ(rootError.issues().size(), 1u);
  expectIssue(rootError.issues()[0], 1, 1, "cycles", "missing; expected integer");

  const ConfigError walkError = loadError(replaceLine(validToml, 14, ""));
  ASSERT_EQ(walkError.issues().size(), 1u);
  expectIssue(walkError.issues()[0], 13, 1, "walk.maxSpeed", "missing; expected number");
}

TEST(TomlLoadError, UnknownKeyPointsAtTheKey)
{
  const ConfigError rootError = loadError(replaceLine(validToml, 12, "extra = 1"));
  ASSERT_EQ(rootError.issues().size(), 1u);
  EXPECT_EQ(rootError.line, 12);
  EXPECT_EQ(rootError.column, 1);
  EXPECT_EQ(rootError.keyPath, "extra");
  EXPECT_NE(rootError.message.find("unknown key"), std::string::npos);

  const ConfigError misspelled = loadError(replaceLine(validToml, 14, "maxSped = 0.25"));
  ASSERT_EQ(misspelled.issues().size(), 2u);
  expectIssue(misspelled.issues()[0], 13, 1, "walk.maxSpeed", "missing; expected number");
  expectIssue(misspelled.issues()[1], 14, 1, "walk.maxSped",
              "unknown key; did you mean 'maxSpeed'? expected one of maxSpeed, stepHeight, stepDuration");
}

TEST(TomlLoadError, WrongTypePointsAtTheValue)
{
  const ConfigError error = loadError(replaceLine(validToml, 2, "cycles = \"three\""));
  ASSERT_EQ(error.issues().size(), 1u);
  expectIssue(error.issues()[0], 2, 10, "cycles", "expected integer, got string");

  const ConfigError tableError = loadError(replaceLine(validToml, 25, "time = { seconds = 1 }"));
  ASSERT_EQ(tableError.issues().size(), 1u);
  expectIssue(tableError.issues()[0], 25, 8, "poses[0].time", "expected number, got table");

  const ConfigError elementError = loadError(replaceLine(validToml, 10, "sensorIds = [1, \"x\", 3]"));
  ASSERT_EQ(elementError.issues().size(), 1u);
  expectIssue(elementError.issues()[0], 10, 17, "sensorIds[1]", "expected integer, got string");
}

TEST(TomlLoadError, OutOfRangeNamesTheRangeInFileUnits)
{
  const ConfigError error = loadError(replaceLine(validToml, 6, "maxGearStep = 7.5"));
  ASSERT_EQ(error.issues().size(), 1u);
  expectIssue(error.issues()[0], 6, 15, "maxGearStep", "expected value in [0, 5] deg, got 7.5 deg");
  EXPECT_STREQ(error.what(),
               "virtual/path.toml:6:15: key 'maxGearStep': expected value in [0, 5] deg, got 7.5 deg");

  const ConfigError elementError = loadError(replaceLine(validToml, 26, "angles = [0, 145, -90]"));
  ASSERT_EQ(elementError.issues().size(), 1u);
  expectIssue(elementError.issues()[0], 26, 14, "poses[0].angles[1]",
              "expected value in [-120, 120] deg, got 145 deg");
}

TEST(TomlLoadError, IntegerOutsideTheCppTypeIsOutOfRange)
{
  const ConfigError error = loadError(replaceLine(validToml, 3, "priority = 300"));
  ASSERT_EQ(error.issues().size(), 1u);
  expectIssue(error.issues()[0], 3, 12, "priority", "expected integer in [0, 255] (uint8), got 300");

  const ConfigError negative = loadError(replaceLine(validToml, 3, "priority = -1"));
  ASSERT_EQ(negative.issues().size(), 1u);
  EXPECT_EQ(negative.message, "expected integer in [0, 255] (uint8), got -1");
}

TEST(TomlLoadError, WrongArrayLength)
{
  const ConfigError error = loadError(replaceLine(validToml, 26, "angles = [0, 45]"));
  ASSERT_EQ(error.issues().size(), 1u);
  expectIssue(error.issues()[0], 26, 10, "poses[0].angles", "expected array of 3 elements, got 2");
}

TEST(TomlLoadError, UnknownEnumNameListsTheValidNames)
{
  const ConfigError error = loadError(replaceLine(validToml, 5, "mode = \"run\""));
  ASSERT_EQ(error.issues().size(), 1u);
  expectIssue(error.issues()[0], 5, 8, "mode", "expected one of 'stand', 'walk', 'kick', got 'run'");
}

TEST(TomlLoadError, NamedArrayNeedsEveryNameAndNoOther)
{
  const ConfigError error = loadError(replaceLine(validToml, 22, "RKneePitch = 4"));
  ASSERT_EQ(error.issues().size(), 2u);
  expectIssue(error.issues()[0], 18, 1, "thresholds.LKneePitch", "missing; expected number");
  expectIssue(error.issues()[1], 22, 1, "thresholds.RKneePitch",
              "unknown key; did you mean 'LKneePitch'? expected one of HeadYaw, HeadPitch, LShoulderRoll, "
              "LKneePitch");
}

TEST(TomlLoadError, AllProblemsOfOneLoadAreReported)
{
  const ConfigError error =
      loadError(replaceLine(replaceLine(validToml, 3, "priority = 300"), 6, "maxGearStep = 9"));
  ASSERT_EQ(error.issues().size(), 2u);
  EXPECT_EQ(error.line, 3); // the fields describe the first problem
  EXPECT_EQ(error.keyPath, "priority");
  const std::string what = error.what();
  EXPECT_NE(what.find("virtual/path.toml:3:12: key 'priority'"), std::string::npos) << what;
  EXPECT_NE(what.find("virtual/path.toml:6:15: key 'maxGearStep'"), std::string::npos) << what;
}

TEST(TomlLoadError, TargetKeepsItsValueOnError)
{
  TestParameters parameters;
  parameters.cycles = 42;
  parameters.walk.maxSpeed = 0.125;
  EXPECT_THROW(loadFromTable(parseToml(replaceLine(validToml, 6, "maxGearStep = 9"), filePath), parameters),
               ConfigError);
  EXPECT_EQ(parameters.cycles, 42);
  EXPECT_EQ(parameters.walk.maxSpeed, 0.125);
  EXPECT_EQ(parameters,
            []
            {
              TestParameters fresh;
              fresh.cycles = 42;
              fresh.walk.maxSpeed = 0.125;
              return fresh;
            }());
}

TEST(TomlLoadError, ParseErrorUsesTheParsersPosition)
{
  try
  {
    (void)parseToml("a = 1\nb = @\n", "virtual/broken.toml");
    FAIL() << "parsing did not fail";
  }
  catch (const ConfigError& error)
  {
    EXPECT_EQ(error.file, "virtual/broken.toml");
    EXPECT_EQ(error.line, 2);
    EXPECT_EQ(error.column, 5);
    EXPECT_NE(error.message.find("parse error"), std::string::npos);
  }
}

TEST(TomlLoadError, MissingFileNamesThePath)
{
  try
  {
    (void)loadTomlFile("/nonexistent/Config/Modules/Missing.toml");
    FAIL() << "loading did not fail";
  }
  catch (const ConfigError& error)
  {
    EXPECT_EQ(error.file, "/nonexistent/Config/Modules/Missing.toml");
    EXPECT_NE(error.message.find("no such file"), std::string::npos);
  }
}

// Found by the fuzzers once toml++ was compiled here (NaoToml): toml++ 3.3 reaches __builtin_unreachable() when it
// asks whether some non-ASCII characters (U+00A1..U+0499, U+2D5E..U+3157) are whitespace. The code the compilers
// make of it gives a clean parse error there; this keeps it so (NaoToml is compiled without sanitizers).
TEST(TomlLoadError, NonAsciiTextWhereWhitespaceMayStandIsAParseError)
{
  for (const std::string text : {"a = 1\xc3\xa9\n", "a\xc3\xa9 = 1\n", "a = \xc3\xa9 1\n", "[t\xc3\xa9]\n",
                                 "a = [1,\xc3\xa9 2]\n", "a =\xe2\xb5\xa0 1\n"})
  {
    try
    {
      parseToml(text, "hostile.toml");
      ADD_FAILURE() << "parsed: " << text;
    }
    catch (const ConfigError& error)
    {
      EXPECT_NE(std::string(error.what()).find("hostile.toml:1:"), std::string::npos) << error.what();
    }
  }
}
