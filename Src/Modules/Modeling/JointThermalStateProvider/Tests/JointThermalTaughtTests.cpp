// Thresholds a robot taught in an earlier run (README.md, "Thresholds"): the taught* parameters of its overlay
// replace the prior from the first frame, this run's own transition replaces them, a lower bound above them raises
// them and survives a live edit, and a taught value edited back to 0 returns the joint to the prior.
#include "Framework/Testing/ModuleHarness.h"
#include "Modules/Modeling/JointThermalStateProvider/JointThermalStateProvider.h"
#include <gtest/gtest.h>

using namespace nao;

namespace
{
constexpr Joint knee = Joint::LKneePitch, ankle = Joint::LAnklePitch, hip = Joint::LHipPitch;

/// The provider with every joint reading `temperature` (°C) at no current, one frame at a time.
struct TaughtRig
{
  ModuleHarness<JointThermalStateProvider> harness;
  double time = 0;

  void run(double seconds, float temperature)
  {
    for (double end = time + seconds; time < end - 1e-9;)
    {
      time += 0.012;
      harness.input<FrameInfo>().time = time;
      ++harness.input<FrameInfo>().frameNumber;
      harness.input<JointSensorData>().temperatures.fill(temperature);
      harness.run();
    }
  }
  float threshold(Joint joint) const { return harness.output<JointThermalState>().hot.thresholds[joint]; }
  ThermalThresholdSource source(Joint joint) const
  {
    return harness.output<JointThermalState>().hot.sources[joint];
  }
};
} // namespace

TEST(JointThermalTaught, ATaughtThresholdReplacesThePriorFromTheStartAndThisRunsTransitionReplacesIt)
{
  TaughtRig rig;
  JointThermalStateParameters& p = rig.harness.parameters();
  p.taughtHotThresholds[knee] = 76.f;
  p.taughtHotThresholds[ankle] = 74.f;
  p.taughtVeryHotThresholds[knee] = 80.f;
  rig.run(0.3, 30.f); // every joint steps once
  EXPECT_EQ(rig.threshold(knee), 76.f);
  EXPECT_EQ(rig.source(knee), ThermalThresholdSource::taught);
  EXPECT_EQ(rig.harness.output<JointThermalState>().veryHot.thresholds[knee], 80.f);
  EXPECT_EQ(rig.harness.output<JointThermalState>().criticallyHot.sources[knee],
            ThermalThresholdSource::prior);
  EXPECT_EQ(rig.threshold(hip), 76.f) << "not taught: the prior (hotThreshold)";
  EXPECT_EQ(rig.source(hip), ThermalThresholdSource::prior);

  // This run: the knee reports status 1 at about 70 °C. Its own transition counts.
  rig.run(60.0, 70.f);
  rig.harness.input<JointSensorData>().status[knee] = TemperatureStatus::hot;
  rig.run(rig.harness.parameters().statusHoldTime + 0.3, 70.f); // confirmed once it held
  EXPECT_EQ(rig.source(knee), ThermalThresholdSource::learned);
  EXPECT_NEAR(rig.threshold(knee), 70.f, 1.f);

  // A live edit that removes every taught value: what this run learned stays, the ankle goes back to the prior.
  rig.harness.parameters().taughtHotThresholds.fill(0.f); // parameters() marks the edit for the next run()
  rig.harness.parameters().taughtVeryHotThresholds.fill(0.f);
  rig.run(0.3, 70.f);
  EXPECT_EQ(rig.source(knee), ThermalThresholdSource::learned);
  EXPECT_EQ(rig.source(ankle), ThermalThresholdSource::prior);
  EXPECT_EQ(rig.threshold(ankle), 76.f);
}

TEST(JointThermalTaught, ALowerBoundAboveATaughtThresholdRaisesItAndALiveEditKeepsIt)
{
  TaughtRig rig;
  rig.harness.parameters().taughtHotThresholds[ankle] = 60.f;
  rig.run(60.0, 66.f); // status 0 at 66 °C: the threshold is higher than 60
  EXPECT_EQ(rig.source(ankle), ThermalThresholdSource::lowerBound);
  EXPECT_NEAR(rig.threshold(ankle), 66.f, 1.f);
  rig.harness.parameters().learningSpread = 0.3f; // an unrelated live edit
  rig.run(0.3, 66.f);
  EXPECT_EQ(rig.source(ankle), ThermalThresholdSource::lowerBound) << "the taught 60 °C does not come back";
  EXPECT_NEAR(rig.threshold(ankle), 66.f, 1.f);
  rig.harness.parameters().taughtHotThresholds[ankle] = 72.f; // a higher one taught later
  rig.run(0.3, 66.f);
  EXPECT_EQ(rig.source(ankle), ThermalThresholdSource::taught);
  EXPECT_EQ(rig.threshold(ankle), 72.f);
}
