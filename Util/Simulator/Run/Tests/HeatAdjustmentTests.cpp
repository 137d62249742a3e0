// The heat adjustment (EnergySavingProvider) frame by frame on simulated robots, from the robot's own log: a
// stand whose request wobbles like a balancer's, stepping in place, a pick-up and put-down, and the round
// logic's part in the result. (Figures over the whole ensemble: HeatAdjustmentEnsembleTests.)
#include "Representations/Infrastructure/FrameInfo.h"
#include "Representations/MotionControl/EnergySaving.h"
#include "Representations/MotionControl/EnergySavingRequest.h"
#include "Representations/MotionControl/JointRequest.h"
#include "Util/Simulator/Run/SimulationRun.h"
#include "Util/Simulator/Run/Tests/SimulationTestSupport.h"

#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <numbers>

using namespace nao;

namespace
{
constexpr float degree = std::numbers::pi_v<float> / 180.f;
constexpr double frameTime = 0.012; ///< s
/// rad: the most an offset may change in one frame: a round's largest step (maxGearStepLegs, 0.2°) or the
/// fade of a reset (3° over 3 s), whichever is larger, with a little room for float rounding.
constexpr float largestFrameChange = 0.2f * degree + 1e-6f;

struct Frame
{
  double time = 0;
  EnergySaving saving;
  bool asked = false;              ///< EnergySavingRequest::adjust
  JointArray<float> motion, final; ///< rad, MotionJointRequest and JointRequest angles
};

SimulationOptions optionsFor(const std::string& scenario, double minutes, std::uint64_t seed,
                             const std::string& preset = "")
{
  SimulationOptions options =
      test::testRunOptions(scenario, minutes, seed, "nao-heat-" + scenario + "-" + std::to_string(seed));
  options.preset = preset;
  // The heat adjustment alone: the smart stiffness stage in front of it changes what its rounds see where the
  // stand never settles (standjitter; README of SmartStiffnessProvider).
  options.providerOverrides = {{"StiffnessJointRequest", "off", {}}};
  return options;
}

/// Every frame of the run's log that holds all the representations a Frame needs.
std::vector<Frame> framesOf(const SimulationResult& result)
{
  return test::framesOf<FrameInfo, EnergySaving, EnergySavingRequest, MotionJointRequest, JointRequest>(
      result.log,
      [](const FrameInfo& info, const EnergySaving& saving, const EnergySavingRequest& asked,
         const MotionJointRequest& motion, const JointRequest& final) {
        return Frame{info.time, saving, asked.adjust, motion.angles, final.angles};
      });
}

float largestOffset(const EnergySaving& saving)
{
  float largest = 0;
  for (float offset : saving.offsets)
    largest = std::max(largest, std::abs(offset));
  return largest;
}

/// Nothing jumps: no offset changes by more than a round's largest step from one frame to the next, no offset
/// exceeds the 3° cap, and the final request is the motion's plus the reported offsets.
void expectNoJumps(const std::vector<Frame>& frames)
{
  for (std::size_t f = 1; f < frames.size(); ++f)
    for (std::size_t j = 0; j < numOfJoints; ++j)
    {
      const float change = std::abs(frames[f].saving.offsets[j] - frames[f - 1].saving.offsets[j]);
      ASSERT_LE(change, largestFrameChange) << jointNames[j] << " at " << frames[f].time << " s";
      ASSERT_LE(std::abs(frames[f].saving.offsets[j]), 3.f * degree + 1e-6f) << jointNames[j];
      ASSERT_NEAR(frames[f].final[j], frames[f].motion[j] + frames[f].saving.offsets[j], 1e-5f)
          << jointNames[j];
    }
}
} // namespace

