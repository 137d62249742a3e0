// SitDownProvider on the simulated robot, judged by the simulator's truth (torso height) and by what the plant
// applies (the stiffness the robot sent): Config/Scenarios/chestbutton.toml (a press while standing, a second press
// later) and Config/Scenarios/lowbattery.toml (a battery that starts just above the threshold and runs down at the
// rate its current draws). The numbers these tests print are the table of SitDownProvider's README.
#include "Representations/Infrastructure/BatteryData.h"
#include "Representations/Infrastructure/FrameInfo.h"
#include "Representations/MotionControl/SitDown.h"
#include "Representations/Sensing/SensorHealth.h"
#include "Util/Simulator/Run/SimulationRun.h"
#include "Util/Simulator/Run/Tests/SimulationTestSupport.h"

#include <algorithm>
#include <cstdio>
#include <gtest/gtest.h>

using namespace nao;

namespace
{
struct Window
{
  float meanHeight = 0;   ///< m, the torso's mean height above the floor
  float maxStiffness = 0; ///< the largest stiffness the plant applied to any joint
  int samples = 0;
};

Window window(const SimulationResult& result, double from, double to)
{
  Window w;
  for (const RunSample& s : result.samples)
  {
    if (s.time < from || s.time > to) continue;
    w.meanHeight += s.torsoHeight;
    w.maxStiffness =
        std::max(w.maxStiffness, *std::max_element(s.stiffnessCommands.begin(), s.stiffnessCommands.end()));
    ++w.samples;
  }
  if (w.samples > 0) w.meanHeight /= static_cast<float>(w.samples);
  return w;
}

// The legs alone put the hip 84 mm lower in the sitting posture than in the stand (ankle to hip: tibia 102.9 mm at
// 67° and thigh 100 mm at 53° from vertical against 28° and 20°, NaoFacts.md §10); 6 cm leaves 24 mm for the torso's
// lean and the limp joints' give. Back at the standing height within 1 cm: the stand is the same posture, reached
// from the same request.
constexpr float sitsLowerBy = 0.06f;       // m
constexpr float standsAgainWithin = 0.01f; // m
} // namespace

TEST(SitDownSimulation, AChestButtonPressSitsAndGoesLimpASecondStandsUp)
{
  // Eight robots (seeds 1..8: each its own joint offsets, gear friction and backlash, Config/Sim/robots.toml).
  for (std::uint64_t seed = 1; seed <= 8; ++seed)
  {
    SCOPED_TRACE("seed " + std::to_string(seed));
    SimulationOptions options =
        test::testRunOptions("chestbutton", 18.0 / 60.0, seed, "nao-sitdown-chestbutton");
    const SimulationResult result = runSimulation(options);
    const Window standing = window(result, 3.0, 4.0); // before the press at 4 s
    const Window sitting =
        window(result, 9.0, 11.9); // limp 3.8 s after the press counted at 4.25 s; before the next at 12 s
    const Window standingAgain =
        window(result, 16.5, 18.0); // after 3 s of standing up from the press counted at 12.25 s
    std::printf("chestbutton, seed %llu | %.3f | %.3f, %.2f | %.3f, %.2f | %.3f\n",
                static_cast<unsigned long long>(seed), standing.meanHeight, sitting.meanHeight,
                sitting.maxStiffness, standingAgain.meanHeight, standingAgain.maxStiffness,
                result.minTorsoHeight);
    ASSERT_GT(sitting.samples, 10);
    EXPECT_LT(sitting.meanHeight, standing.meanHeight - sitsLowerBy);
    EXPECT_EQ(sitting.maxStiffness, 0.f); // limp: stiffness 0 sent to every joint
    EXPECT_NEAR(standingAgain.meanHeight, standing.meanHeight, standsAgainWithin);
    EXPECT_GT(standingAgain.maxStiffness, 0.5f);
    EXPECT_GT(result.minTorsoHeight, 0.15); // m: it sat, it never fell (a lying NAO's torso is ~0.1 m high)

    // The robot's own account: two debounced presses.
    const auto presses = test::framesOf<SitDown>(result.log, [](const SitDown& s) { return s.presses; });
    ASSERT_FALSE(presses.empty());
    EXPECT_EQ(presses.back(), 2u);
  }
}

TEST(SitDownSimulation, ALowBatterySitsDownAndWarnsAfterLowBatteryTime)
{
  SimulationOptions options = test::testRunOptions("lowbattery", 18.0 / 60.0, 1, "nao-sitdown-lowbattery");
  const SimulationResult result = runSimulation(options);

  // The warning is in the log lowBatteryTime (5 s) after the charge fell below the threshold, never earlier.
  struct Frame
  {
    double time;
    float charge;   ///< 0..1, the reading
    float believed; ///< 0..1, SensorHealth's
    SitDown sitDown;
  };
  const auto frames = test::framesOf<FrameInfo, BatteryData, SensorHealth, SitDown>(
      result.log,
      [](const FrameInfo& info, const BatteryData& battery, const SensorHealth& health,
         const SitDown& sitDown) {
        return Frame{info.time, battery.charge, health.batteryCharge, sitDown};
      });
  ASSERT_FALSE(frames.empty());
  double belowAt = -1, warnedAt = -1;
  for (const Frame& f : frames)
  {
    EXPECT_NEAR(f.believed, f.charge, 1e-6f) << f.time << ": a battery that behaves is believed";
    if (belowAt < 0 && f.charge < 0.1f) belowAt = f.time;
    if (warnedAt < 0 && f.sitDown.lowBattery) warnedAt = f.time;
    if (f.sitDown.lowBattery)
    {
      EXPECT_LT(f.charge, 0.1f) << f.time;
    }
  }
  ASSERT_GT(belowAt, 0.0);
  EXPECT_NEAR(warnedAt - belowAt, 5.0, 0.025) << "s: lowBatteryTime, never one frame";
  EXPECT_EQ(frames.back().sitDown.reason, SitDownReason::lowBattery);
  EXPECT_EQ(frames.back().sitDown.phase, SitDownPhase::sitting);
  EXPECT_FALSE(frames.back().sitDown.lowBatteryReadsFull);

  ASSERT_GT(warnedAt, 3.5) << "s: the robot stands from 1.5 s on";
  const Window standing = window(result, 2.0, 3.0);
  const Window sitting = window(result, warnedAt + 4.0, 18.0); // limp 3.8 s after the warning
  std::printf("lowbattery, seed 1 | %.3f | %.3f, %.2f | | %.3f (below 10 %% at %.2f s, warned at %.2f s)\n",
              standing.meanHeight, sitting.meanHeight, sitting.maxStiffness, result.minTorsoHeight, belowAt,
              warnedAt);
  ASSERT_GT(sitting.samples, 10);
  EXPECT_LT(sitting.meanHeight, standing.meanHeight - sitsLowerBy);
  EXPECT_EQ(sitting.maxStiffness, 0.f);
  EXPECT_GT(result.minTorsoHeight, 0.15);
}
