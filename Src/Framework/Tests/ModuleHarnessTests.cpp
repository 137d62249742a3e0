// ModuleHarness runs one module alone: what a test writes into input<T>() is what the module reads (this frame's
// value for Requires<>, last frame's for Uses<>), run() calls its updates, output<T>() is what it wrote.
#include "Framework/Testing/ModuleHarness.h"
#include "Framework/Tests/TestModules.h"
#include <gtest/gtest.h>

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
