#include <filesystem>
#include <fstream>
#include <numbers>

#include <gtest/gtest.h>

#include "LoadError.h"
#include "TestParameters.h"
#include "Tools/Streams/TomlFiles.h"

using namespace nao::streams;
using namespace streams_test;

namespace
{
constexpr double degree = std::numbers::pi / 180.0; // rad
const std::string basePath = "Config/Modules/Test.toml";
const std::string overlayPath = "Config/Robots/nao1/Modules/Test.toml";

TestParameters loadValid()
{
  TestParameters parameters;
  loadFromTable(parseToml(validToml, basePath), parameters);
  return parameters;
}

ConfigError overlayError(std::string_view overlayText)
{
  toml::table base = parseToml(validToml, basePath);
  const std::string before = toTomlString(base);
  try
  {
    overlayPerKey(base, parseToml(overlayText, overlayPath));
  }
  catch (const ConfigError& error)
  {
    EXPECT_EQ(toTomlString(base), before) << "a failed overlay changed the base";
    return error;
  }
  ADD_FAILURE() << "overlay did not fail";
  return ConfigError(ConfigIssue{});
}

/// Applies an edit that must fail; checks that neither shadow nor parameters changed.
ConfigError editError(std::string_view keyPath, std::string_view value)
{
  toml::table shadow = parseToml(validToml, basePath);
  TestParameters parameters = loadValid();
  const TestParameters parametersBefore = parameters;
  const std::string shadowBefore = toTomlString(shadow);
  try
  {
    applyEdit(shadow, keyPath, value, parameters);
  }
  catch (const ConfigError& error)
  {
    EXPECT_EQ(parameters, parametersBefore);
    EXPECT_EQ(toTomlString(shadow), shadowBefore);
    TestParameters reloaded;
    loadFromTable(shadow, reloaded); // the shadow still loads: nothing of it was lost
    EXPECT_EQ(reloaded, parametersBefore);
    return error;
  }
  ADD_FAILURE() << "edit did not fail";
  return ConfigError(ConfigIssue{});
}
} // namespace

TEST(Overlay, OnlyTheOverriddenKeysChange)
{
  toml::table base = parseToml(validToml, basePath);
  overlayPerKey(base, parseToml("sensorIds = [7]\n"
                                "[walk]\n"
                                "maxSpeed = 0.4\n"
                                "[thresholds]\n"
                                "LKneePitch = 10\n",
                                overlayPath));
  TestParameters parameters;
  loadFromTable(base, parameters);
  TestParameters expected = loadValid();
  expected.sensorIds = {7}; // arrays are replaced whole
  expected.walk.maxSpeed = 0.4;
  expected.thresholds[3] = parameters.thresholds[3];
  EXPECT_DOUBLE_EQ(parameters.thresholds[3], 10.0 * degree);
  EXPECT_EQ(parameters, expected);
}

TEST(Overlay, UnknownKeyNamesTheOverlayFileAndTheBase)
{
  const ConfigError error = overlayError("[walk]\nmaxSped = 0.4\n");
  EXPECT_EQ(error.file, overlayPath);
  EXPECT_EQ(error.line, 2);
  EXPECT_EQ(error.column, 1);
  EXPECT_EQ(error.keyPath, "walk.maxSped");
  EXPECT_EQ(error.message, "unknown key; did you mean 'maxSpeed'? not in " + basePath);
}

TEST(Overlay, TableAgainstValueIsAnError)
{
  const ConfigError error = overlayError("walk = 3\n");
  EXPECT_EQ(error.file, overlayPath);
  EXPECT_EQ(error.line, 1);
  EXPECT_EQ(error.column, 8);
  EXPECT_EQ(error.keyPath, "walk");
  EXPECT_EQ(error.message, "expected table as in " + basePath + ", got integer");

  const ConfigError arrayError = overlayError("sensorIds = 3\n");
  EXPECT_EQ(arrayError.keyPath, "sensorIds");
  EXPECT_EQ(arrayError.message, "expected array as in " + basePath + ", got integer");
}

TEST(Overlay, LoadErrorsInOverlaidValuesNameTheOverlayFile)
{
  toml::table base = parseToml(validToml, basePath);
  overlayPerKey(base, parseToml("[walk]\nmaxSpeed = \"fast\"\n", overlayPath));
  const ConfigError error = loadErrorOf(base);
  EXPECT_EQ(error.file, overlayPath);
  EXPECT_EQ(error.line, 2);
  EXPECT_EQ(error.column, 12); // the value
  EXPECT_EQ(error.keyPath, "walk.maxSpeed");
}

TEST(Overlay, CopiedOverlayStillNamesTheOverlayFile)
{
  toml::table base = parseToml(validToml, basePath);
  const toml::table overlay = parseToml("[walk]\nmaxSpeed = \"fast\"\n", overlayPath);
  overlayPerKey(base, overlay);
  const ConfigError error = loadErrorOf(base);
  EXPECT_EQ(error.file, overlayPath);
  EXPECT_EQ(error.line, 2);
  EXPECT_EQ(error.column, 1); // toml++ copies drop value positions; the key keeps its position
  EXPECT_EQ(overlay["walk"]["maxSpeed"].value<std::string>(), "fast"); // the overlay is untouched
}

