// The frame loop: data flow, USES semantics, `off`, live provider switches and live parameter edits.
#include "Framework/Controller.h"
#include "Framework/Logger.h"
#include "Framework/Tests/TestModules.h"
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace nao;
using namespace nao::test;
using ::testing::HasSubstr;

namespace nao::test
{
/// Two outputs from one computation: RepB = 20 * RepA, RepC = 20 * RepA + 2. Counts its calls.
class ModBoth : public Module<ModBoth, Requires<RepA>, Provides<RepB, RepC>>
{
public:
  using Module::Module;
  void update(RepB& b, RepC& c)
  {
    ++calls;
    b.value = 20 * get<RepA>().value;
    c.value = b.value + 2;
  }
  static inline int calls = 0;
};
MAKE_MODULE(ModBoth);
} // namespace nao::test

namespace
{
struct Fixture : ::testing::Test
{
  std::filesystem::path directory = std::filesystem::temp_directory_path() / "nao-motionloop-test";
  Blackboard blackboard;
  CountingBody body{1000};
  MotionLoop motion{blackboard, body};
  std::unique_ptr<Controller> controller;

  void SetUp() override
  {
    std::filesystem::create_directories(directory / "Modules");
    std::filesystem::create_directories(directory / "Robots" / "Nao42" / "Modules");
    std::ofstream(directory / "Modules" / "ModGain.toml") << "offset = 1.0 # deg\nfactor = 2\n";
    std::ofstream(directory / "Robots" / "Nao42" / "Modules" / "ModGain.toml") << "factor = 3\n";
    controller = std::make_unique<Controller>(ConfigLocation{directory, "Nao42"}, blackboard, motion);
  }
  void TearDown() override { std::filesystem::remove_all(directory); }

  std::vector<ProviderChoice> choices(std::initializer_list<std::pair<const char*, const char*>> pairs)
  {
    std::vector<ProviderChoice> result;
    for (const auto& [representation, provider] : pairs)
      result.push_back({representation, provider, {"test", 1, 1}});
    return result;
  }
  int value(const auto& representation) { return representation.value; }
};
} // namespace

TEST_F(Fixture, DataFlowsInDependencyOrderAndUsesSeesLastFrame)
{
  controller->start(choices({{"RepD", "ModC"}, {"RepC", "ModCProvider"}, {"RepB", "ModB"}, {"RepA", "ModA"}}),
                    "t");
  for (int frame = 0; frame < 5; ++frame)
  {
    ASSERT_TRUE(motion.runFrame());
    EXPECT_EQ(blackboard.get<RepA>().value, frame);
    EXPECT_EQ(blackboard.get<RepB>().value, 10 * frame);
    EXPECT_EQ(blackboard.get<RepC>().value, 10 * frame + 1);
    // RepD copies RepC as it was at the end of the previous frame.
    EXPECT_EQ(blackboard.get<RepD>().value, frame == 0 ? -1 : 10 * (frame - 1) + 1);
  }
}

TEST_F(Fixture, AModuleWithSeveralOutputsIsCalledOncePerFrameWithAllOfThem)
{
  ModBoth::calls = 0;
  controller->start(choices({{"RepA", "ModA"}, {"RepB", "ModBoth"}, {"RepC", "ModBoth"}}), "t");
  for (int frame = 0; frame < 4; ++frame)
  {
    ASSERT_TRUE(motion.runFrame());
    EXPECT_EQ(blackboard.get<RepB>().value, 20 * frame);
    EXPECT_EQ(blackboard.get<RepC>().value, 20 * frame + 2);
  }
  EXPECT_EQ(ModBoth::calls, 4);
}

TEST_F(Fixture, AnOutputAnotherModuleProvidesIsWrittenWhereNothingReadsIt)
{
  ModBoth::calls = 0;
  controller->start(choices({{"RepA", "ModA"}, {"RepB", "ModB"}, {"RepC", "ModBoth"}}), "t");
  for (int frame = 0; frame < 3; ++frame)
  {
    ASSERT_TRUE(motion.runFrame());
    EXPECT_EQ(blackboard.get<RepB>().value, 10 * frame) << "ModB's, not ModBoth's";
    EXPECT_EQ(blackboard.get<RepC>().value, 20 * frame + 2);
  }
  EXPECT_EQ(ModBoth::calls, 3);
}

TEST_F(Fixture, LiveProviderSwitchTakesEffectAtTheNextFrame)
{
  controller->start(choices({{"RepA", "ModA"}, {"RepB", "ModB"}}), "t");
  ASSERT_TRUE(motion.runFrame());
  EXPECT_EQ(blackboard.get<RepB>().value, 0);
  EXPECT_EQ(controller->setProvider("RepA", "ModA2"), "");
  ASSERT_TRUE(motion.runFrame());
  EXPECT_EQ(blackboard.get<RepA>().value, 1001);
  EXPECT_EQ(blackboard.get<RepB>().value, 10010);
  controller->service();

  EXPECT_EQ(controller->setProvider("RepA", "off"), "");
  ASSERT_TRUE(motion.runFrame());
  EXPECT_EQ(blackboard.get<RepA>().value, -1) << "off: back to the default value";
  EXPECT_EQ(blackboard.get<RepB>().value, -10);
}

TEST_F(Fixture, InvalidLiveSwitchIsRefusedAndChangesNothing)
{
  controller->start(choices({{"RepA", "ModA"}, {"RepB", "ModB"}}), "t");
  EXPECT_THAT(controller->setProvider("RepA", "ModCycle"), HasSubstr("names no provider"));
  EXPECT_THAT(controller->setProvider("RepA", "NoSuch"), HasSubstr("is not a module"));
  ASSERT_TRUE(motion.runFrame());
  EXPECT_EQ(blackboard.get<RepB>().value, 0);
  EXPECT_EQ(controller->plan().modules.size(), 2u);
}

