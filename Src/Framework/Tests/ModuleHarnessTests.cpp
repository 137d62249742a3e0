// ModuleHarness runs one module alone: what a test writes into input<T>() is what the module reads (this frame's
// value for Requires<>, last frame's for Uses<>), run() calls its updates, output<T>() is what it wrote.
#include "Framework/Testing/ModuleHarness.h"
#include "Framework/Tests/TestModules.h"
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <numbers>

using namespace nao;
using namespace nao::test;

TEST(ModuleHarness, ARequiredInputIsReadInTheSameFrame)
{
  ModuleHarness<ModB> harness;
  harness.input<RepA>().value = 7;
  harness.run();
  EXPECT_EQ(harness.output<RepB>().value, 70);
  harness.input<RepA>().value = -3;
  harness.run();
  EXPECT_EQ(harness.output<RepB>().value, -30);
}

TEST(ModuleHarness, AUsedInputIsWhatTheModuleSeesAsLastFramesValue)
{
  ModuleHarness<ModC> harness;
  harness.input<RepC>().value = 5;
  harness.input<RepB>().value = 99; // required, unread by ModC
  harness.run();
  EXPECT_EQ(harness.output<RepD>().value, 5);
  harness.input<RepC>().value = 6;
  harness.run(3);
  EXPECT_EQ(harness.output<RepD>().value, 6);
}

TEST(ModuleHarness, TwoHarnessesOfOneModuleDoNotShareABlackboard)
{
  ModuleHarness<ModA> first, second;
  first.input<FrameInfo>().frameNumber = 11;
  second.input<FrameInfo>().frameNumber = 22;
  first.run();
  second.run();
  EXPECT_EQ(first.output<RepA>().value, 11);
  EXPECT_EQ(second.output<RepA>().value, 22);
}

TEST(ModuleHarness, ConfigFilesPointAtThisCheckoutsConfig)
{
  const ConfigFiles files = testConfigFiles("Default", "stand");
  EXPECT_TRUE(std::filesystem::exists(files.location.moduleFile("FilteredCurrentProvider")));
  EXPECT_TRUE(std::filesystem::exists(files.scenarioFile)) << files.scenarioFile;
}

namespace
{
/// Config/ of ModGain (offset 1°, factor 2) with robot Nao42's overlay (factor 3), in a scratch folder.
struct GainConfig
{
  std::filesystem::path directory = std::filesystem::temp_directory_path() / "nao-harness-parameters-test";
  ConfigFiles files;
  GainConfig()
  {
    std::filesystem::create_directories(directory / "Robots" / "Nao42" / "Modules");
    std::filesystem::create_directories(directory / "Modules");
    std::ofstream(directory / "Modules" / "ModGain.toml") << "offset = 1.0 # deg\nfactor = 2\n";
    std::ofstream(directory / "Robots" / "Nao42" / "Modules" / "ModGain.toml") << "factor = 3\n";
    files.location = {directory, "Nao42"};
  }
  ~GainConfig() { std::filesystem::remove_all(directory); }
};
} // namespace

TEST(ModuleHarness, SetParameterEditsOneKeyInTheFilesUnitsAndReachesTheModuleAtTheNextRun)
{
  const GainConfig config;
  ModuleHarness<ModGain> harness(config.files);
  harness.input<RepA>().value = 10;
  harness.run();
  EXPECT_EQ(harness.output<RepB>().value, 3 * 10 + 17) << "the file's 1° (17 mrad) and the overlay's factor";
  harness.setParameter("offset", "-2.0"); // degrees, as in the file
  EXPECT_EQ(harness.module().parameterChanges, 0) << "not before the next run";
  harness.run();
  EXPECT_EQ(harness.module().parameterChanges, 1);
  EXPECT_EQ(harness.output<RepB>().value, 3 * 10 - 35)
      << "the other keys keep the file's (and overlay's) values";
  harness.setParameter("factor", "4");
  harness.run();
  EXPECT_EQ(harness.output<RepB>().value, 4 * 10 - 35) << "an edit keeps the earlier ones";

  // Refused as a file load would refuse it: nothing changes.
  EXPECT_THROW(harness.setParameter("offset", "500.0"), streams::ConfigError) << "out of range";
  EXPECT_THROW(harness.setParameter("factor", "\"three\""), streams::ConfigError) << "not a number";
  EXPECT_THROW(harness.setParameter("nonsense", "1"), streams::ConfigError) << "no such key";
  harness.run();
  EXPECT_EQ(harness.module().parameterChanges, 2);
  EXPECT_EQ(harness.output<RepB>().value, 4 * 10 - 35);
}