TEST(Files, LoadedFilesNameTheirPath)
{
  const std::filesystem::path directory = std::filesystem::temp_directory_path() / "nao_streams_tests";
  std::filesystem::create_directories(directory);
  const std::filesystem::path file = directory / "Test.toml";
  std::ofstream(file) << replaceLine(validToml, 6, "maxGearStep = 6");
  const toml::table table = loadTomlFile(file);
  std::filesystem::remove(file);
  const ConfigError error = loadErrorOf(table);
  EXPECT_EQ(error.file, file.string());
  EXPECT_EQ(error.line, 6);
  EXPECT_EQ(error.column, 15);
}

TEST(ApplyEdit, ValidEditsChangeShadowAndParameters)
{
  toml::table shadow = parseToml(validToml, basePath);
  TestParameters parameters = loadValid();
  TestParameters expected = parameters;

  applyEdit(shadow, "walk.maxSpeed", "0.3", parameters);
  expected.walk.maxSpeed = 0.3;
  EXPECT_EQ(parameters, expected);
  EXPECT_EQ(shadow["walk"]["maxSpeed"].value<double>(), 0.3);

  applyEdit(shadow, "thresholds.LKneePitch", "10", parameters);
  EXPECT_DOUBLE_EQ(parameters.thresholds[3], 10.0 * degree);
  expected.thresholds[3] = parameters.thresholds[3];

  applyEdit(shadow, "poses[1].time", "2.5", parameters);
  expected.poses[1].time = 2.5;
  applyEdit(shadow, "sensorIds", "[4, 5]", parameters);
  expected.sensorIds = {4, 5};
  applyEdit(shadow, "mode", "\"kick\"", parameters);
  expected.mode = GaitMode::kick;
  EXPECT_EQ(parameters, expected);

  applyEdit(shadow, "walk", "{ maxSpeed = 0.1, stepHeight = 10, stepDuration = [200, 400] }", parameters);
  expected.walk = WalkParameters{0.1, 0.01f, {0.2, 0.4}};
  EXPECT_EQ(parameters, expected);

  TestParameters reloaded; // the shadow holds every edit
  loadFromTable(shadow, reloaded);
  EXPECT_EQ(reloaded, expected);
}

TEST(ApplyEdit, OutOfRangeKeepsEverything)
{
  const ConfigError error = editError("maxGearStep", "9");
  EXPECT_EQ(error.file, "<edit>");
  EXPECT_EQ(error.line, 1);
  EXPECT_EQ(error.column, 1);
  EXPECT_EQ(error.keyPath, "maxGearStep");
  EXPECT_EQ(error.message, "expected value in [0, 5] deg, got 9 deg");
}

TEST(ApplyEdit, WrongTypeAndUnknownKeysInTheValueAreReportedInTheEditText)
{
  const ConfigError wrongType = editError("cycles", "\"many\"");
  EXPECT_EQ(wrongType.file, "<edit>");
  EXPECT_EQ(wrongType.column, 1);
  EXPECT_EQ(wrongType.message, "expected integer, got string");

  const ConfigError unknown =
      editError("walk", "{ maxSpeed = 0.1, stepHeight = 10, stepDuration = [200, 400], extra = 1 }");
  EXPECT_EQ(unknown.file, "<edit>");
  EXPECT_EQ(unknown.line, 1);
  EXPECT_EQ(unknown.column, 63);
  EXPECT_EQ(unknown.keyPath, "walk.extra");
}

TEST(ApplyEdit, MalformedValuesAndUnknownPathsAreErrors)
{
  const ConfigError parseError = editError("walk.maxSpeed", "0.3.3");
  EXPECT_EQ(parseError.file, "<edit>");
  EXPECT_EQ(parseError.line, 1);
  EXPECT_GE(parseError.column, 1);
  EXPECT_LE(parseError.column, 6);

  EXPECT_EQ(editError("walk.maxSpeed", "1\nother = 2").message,
            "expected a single TOML value, got '1\nother = 2'");

  const ConfigError unknownKey = editError("walk.maxSped", "0.3");
  EXPECT_EQ(unknownKey.keyPath, "walk.maxSped");
  EXPECT_EQ(unknownKey.message, "unknown key path; 'walk.maxSped' does not exist");

  EXPECT_EQ(editError("poses[5].time", "1").message, "unknown key path; 'poses[5]' does not exist");
  EXPECT_EQ(editError("walk..maxSpeed", "1").message, "malformed key path");
}

TEST(ApplyEdit, AFailedEditLeavesEarlierEditsInPlace)
{
  toml::table shadow = parseToml(validToml, basePath);
  TestParameters parameters = loadValid();
  applyEdit(shadow, "priority", "9", parameters);
  EXPECT_THROW(applyEdit(shadow, "priority", "300", parameters), ConfigError);
  EXPECT_EQ(parameters.priority, 9);
  EXPECT_EQ(shadow["priority"].value<int>(), 9);
}