TEST_F(Fixture, ParametersComeFromFileWithRobotOverlayPerKey)
{
  controller->start(choices({{"RepA", "ModA"}, {"RepB", "ModGain"}}), "t");
  ASSERT_TRUE(motion.runFrame());
  ASSERT_TRUE(motion.runFrame());
  // factor 3 from the robot overlay, offset 1° = 17.45 mrad from the default file.
  EXPECT_EQ(blackboard.get<RepB>().value, 3 * 1 + 17);
}

TEST_F(Fixture, LiveParameterEditIsValidatedAndSwappedAtFrameBoundary)
{
  controller->start(choices({{"RepA", "ModA"}, {"RepB", "ModGain"}}), "t");
  ASSERT_TRUE(motion.runFrame());
  EXPECT_EQ(controller->setParameter("ModGain", "offset", "-2.0"), "");
  ASSERT_TRUE(motion.runFrame());
  EXPECT_EQ(blackboard.get<RepB>().value, 3 * 1 - 35);
  controller->service();

  EXPECT_THAT(controller->setParameter("ModGain", "offset", "500.0"), HasSubstr("old value kept"));
  EXPECT_THAT(controller->setParameter("ModGain", "factor", "\"three\""), HasSubstr("old value kept"));
  EXPECT_THAT(controller->setParameter("ModGain", "nonsense", "1"), HasSubstr("nonsense"));
  ASSERT_TRUE(motion.runFrame());
  EXPECT_EQ(blackboard.get<RepB>().value, 3 * 2 - 35) << "refused edits leave the running values unchanged";
  EXPECT_THAT(controller->parametersText("ModGain"), HasSubstr("offset = -2"));
}

TEST_F(Fixture, StageSetOffPassesItsInputThrough)
{
  controller->start(choices({{"RepAStage", "ModStage"}, {"RepA", "ModA"}, {"RepB", "ModB"}}), "t");
  ASSERT_TRUE(motion.runFrame());
  ASSERT_TRUE(motion.runFrame());
  EXPECT_EQ(blackboard.get<RepAStage>().value, 101);
  EXPECT_EQ(controller->setProvider("RepAStage", "off"), "");
  ASSERT_TRUE(motion.runFrame());
  EXPECT_EQ(blackboard.get<RepAStage>().value, 2) << "off on a stage copies its input of this frame";
  EXPECT_THAT(controller->plan().providerOf.at(representationId<RepAStage>()),
              HasSubstr("pass-through from RepA"));
  // The copy is ordered after the input's provider even though the scenario names the stage first.
  const auto& modules = controller->plan().modules;
  ASSERT_EQ(modules.size(), 3u);
  EXPECT_EQ(modules[0].module->name, "ModA");
  EXPECT_EQ(modules[1].module->name, "PassThrough(RepAStage)");
  // A plain representation set off still keeps its default value.
  EXPECT_EQ(controller->setProvider("RepA", "off"), "");
  ASSERT_TRUE(motion.runFrame());
  EXPECT_EQ(blackboard.get<RepA>().value, -1);
  EXPECT_EQ(blackboard.get<RepAStage>().value, -1);
}

TEST_F(Fixture, ARunShorterThanTheTimingWindowStillShowsMedianAndMaximum)
{
  controller->start(choices({{"RepB", "ModB"}, {"RepA", "ModA"}}), "t");
  for (int frame = 0; frame < 50; ++frame)
    ASSERT_TRUE(motion.runFrame());
  const ModuleTimes& times = blackboard.get<ModuleTimes>();
  EXPECT_EQ(times.windowFrames, 48) << "statistics of the frames so far, refreshed every 16";
  ASSERT_GE(times.count, 2);
  for (std::size_t i = 0; i < times.count; ++i)
  {
    EXPECT_GT(times.modules[i].maxNs, 0u) << times.modules[i].name.view();
    EXPECT_LE(times.modules[i].medianNs, times.modules[i].maxNs) << times.modules[i].name.view();
  }
  for (int frame = 50; frame < 128 + 10; ++frame)
    ASSERT_TRUE(motion.runFrame());
  EXPECT_EQ(blackboard.get<ModuleTimes>().windowFrames, MotionLoop::timingWindow) << "then full windows";
}

TEST_F(Fixture, AWaitForTheMotionThreadRunsTheWaitThatIsSet)
{
  // A single-threaded driver (the debug channel fuzzer) runs the motion loop itself: closing a log waits for the
  // motion thread to let go of the log's tap, and with a motion wait set that wait runs a frame instead of
  // sleeping for a motion thread that is not there (before: 400 sleeps of 5 ms, and the tap still attached).
  controller->start(choices({{"RepA", "ModA"}}), "t");
  int waits = 0;
  controller->setMotionWait(
      [&]
      {
        ++waits;
        ASSERT_TRUE(motion.runFrame());
      });
  Logger logger(16);
  const std::filesystem::path log = directory / "wait.log";
  ASSERT_EQ(logger.start(*controller, log, {"RepA"}), "");
  ASSERT_TRUE(motion.runFrame()); // the tap is attached and fed
  ASSERT_TRUE(motion.runFrame());
  controller->service();
  logger.stop(*controller);
  EXPECT_EQ(waits, 1) << "one frame takes the RemoveTap; the next service() learns of it";
  EXPECT_EQ(controller->liveTapCount(), 0u);
  EXPECT_EQ(controller->unansweredCommands(), 0u);
  EXPECT_FALSE(logger.status().active);
  EXPECT_EQ(logger.status().framesWritten, 2u)
      << "the frame the wait ran lets go of the tap before feeding it";
}