TEST(HeatAdjustment, ABalancersWobbleOnTheRequestKeepsTheAdjustmentWorkingAndLowersTheCurrents)
{
  // standjitter: B-Human's stand whose leg requests wobble by ±0.02° (about one count of the boards' own
  // sensor) while held. No motion-change gate: the motion source still asks, so the module works on (B-Human
  // does the same). The wobble itself makes the motors push, so B-Human's 50 mA are out of reach; the legs
  // still draw clearly less than without the module.
  for (std::uint64_t seed : {100u, 101u, 102u})
  {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const SimulationResult on = runSimulation(optionsFor("standjitter", 2.0, seed));
    const std::vector<Frame> frames = framesOf(on);
    SimulationOptions offOptions = optionsFor("standjitter", 2.0, seed);
    offOptions.outputDirectory = on.summary.parent_path().string() + "-off";
    offOptions.writeLog = false;
    offOptions.providerOverrides = {
        {"JointRequest", "off", {}}, {"EnergySaving", "off", {}}, {"StiffnessJointRequest", "off", {}}};
    const SimulationResult off = runSimulation(offOptions);

    ASSERT_GT(frames.size(), 9900u) << "2 minutes of frames in the log";
    expectNoJumps(frames);
    std::size_t held = 0, working = 0;
    for (const Frame& frame : frames)
      if (frame.time > 3.0)
      {
        ++held;
        working += frame.saving.state == EnergySavingState::working;
      }
    EXPECT_EQ(working, held) << "working all the time the stand is held";
    EXPECT_GT(frames.back().saving.rounds, 400u) << "a round every 250 ms";

    double legsOn = 0, legsOff = 0;
    for (std::size_t j = 0; j < numOfJoints; ++j)
      if (isLegJoint(jointAt(j)))
      {
        legsOn += on.joints[j].meanCurrent;
        legsOff += off.joints[j].meanCurrent;
      }
    EXPECT_LT(legsOn, 0.85 * legsOff)
        << "mean leg current, summed: " << legsOn << " A on, " << legsOff << " A off";
  }
}

TEST(HeatAdjustment, SteppingAdjustsOnlyWhileStandingAndTheOffsetsFadeWhenTheRobotMoves)
{
  // stepping: 3 s of stand with heat adjustment between the weight shifts and foot lifts, which do not ask
  // for it.
  const SimulationResult result = runSimulation(optionsFor("stepping", 0.75, 103));
  const std::vector<Frame> frames = framesOf(result);
  ASSERT_GT(frames.size(), 3700u);
  expectNoJumps(frames);
  double notAskedSince = -1;
  int fades = 0;
  float largestWhileStanding = 0;
  for (std::size_t f = 1; f < frames.size(); ++f)
  {
    const Frame& frame = frames[f];
    if (frame.asked)
    {
      notAskedSince = -1;
      largestWhileStanding = std::max(largestWhileStanding, largestOffset(frame.saving));
      continue;
    }
    if (notAskedSince < 0)
    {
      notAskedSince = frame.time;
      fades += largestOffset(frames[f - 1].saving) > 0.f;
    }
    // Moving: no round moves an offset any further; each only shrinks, and all are gone 3 s (resetTime)
    // later.
    for (std::size_t j = 0; j < numOfJoints; ++j)
    {
      ASSERT_LE(std::abs(frame.saving.offsets[j]), std::abs(frames[f - 1].saving.offsets[j]) + 1e-7f)
          << jointNames[j] << " at " << frame.time << " s";
    }
    if (frame.time - notAskedSince > 3.0 + 2 * frameTime)
    {
      ASSERT_EQ(largestOffset(frame.saving), 0.f) << "at " << frame.time << " s";
    }
  }
  EXPECT_GT(largestWhileStanding, 0.01f * degree) << "the stands between the steps were adjusted";
  EXPECT_GE(fades, 3) << "each step began with offsets to fade";
}