TEST(ParameterFiles, AFileStatesOnlyWhatDiffersAndEveryOtherKeyKeepsTheStructsDefault)
{
  const GainConfig config;
  std::ofstream(config.directory / "Modules" / "ModGain.toml") << "# only the offset differs\noffset = 2.0\n";
  std::filesystem::remove(config.directory / "Robots" / "Nao42" / "Modules" / "ModGain.toml");
  GainParameters loaded = loadModuleParameters<GainParameters>(config.files.location, "ModGain");
  EXPECT_FLOAT_EQ(loaded.offset, 2.f * std::numbers::pi_v<float> / 180.f) << "the file's";
  EXPECT_EQ(loaded.factor, GainParameters{}.factor) << "the struct's default";

  std::ofstream(config.directory / "Robots" / "Nao42" / "Modules" / "ModGain.toml") << "factor = 9\n";
  loaded = loadModuleParameters<GainParameters>(config.files.location, "ModGain");
  EXPECT_EQ(loaded.factor, 9) << "the robot's overlay over the default";
  EXPECT_FLOAT_EQ(loaded.offset, 2.f * std::numbers::pi_v<float> / 180.f) << "the module file's";

  std::filesystem::remove(config.directory / "Modules" / "ModGain.toml");
  loaded = loadModuleParameters<GainParameters>(config.files.location, "ModGain");
  EXPECT_EQ(loaded.factor, 9) << "an overlay needs no module file";
  EXPECT_FLOAT_EQ(loaded.offset, 0.f);

  std::ofstream(config.directory / "Modules" / "ModGain.toml") << "ofset = 2.0\n";
  try
  {
    loadModuleParameters<GainParameters>(config.files.location, "ModGain");
    ADD_FAILURE() << "a key the struct lacks must not be ignored";
  }
  catch (const streams::ConfigError& error)
  {
    EXPECT_THAT(error.what(), testing::HasSubstr("ModGain.toml:1:1"));
    EXPECT_THAT(error.what(),
                testing::HasSubstr(
                    "key 'ofset': unknown key; did you mean 'offset'? not in the parameters of ModGain"));
  }
  std::ofstream(config.directory / "Modules" / "ModGain.toml") << "offset = 500.0\n";
  EXPECT_THROW(loadModuleParameters<GainParameters>(config.files.location, "ModGain"), streams::ConfigError)
      << "a value out of range";
}

TEST(ModuleHarness, SetParameterKeepsGivenParametersAndEditsMadeThroughParameters)
{
  const GainConfig config;
  GainParameters given;
  given.offset = 0.5f; // rad
  given.factor = 5;
  ModuleHarness<ModGain> harness(given, config.files);
  harness.input<RepA>().value = 10;
  harness.setParameter("factor", "2");
  harness.run();
  EXPECT_EQ(harness.output<RepB>().value, 2 * 10 + 500) << "the given offset, not the file's";

  ModuleHarness<ModGain> fromFile(config.files);
  fromFile.input<RepA>().value = 10;
  fromFile.parameters().factor = 7;
  fromFile.setParameter("offset", "0.0");
  fromFile.run();
  EXPECT_EQ(fromFile.output<RepB>().value, 7 * 10) << "the factor set through parameters(), not the file's";
}
