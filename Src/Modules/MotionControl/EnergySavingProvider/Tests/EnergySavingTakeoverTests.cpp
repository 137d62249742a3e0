// The request is not the motion source's posture (MotionSourceHolds.h): a fall under way, a robot lying, the
// sit-down's or the protective fall's own motion. The stage resets (reason takenOver) over resetTime, stays off
// while it lasts, whatever EnergySavingRequest asks, and starts afresh once the source's posture holds again.
// Both heat adjustments share the cycle: each case runs with ours and with B-Human's rounds.
#include "Modules/MotionControl/EnergySavingProvider/Tests/EnergySavingRig.h"
#include <cmath>
#include <functional>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace nao;
using namespace nao::energytest;

namespace
{
struct Takeover
{
  std::string name;
  std::function<void(Inputs&)> begin; ///< what takes the motion over
  std::function<void(Inputs&)> end;   ///< the source's posture holds again
};

const std::vector<Takeover>& takeovers()
{
  static const std::vector<Takeover> cases{
      {"falling", [](Inputs& in) { in.fall.state = FallState::falling; },
       [](Inputs& in) { in.fall.state = FallState::upright; }},
      {"fallen", [](Inputs& in) { in.fall.state = FallState::fallen; },
       [](Inputs& in) { in.fall.state = FallState::upright; }},
      {"sitting down", [](Inputs& in) { in.sitDown.phase = SitDownPhase::sittingDown; },
       [](Inputs& in) { in.sitDown.phase = SitDownPhase::passThrough; }},
      {"standing up", [](Inputs& in) { in.sitDown.phase = SitDownPhase::standingUp; },
       [](Inputs& in) { in.sitDown.phase = SitDownPhase::passThrough; }},
      {"protecting", [](Inputs& in) { in.protection.phase = FallProtectionPhase::protecting; },
       [](Inputs& in) { in.protection.phase = FallProtectionPhase::passThrough; }},
      {"handing back", [](Inputs& in) { in.protection.phase = FallProtectionPhase::handingBack; },
       [](Inputs& in) { in.protection.phase = FallProtectionPhase::passThrough; }},
  };
  return cases;
}
} // namespace

TEST(EnergySavingTakeover, AFallOrATakeoverFadesTheOffsetsOutOverResetTimeAndKeepsTheStageOffUntilItEnds)
{
  for (const std::string module : {"EnergySavingProvider", "BHumanEnergySavingProvider"})
    for (const Takeover& takeover : takeovers())
    {
      SCOPED_TRACE(module + ", " + takeover.name);
      RigOptions options;
      options.module = module;
      EnergySavingRig rig(options);
      Inputs& in = inputs();
      // The knee reads 0.8° above its request: its base offset and the rounds move it away from the request.
      in.measured[Joint::RKneePitch] = in.request.angles[Joint::RKneePitch] + 0.8f * degree;
      FallingCurrents currents;
      currents.heat(Joint::RKneePitch, 0.6f);
      rig.plant = &currents;
      ASSERT_TRUE(rig.runUntilState(EnergySavingState::working, 1.0));
      rig.runFor(1.0);
      const float before = rig.offset(Joint::RKneePitch);
      ASSERT_GT(std::abs(before), 0.1f * degree) << "the stage had an offset to fade";

      takeover.begin(in);
      rig.frame();
      EXPECT_EQ(rig.state(), EnergySavingState::resetState) << "the same frame";
      EXPECT_EQ(rig.energy().lastResetReason, EnergySavingResetReason::takenOver);
      const double resetStart = rig.time();
      float last = rig.offset(Joint::RKneePitch);
      while (rig.state() == EnergySavingState::resetState)
      {
        rig.frame();
        // A linear fade: no frame moves the knee by more than its share of the offset (nothing jumps).
        const float offset = rig.offset(Joint::RKneePitch);
        ASSERT_LE(std::abs(offset - last), std::abs(before) * frameTime / milli(rule::resetTime) + rad)
            << "at " << rig.time();
        last = offset;
      }
      EXPECT_NEAR(rig.time() - resetStart, milli(rule::resetTime), frameTime + 1e-9);
      for (double end = rig.time() + 5.0; rig.time() < end;)
      {
        in.request.angles[Joint::LHipPitch] += 0.0001f; // whatever the request does, it passes unchanged
        rig.frame();
        ASSERT_EQ(rig.state(), EnergySavingState::off) << "at " << rig.time() << ": the source still asks";
        ASSERT_EQ(rig.output().angles, in.request.angles);
        ASSERT_EQ(rig.output().stiffnesses, in.request.stiffnesses);
      }

      takeover.end(in);
      rig.frame();
      EXPECT_EQ(rig.state(), EnergySavingState::waiting) << "a fresh start once the source's posture holds";
      EXPECT_TRUE(rig.runUntilState(EnergySavingState::working, 1.0));
    }
}

TEST(EnergySavingTakeover, StaggeringAndLiftedKeepItWorking)
{
  // Staggering may still be caught, and a lifted robot is the ground-contact rule's (B-Human's): both keep working.
  for (const FallState state : {FallState::staggering, FallState::lifted})
  {
    EnergySavingRig rig;
    Inputs& in = inputs();
    ASSERT_TRUE(rig.runUntilState(EnergySavingState::working, 1.0));
    in.fall.state = state;
    rig.runFor(1.0);
    EXPECT_EQ(rig.state(), EnergySavingState::working) << streams::enumName(state);
  }
}