TEST(HeatAdjustment, PickUpFadesTheOffsetsOverThreeSecondsAndWorkResumesAfterPutDown)
{
  // lifted: standing, picked up at 10 s, put down at 40 s. B-Human resets on every contact change and then
  // works on with the new contact; ours too, with the fade instead of a jump. Two new robots and a worn one.
  for (const auto& [seed, preset] :
       {std::pair<std::uint64_t, std::string>{104, ""}, {105, ""}, {119, "worn"}})
  {
    SCOPED_TRACE("seed " + std::to_string(seed) + " " + preset);
    const std::vector<Frame> frames =
        framesOf(runSimulation(optionsFor("lifted", 50.0 / 60.0, seed, preset)));
    ASSERT_GT(frames.size(), 4000u);
    expectNoJumps(frames);
    auto at = [&](double time) -> const Frame&
    {
      for (const Frame& frame : frames)
        if (frame.time >= time) return frame;
      return frames.back();
    };
    const float before = largestOffset(at(9.9).saving);
    EXPECT_EQ(at(9.9).saving.state, EnergySavingState::working);
    ASSERT_GT(before, 0.01f * degree) << "standing: the adjustment moved some request";

    // The feet leave the ground within the lift: the reset starts and fades every offset linearly over 3 s.
    double fadeStart = -1;
    for (const Frame& frame : frames)
      if (frame.time > 10.0 && frame.saving.state == EnergySavingState::resetState)
      {
        fadeStart = frame.time;
        break;
      }
    ASSERT_GT(fadeStart, 10.0) << "picking the robot up starts the reset";
    EXPECT_LT(fadeStart, 11.0);
    const EnergySaving& fading = at(fadeStart).saving;
    EXPECT_EQ(fading.lastResetReason, EnergySavingResetReason::contactChanged);
    const float start = largestOffset(fading);
    EXPECT_NEAR(largestOffset(at(fadeStart + 1.5).saving), start / 2, start * 0.05f + 1e-6f) << "halfway";
    EXPECT_GT(largestOffset(at(fadeStart + 2.9).saving), 0.f) << "still fading: not a jump";
    EXPECT_EQ(largestOffset(at(fadeStart + 3.0 + 2 * frameTime).saving), 0.f) << "faded out after 3 s";
    EXPECT_EQ(at(fadeStart + 3.1).saving.state, EnergySavingState::working) << "work resumes in the air";
    EXPECT_FALSE(at(20.0).saving.groundContact);

    // Put down at 40 s: another reset for the contact change, then work on the ground again.
    const Frame& down = at(48.0);
    EXPECT_TRUE(down.saving.groundContact);
    EXPECT_EQ(down.saving.state, EnergySavingState::working);
    EXPECT_GT(largestOffset(at(49.9).saving), 0.f) << "adjusting again after the put-down";
    EXPECT_EQ(at(49.9).saving.lastResetReason, EnergySavingResetReason::contactChanged);
  }
}

TEST(HeatAdjustment, WithoutItsRoundsTheModuleSavesNothing)
{
  // The base offsets alone (taken at the start, never adjusted: rounds a day apart) leave the knees far above
  // what the rounds reach: the simulated figures come from the round logic, not from the start.
  SimulationOptions options = optionsFor("stand", 1.0, 106);
  options.writeLog = false;
  const std::filesystem::path config = std::filesystem::temp_directory_path() / "nao-heat-no-rounds-config";
  std::filesystem::remove_all(config);
  std::filesystem::copy(NAO_CONFIG_DIR, config, std::filesystem::copy_options::recursive);
  std::ofstream(config / "Modules" / "EnergySavingProvider.toml", std::ios::app)
      << "\nadjustWaitTime = 60000.0\n";
  options.configDirectory = config;
  const SimulationResult withoutRounds = runSimulation(options);
  options.configDirectory = NAO_CONFIG_DIR;
  const SimulationResult withRounds = runSimulation(options);
  double worstWithout = 0, worstWith = 0;
  for (Joint knee : {Joint::LKneePitch, Joint::RKneePitch})
  {
    worstWithout = std::max(worstWithout, withoutRounds.joints[index(knee)].finalCurrent);
    worstWith = std::max(worstWith, withRounds.joints[index(knee)].finalCurrent);
  }
  EXPECT_GT(worstWithout, 0.3) << "A: base offsets alone";
  EXPECT_LT(worstWith, 0.05) << "A: with the rounds";
}
