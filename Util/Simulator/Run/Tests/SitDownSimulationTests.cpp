// SitDownProvider on the simulated robot, judged by the simulator's truth (torso height) and by what the plant
// applies (the stiffness the robot sent): Config/Scenarios/chestbutton.toml (a press while standing, a second press
// later) and Config/Scenarios/lowbattery.toml (a battery that starts just above the threshold and runs down at the
// rate its current draws). The measurement is SitDownEvaluation.h's; `Simulator sitdown` writes its tables into
// Docs/Results/SitDown.md (SitDownProvider's README).
#include "Util/Simulator/Run/SitDownEvaluation.h"

#include <cstdio>
#include <filesystem>
#include <gtest/gtest.h>

using namespace nao;

namespace
{
/// A run of `scenario` on robot `seed` in the fresh folder <temp>/`folder`.
SimulationResult run(const std::string& scenario, std::uint64_t seed, const std::string& folder)
{
  return runSitDownScenario(NAO_CONFIG_DIR, scenario, seed, std::filesystem::temp_directory_path() / folder);
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
    const ChestButtonOutcome outcome =
        evaluateChestButtonRun(run("chestbutton", seed, "nao-sitdown-chestbutton"));
    const SitDownWindow& standing = outcome.standing;           // before the press at 4 s
    const SitDownWindow& sitting = outcome.sitting;             // limp, before the next press
    const SitDownWindow& standingAgain = outcome.standingAgain; // after 3 s of standing up
    std::printf("chestbutton, seed %llu | %.3f | %.3f, %.2f | %.3f, %.2f | %.3f\n",
                static_cast<unsigned long long>(seed), standing.meanHeight, sitting.meanHeight,
                sitting.maxStiffness, standingAgain.meanHeight, standingAgain.maxStiffness,
                outcome.minTorsoHeight);
    ASSERT_GT(sitting.samples, 10);
    EXPECT_LT(sitting.meanHeight, standing.meanHeight - sitsLowerBy);
    EXPECT_EQ(sitting.maxStiffness, 0.f); // limp: stiffness 0 sent to every joint
    EXPECT_NEAR(standingAgain.meanHeight, standing.meanHeight, standsAgainWithin);
    EXPECT_GT(standingAgain.maxStiffness, 0.5f);
    EXPECT_GT(outcome.minTorsoHeight, 0.15); // m: it sat, it never fell (a lying NAO's torso is ~0.1 m high)

    // The robot's own account: two debounced presses.
    ASSERT_TRUE(outcome.presses.has_value());
    EXPECT_EQ(*outcome.presses, 2u);
  }
}

TEST(SitDownSimulation, ALowBatterySitsDownAndWarnsAfterLowBatteryTime)
{
  const LowBatteryOutcome outcome = evaluateLowBatteryRun(run("lowbattery", 1, "nao-sitdown-lowbattery"));

  // The warning is in the log lowBatteryTime (5 s) after the charge fell below the threshold, never earlier.
  const std::vector<LowBatteryFrame>& frames = outcome.frames;
  ASSERT_FALSE(frames.empty());
  const double belowAt = outcome.belowAt, warnedAt = outcome.warnedAt; // the first frames below, warned
  for (const LowBatteryFrame& f : frames)
  {
    EXPECT_NEAR(f.believed, f.charge, 1e-6f) << f.time << ": a battery that behaves is believed";
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
  const SitDownWindow& standing = outcome.standing; // 2..3 s
  const SitDownWindow& sitting = outcome.sitting;   // limp 3.8 s after the warning: from 4 s after it to 18 s
  std::printf("lowbattery, seed 1 | %.3f | %.3f, %.2f | | %.3f (below 10 %% at %.2f s, warned at %.2f s)\n",
              standing.meanHeight, sitting.meanHeight, sitting.maxStiffness, outcome.minTorsoHeight, belowAt,
              warnedAt);
  ASSERT_GT(sitting.samples, 10);
  EXPECT_LT(sitting.meanHeight, standing.meanHeight - sitsLowerBy);
  EXPECT_EQ(sitting.maxStiffness, 0.f);
  EXPECT_GT(outcome.minTorsoHeight, 0.15);
}
