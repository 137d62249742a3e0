// The moving average over the last windowLength samples (20 in Config/), non-finite samples skipped, the leg
// joint with the highest |current|, and a live change of the window length. The module runs alone in a
// ModuleHarness (inputs set here, outputs read back); the range check of a live edit runs through the Controller
// as on the robot.
#include "Framework/Controller.h"
#include "Framework/Testing/ModuleHarness.h"
#include "Modules/Sensing/FilteredCurrentProvider/FilteredCurrentProvider.h"
#include "Representations/Sensing/FilteredCurrent.h"
#include <cmath>
#include <deque>
#include <gtest/gtest.h>
#include <limits>
#include <numeric>

using namespace nao;

namespace
{
/// Currents that differ per joint and frame, some negative, with NaN now and then on one joint.
float currentAt(std::uint32_t frame, std::size_t joint)
{
  if (joint == index(Joint::RHipPitch) && frame % 7 == 3) return std::numeric_limits<float>::quiet_NaN();
  return 0.05f * static_cast<float>(joint) * std::sin(0.3f * static_cast<float>(frame + joint)) +
         (joint == index(Joint::RAnklePitch) && frame > 60 ? -1.5f : 0.f);
}

class CurrentBody : public Body
{
public:
  bool waitForSensors(BodySensors& sensors) override
  {
    sensors.frameInfo.frameNumber = frame;
    sensors.frameInfo.time = frame * 0.012;
    for (std::size_t j = 0; j < numOfJoints; ++j)
      sensors.joints.currents[j] = currentAt(frame, j);
    ++frame;
    return true;
  }
  void send(const JointRequest&) override {}
  const char* name() const override { return "Currents"; }
  std::uint32_t frame = 0;
};

struct Rig
{
  Blackboard blackboard;
  CurrentBody body;
  MotionLoop motion{blackboard, body};
  Controller controller{ConfigLocation{NAO_CONFIG_DIR, "Default"}, blackboard, motion};
  Rig() { controller.start({{"FilteredCurrent", "FilteredCurrentProvider", {"test", 1, 1}}}, "test"); }
};

/// The mean of the last `length` finite samples of `joint` up to frame `last`, computed here.
float expectedMean(std::size_t joint, std::uint32_t last, std::size_t length)
{
  std::deque<double> window;
  for (std::uint32_t frame = 0; frame <= last; ++frame)
    if (const float sample = currentAt(frame, joint); std::isfinite(sample))
    {
      window.push_back(sample);
      if (window.size() > length) window.pop_front();
    }
  return window.empty()
             ? 0.f
             : static_cast<float>(std::accumulate(window.begin(), window.end(), 0.0) / window.size());
}
} // namespace

/// The module alone, fed frame after frame with currentAt().
struct Harness : ModuleHarness<FilteredCurrentProvider>
{
  std::uint32_t frame = 0;
  void step()
  {
    for (std::size_t j = 0; j < numOfJoints; ++j)
      input<JointSensorData>().currents[j] = currentAt(frame, j);
    run();
    ++frame;
  }
};

TEST(FilteredCurrentProvider, MeanOfTheLast20FiniteSamplesAndTheHighestLegJoint)
{
  Harness harness;
  ASSERT_EQ(harness.parameters().windowLength, 20) << "Config/Modules/FilteredCurrentProvider.toml";
  for (std::uint32_t frame = 0; frame < 150; ++frame)
  {
    harness.step();
    const FilteredCurrent& filtered = harness.output<FilteredCurrent>();
    std::size_t highest = index(Joint::LHipYawPitch);
    for (std::size_t j = 0; j < numOfJoints; ++j)
    {
      const float expected = expectedMean(j, frame, 20);
      EXPECT_NEAR(filtered.currents[j], expected, 1e-6f) << name(jointAt(j)) << " frame " << frame;
      if (isLegJoint(jointAt(j)) && std::abs(expected) > std::abs(expectedMean(highest, frame, 20)))
        highest = j;
    }
    EXPECT_EQ(filtered.highestLegJoint, jointAt(highest)) << "frame " << frame;
    EXPECT_NEAR(filtered.highestLegCurrent, std::abs(expectedMean(highest, frame, 20)), 1e-6f);
    std::uint32_t finiteHipSamples = 0; // RHipPitch skips one sample in 7: its window fills last
    for (std::uint32_t f = 0; f <= frame; ++f)
      finiteHipSamples += std::isfinite(currentAt(f, index(Joint::RHipPitch)));
    EXPECT_EQ(filtered.windowFull, finiteHipSamples >= 20) << "frame " << frame;
  }
  EXPECT_EQ(harness.output<FilteredCurrent>().highestLegJoint, Joint::RAnklePitch)
      << "-1.5 A counts by its magnitude";
}

TEST(FilteredCurrentProvider, ANewWindowLengthStartsTheWindowsAfresh)
{
  Harness harness;
  for (int frame = 0; frame < 40; ++frame)
    harness.step();
  harness.parameters().windowLength = 5;
  const std::uint32_t first = harness.frame; // the first frame with the new parameters
  for (std::uint32_t frame = first; frame < first + 12; ++frame)
  {
    harness.step();
    const std::size_t knee = index(Joint::LKneePitch);
    double sum = 0;
    const std::uint32_t from = std::max(first, frame >= 4 ? frame - 4 : 0u);
    for (std::uint32_t f = from; f <= frame; ++f)
      sum += currentAt(f, knee);
    EXPECT_NEAR(harness.output<FilteredCurrent>().currents[knee], sum / (frame - from + 1), 1e-6) << frame;
  }
}

TEST(FilteredCurrentProvider, ALiveWindowLongerThanTheBuffersIsRefusedAndTheRobotRunsOn)
{
  Rig rig;
  for (int frame = 0; frame < 30; ++frame)
    ASSERT_TRUE(rig.motion.runFrame());
  const std::string error = rig.controller.setParameter("FilteredCurrentProvider", "windowLength", "201");
  EXPECT_NE(error.find("windowLength"), std::string::npos) << error;
  ASSERT_TRUE(rig.motion.runFrame());
  EXPECT_NEAR(rig.blackboard.get<FilteredCurrent>().currents[index(Joint::LKneePitch)],
              expectedMean(index(Joint::LKneePitch), rig.body.frame - 1, 20), 1e-6)
      << "still the 20-sample window";
}

TEST(FilteredCurrentProvider,
     TheReadmeExample) // Docs/AddingAModule.md, step 7: ReadmeWalkthroughTests compare
{
  // clang-format off
  ModuleHarness<FilteredCurrentProvider> harness;            // Config/Modules/FilteredCurrentProvider.toml
  harness.input<JointSensorData>().currents[index(Joint::LKneePitch)] = 0.8f; // A
  harness.run();                                             // update() with every output of Provides<>
  EXPECT_EQ(harness.output<FilteredCurrent>().highestLegJoint, Joint::LKneePitch);
  harness.parameters().windowLength = 5;                     // a live edit, applied at the next run()
  // clang-format on
  harness.input<JointSensorData>().currents[index(Joint::LKneePitch)] = 0.2f;
  harness.run();
  EXPECT_NEAR(harness.output<FilteredCurrent>().currents[index(Joint::LKneePitch)], 0.2f, 1e-6f)
      << "the new window starts afresh: only this frame's sample";
}
