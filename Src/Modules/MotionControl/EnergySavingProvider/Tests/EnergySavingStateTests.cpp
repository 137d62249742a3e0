// States and transitions: off -> waiting -> working whenever requested, rounds every adjustWaitTime, base
// offsets (one sample, clamped, faded in, normal stand only), resets and what follows them (pick-up and
// put-down: working again without base offsets; not requested: off; posture changed: a fresh start), no
// motion-change detector.
#include "Framework/Controller.h"
#include "Modules/MotionControl/EnergySavingProvider/Tests/EnergySavingRig.h"
#include "Platform/StandIn/StandInBody.h"
#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <vector>

using namespace nao;
using namespace nao::energytest;

namespace
{
const double roundTime = milli(rule::adjustWaitTime);
const double debounce = milli(rule::groundContactDebounceTime);

/// Every offset is 0: the output is the incoming request.
void expectNoOffsets(const EnergySavingRig& rig, const char* when)
{
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    EXPECT_EQ(rig.output().angles[j], inputs().request.angles[j]) << name(jointAt(j)) << " " << when;
    EXPECT_EQ(rig.energy().baseOffsets[j], 0.f) << name(jointAt(j)) << " " << when;
  }
}
} // namespace

TEST(EnergySavingStates, StartsAtOnceWhenRequestedWithoutGroundContactAndWorksAfterMotionChangeWaitTime)
{
  for (double waitMs : {rule::motionChangeWaitTime, 200.0})
  {
    EnergySavingRig rig;
    rig.setParameter("motionChangeWaitTime", waitMs);
    rig.frame();
    EXPECT_EQ(rig.state(), EnergySavingState::waiting) << "in the first frame";
    EXPECT_FALSE(rig.energy().groundContact) << "not even debounced yet: the start does not need it";
    ASSERT_TRUE(rig.runUntilState(EnergySavingState::working, 1.0));
    EXPECT_GE(rig.time(), waitMs / 1000.0 - 1e-9);
    EXPECT_LT(rig.time(), waitMs / 1000.0 + frameTime);
  }
}

TEST(EnergySavingStates, WorksWithoutGroundContactAsWithIt)
{
  EnergySavingRig rig;
  Inputs& in = inputs();
  in.leftFootWeight = 0.4f;
  in.rightFootWeight = 0.5f; // 0.9 kg < 1 kg: lifted
  FallingCurrents currents;
  currents.heat(Joint::LHipPitch, 0.5f);
  rig.plant = &currents;
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::working, 1.0));
  for (double end = rig.time() + 3.0; rig.time() < end;)
  {
    rig.frame();
    ASSERT_EQ(rig.state(), EnergySavingState::working) << "at " << rig.time();
  }
  EXPECT_FALSE(rig.energy().groundContact);
  EXPECT_GE(rig.energy().rounds, 11u) << "3 s of rounds every 250 ms";
  EXPECT_EQ(rig.energy().lastResetReason, EnergySavingResetReason::none);
  EXPECT_GT(std::abs(rig.offset(Joint::LHipPitch)), m) << "the hot hip was adjusted";
}

TEST(EnergySavingStates, FirstRoundAdjustWaitTimeAfterWorkingBeginsThenOneEveryAdjustWaitTime)
{
  for (double intervalMs : {rule::adjustWaitTime, 400.0})
  {
    EnergySavingRig rig;
    rig.setParameter("adjustWaitTime", intervalMs);
    const double interval = intervalMs / 1000.0;
    ASSERT_TRUE(rig.runUntilState(EnergySavingState::working, 1.0));
    std::vector<double> roundTimes{rig.time()};
    for (int i = 0; i < 5; ++i)
    {
      ASSERT_TRUE(rig.runUntilNextRound());
      EXPECT_EQ(rig.state(), EnergySavingState::working);
      roundTimes.push_back(rig.time());
    }
    for (std::size_t i = 1; i < roundTimes.size(); ++i)
    {
      EXPECT_GE(roundTimes[i] - roundTimes[i - 1], interval - 1e-9) << intervalMs << " ms, round " << i;
      EXPECT_LT(roundTimes[i] - roundTimes[i - 1], interval + frameTime) << intervalMs << " ms, round " << i;
    }
  }
}

TEST(EnergySavingStates, BaseOffsetsAreOneSampleAtTheStartClampedAndFadedInOver60ms)
{
  EnergySavingRig rig;
  Inputs& in = inputs();
  in.measured[Joint::LKneePitch] = in.request.angles[Joint::LKneePitch] + 0.5f * degree;
  in.measured[Joint::RAnklePitch] = in.request.angles[Joint::RAnklePitch] - 4.f * degree; // beyond 3°
  in.measured[Joint::LShoulderRoll] = in.request.angles[Joint::LShoulderRoll] + 0.5f * degree;
  JointArray<float> base{}; // the rule: measured - requested at the start, clamped to ±maxBaseOffset
  for (Joint joint : {Joint::LKneePitch, Joint::RAnklePitch})
    base[joint] = std::clamp(in.measured[joint] - in.request.angles[joint], -deg(rule::maxBaseOffset),
                             deg(rule::maxBaseOffset));
  rig.frame();
  ASSERT_EQ(rig.state(), EnergySavingState::waiting);
  const double start = rig.time();
  EXPECT_EQ(rig.offset(Joint::LKneePitch), 0.f) << "the fade-in begins at 0";
  in.measured[Joint::LKneePitch] = in.request.angles[Joint::LKneePitch] + 0.8f * degree; // sags further
  bool sawPartialFade = false;
  while (rig.time() - start < 0.5) // into working; no current: no round changes an offset
  {
    rig.frame();
    const float ramp =
        static_cast<float>(std::min(1.0, (rig.time() - start) / milli(rule::baseOffsetFadeInTime)));
    sawPartialFade = sawPartialFade || (ramp > 0.f && ramp < 1.f);
    for (Joint joint : {Joint::LKneePitch, Joint::RAnklePitch})
    {
      EXPECT_NEAR(rig.offset(joint), ramp * base[joint], rad) << name(joint) << " at " << rig.time() - start;
      EXPECT_NEAR(rig.energy().baseOffsets[joint], ramp * base[joint], rad) << name(joint);
    }
  }
  EXPECT_TRUE(sawPartialFade);
  EXPECT_EQ(rig.state(), EnergySavingState::working);
  EXPECT_NEAR(base[Joint::RAnklePitch], -3.f * degree, rad);
  EXPECT_EQ(rig.offset(Joint::LShoulderRoll), 0.f) << "base offsets are for leg joints";
}

TEST(EnergySavingStates, NoBaseOffsetsInHighStandAccuratePositionsOrPostureNone)
{
  for (int variant = 0; variant < 3; ++variant)
  {
    EnergySavingRig rig;
    Inputs& in = inputs();
    in.energySaving = requestAll(variant == 0   ? EnergySavingPosture::highStand
                                 : variant == 1 ? EnergySavingPosture::stand
                                                : EnergySavingPosture::none);
    in.energySaving.accuratePositions = variant == 1;
    in.measured[Joint::LKneePitch] = in.request.angles[Joint::LKneePitch] + 0.5f * degree;
    ASSERT_TRUE(rig.runUntilState(EnergySavingState::working, 1.0));
    rig.runFor(0.1);
    expectNoOffsets(rig, variant == 0 ? "highStand" : variant == 1 ? "accuratePositions" : "none");
  }
}

TEST(EnergySavingStates, PickUpResetsOverResetTimeThenWorkingResumesWithoutBaseOffsets)
{
  EnergySavingRig rig;
  rig.setParameter("resetTime", 2000.0);
  Inputs& in = inputs();
  in.measured[Joint::LKneePitch] = in.request.angles[Joint::LKneePitch] + 0.8f * degree;
  in.measured[Joint::LAnklePitch] = in.request.angles[Joint::LAnklePitch] - 0.6f * degree;
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::working, 1.0));
  rig.runFor(0.3);
  JointArray<float> before;
  for (std::size_t j = 0; j < numOfJoints; ++j)
    before[j] = rig.offset(jointAt(j));
  ASSERT_NEAR(before[Joint::LKneePitch], 0.8f * degree, rad) << "the base offset";

  in.leftFootWeight = in.rightFootWeight = 0.f; // picked up
  FallingCurrents currents;                     // and the knee gets hot
  currents.heat(Joint::LKneePitch, 0.5f);
  rig.plant = &currents;
  const double liftedAt = rig.time() + frameTime;
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::resetState, 1.0));
  EXPECT_EQ(rig.energy().lastResetReason, EnergySavingResetReason::contactChanged);
  const double resetStart = rig.time();
  EXPECT_GE(resetStart - liftedAt, debounce - 1e-9) << "after the debounce";
  EXPECT_LT(resetStart - liftedAt, debounce + frameTime);
  while (rig.state() == EnergySavingState::resetState)
  {
    const float remaining = static_cast<float>(1.0 - (rig.time() - resetStart) / 2.0);
    for (Joint joint : {Joint::LKneePitch, Joint::LAnklePitch})
      EXPECT_NEAR(rig.offset(joint), remaining * before[joint], rad) << name(joint) << " at " << rig.time();
    rig.frame();
  }
  EXPECT_NEAR(rig.time() - resetStart, 2.0, frameTime + 1e-9);
  EXPECT_EQ(rig.state(), EnergySavingState::working) << "not off, not waiting";
  EXPECT_FALSE(rig.energy().groundContact);
  expectNoOffsets(rig, "after the reset");
  // Rounds go on, and the hot knee starts from 0: the reading lies 0.8° > maxGearStep above the target.
  ASSERT_TRUE(rig.runUntilNextRound(roundTime + frameTime));
  EXPECT_NEAR(rig.offset(Joint::LKneePitch), maxLeg, rad);
  ASSERT_TRUE(rig.runUntilNextRound(roundTime + frameTime));
  EXPECT_NEAR(rig.offset(Joint::LKneePitch), 2 * maxLeg, rad);
  EXPECT_EQ(rig.energy().baseOffsets[Joint::LKneePitch], 0.f);
  EXPECT_EQ(rig.state(), EnergySavingState::working);
}

TEST(EnergySavingStates, PutDownResetsThenWorkingResumesWithoutBaseOffsets)
{
  EnergySavingRig rig;
  Inputs& in = inputs();
  in.leftFootWeight = in.rightFootWeight = 0.f; // held in the air from the start
  in.measured[Joint::RKneePitch] = in.request.angles[Joint::RKneePitch] + 0.8f * degree;
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::working, 1.0));
  rig.runFor(0.3);
  ASSERT_NEAR(rig.offset(Joint::RKneePitch), 0.8f * degree, rad) << "base offsets without contact too";
  in.leftFootWeight = in.rightFootWeight = 2.6f; // put down
  const double putDownAt = rig.time() + frameTime;
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::resetState, 1.0));
  EXPECT_EQ(rig.energy().lastResetReason, EnergySavingResetReason::contactChanged);
  EXPECT_LT(rig.time() - putDownAt, debounce + frameTime);
  const double resetStart = rig.time();
  ASSERT_TRUE(rig.runUntil([&] { return rig.state() != EnergySavingState::resetState; }, 4.0));
  EXPECT_NEAR(rig.time() - resetStart, milli(rule::resetTime), frameTime + 1e-9);
  EXPECT_EQ(rig.state(), EnergySavingState::working);
  EXPECT_TRUE(rig.energy().groundContact);
  expectNoOffsets(rig, "after the reset");
  rig.runFor(1.0);
  EXPECT_EQ(rig.state(), EnergySavingState::working);
  expectNoOffsets(rig, "a second later");
}

TEST(EnergySavingStates, NotRequestedFadesOverResetTimeThenOffAndRequestingAgainTakesFreshBaseOffsets)
{
  EnergySavingRig rig;
  Inputs& in = inputs();
  in.measured[Joint::RKneePitch] = in.request.angles[Joint::RKneePitch] + 0.8f * degree;
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::working, 1.0));
  rig.runFor(0.3);
  const float before = rig.offset(Joint::RKneePitch);
  in.energySaving.adjust = false;
  rig.frame();
  EXPECT_EQ(rig.state(), EnergySavingState::resetState) << "at once";
  EXPECT_EQ(rig.energy().lastResetReason, EnergySavingResetReason::notRequested);
  const double resetStart = rig.time();
  while (rig.state() == EnergySavingState::resetState)
  {
    const float remaining = static_cast<float>(1.0 - (rig.time() - resetStart) / milli(rule::resetTime));
    EXPECT_NEAR(rig.offset(Joint::RKneePitch), remaining * before, rad) << "at " << rig.time();
    rig.frame();
  }
  EXPECT_NEAR(rig.time() - resetStart, milli(rule::resetTime), frameTime + 1e-9);
  EXPECT_EQ(rig.state(), EnergySavingState::off);
  for (int frame = 0; frame < 100; ++frame)
  {
    in.request.angles[Joint::LHipPitch] += 0.001f; // off: whatever the request does, it passes unchanged
    rig.frame();
    ASSERT_EQ(rig.state(), EnergySavingState::off);
    ASSERT_EQ(rig.output().angles, in.request.angles);
  }
  in.measured[Joint::RKneePitch] = in.request.angles[Joint::RKneePitch] + 0.3f * degree;
  in.energySaving.adjust = true;
  rig.frame();
  EXPECT_EQ(rig.state(), EnergySavingState::waiting);
  rig.runFor(0.1);
  EXPECT_NEAR(rig.offset(Joint::RKneePitch), 0.3f * degree, rad) << "the base offset of the new start";
}

TEST(EnergySavingStates, AJitteringRequestKeepsWorkingAndRoundsKeepComing)
{
  // A stand with balance feedback: the request jitters by ±0.02°. There is no motion-change detector.
  EnergySavingRig rig;
  Inputs& in = inputs();
  const StiffnessJointRequest stand = in.request;
  in.measured[Joint::LKneePitch] = stand.angles[Joint::LKneePitch] + 0.8f * degree;
  FallingCurrents currents;
  currents.heat(Joint::LHipPitch, 0.6f); // reading == request: in the agreement band, the sign table decides
  rig.plant = &currents;
  rig.setParameter("emergencyStepSignsStand.LHipPitch", -1);
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::working, 1.0));
  const float base = rig.energy().baseOffsets[Joint::LKneePitch];
  ASSERT_NEAR(base, 0.8f * degree, rad);
  const std::uint32_t rounds = rig.energy().rounds;
  double lastRound = rig.time();
  for (int frame = 0; frame < 500; ++frame) // 6 s
  {
    for (std::size_t j = index(Joint::LHipYawPitch); j <= index(Joint::RAnkleRoll); ++j)
      in.request.angles[j] = stand.angles[j] + (frame % 2 ? 0.02f : -0.02f) * degree;
    const std::uint32_t before = rig.energy().rounds;
    rig.frame();
    ASSERT_EQ(rig.state(), EnergySavingState::working) << "at " << rig.time();
    if (rig.energy().rounds != before) lastRound = rig.time();
    ASSERT_LT(rig.time() - lastRound, roundTime + frameTime) << "rounds keep coming";
  }
  const auto roundsRun = static_cast<float>(rig.energy().rounds - rounds);
  EXPECT_GE(roundsRun, 23.f) << "6 s of rounds every 252 ms";
  EXPECT_EQ(rig.energy().lastResetReason, EnergySavingResetReason::none);
  EXPECT_EQ(rig.energy().baseOffsets[Joint::LKneePitch], base) << "kept";
  EXPECT_NEAR(rig.offset(Joint::LHipPitch), -roundsRun * m, 1e-5f) << "one step every round";
}

TEST(EnergySavingStates, PostureChangeResetsThenRestartsWithFreshBaseOffsets)
{
  EnergySavingRig rig;
  Inputs& in = inputs();
  in.measured[Joint::LKneePitch] = in.request.angles[Joint::LKneePitch] + 0.8f * degree;
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::working, 1.0));
  rig.runFor(0.3);
  ASSERT_NEAR(rig.offset(Joint::LKneePitch), 0.8f * degree, rad);

  in.energySaving.posture = EnergySavingPosture::highStand;
  rig.frame();
  EXPECT_EQ(rig.state(), EnergySavingState::resetState);
  EXPECT_EQ(rig.energy().lastResetReason, EnergySavingResetReason::modeChanged);
  ASSERT_TRUE(rig.runUntil([&] { return rig.state() != EnergySavingState::resetState; }, 4.0));
  EXPECT_EQ(rig.state(), EnergySavingState::waiting) << "a fresh start";
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::working, 1.0));
  expectNoOffsets(rig, "in the high stand");

  in.measured[Joint::LKneePitch] = in.request.angles[Joint::LKneePitch] + 0.3f * degree;
  in.energySaving.posture = EnergySavingPosture::stand; // back
  rig.frame();
  EXPECT_EQ(rig.state(), EnergySavingState::resetState);
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::waiting, 4.0));
  rig.runFor(0.1);
  EXPECT_NEAR(rig.offset(Joint::LKneePitch), 0.3f * degree, rad) << "measured - requested now, not 0.8°";

  in.energySaving.accuratePositions = true; // a mode change too
  rig.frame();
  EXPECT_EQ(rig.state(), EnergySavingState::resetState);
  EXPECT_EQ(rig.energy().lastResetReason, EnergySavingResetReason::modeChanged);
}

TEST(EnergySavingStates, RunsAsTheLastStageBehindRealModulesOnTheStandInBody)
{
  // StandPoseProvider -> (off) -> (off) -> (off) -> (off) -> EnergySavingProvider, with the robot model of Config/Robots: the real
  // framework on the stand-in body, EnergySavingRequest from ScriptedProviders.cpp.
  StandInBody::Options options;
  options.frames = 1000;              // 12 s
  options.currentPerStiffness = 0.4f; // 0.3 A at stiffness 0.75: every leg joint over its threshold
  StandInBody body(options);
  Blackboard blackboard;
  MotionLoop motion(blackboard, body);
  Controller controller(ConfigLocation{NAO_CONFIG_DIR, "Default"}, blackboard, motion);
  inputs() = Inputs{};
  inputs().energySaving = requestAll(EnergySavingPosture::stand);
  const SourcePosition here{"test", 1, 1};
  controller.start({{"MotionJointRequest", "StandPoseProvider", here},
                    {"SafeMotionJointRequest", "off", here},
                    {"FallSafeJointRequest", "off", here},
                    {"CollisionFreeJointRequest", "off", here},
                    {"StiffnessJointRequest", "off", here},
                    {"RobotModel", "RobotModelProvider", here},
                    {"JointLimits", "RobotModelProvider", here},
                    {"JointTorques", "StaticTorqueProvider", here},
                    {"FilteredCurrent", "FilteredCurrentProvider", here},
                    {"EnergySavingRequest", "ScriptedEnergySavingRequest", here},
                    {"JointRequest", "EnergySavingProvider", here},
                    {"EnergySaving", "EnergySavingProvider", here},
                    {"FallDownState", "off", here}, // upright: the source's stand holds throughout
                    {"InertialData", "off", here},  // not valid: the static torque takes LoLA's Angles
                    {"SensorHealth", "off", here},  // every sensor valid
                    {"SitDown", "off", here},
                    {"FallProtection", "off", here}},
                   "stage-chain-test");
  bool worked = false;
  while (motion.runFrame())
  {
    const JointRequest& motionRequest = blackboard.get<MotionJointRequest>();
    const JointRequest& final = blackboard.get<JointRequest>();
    const JointLimits& limits = blackboard.get<JointLimits>();
    worked = worked || blackboard.get<EnergySaving>().state == EnergySavingState::working;
    for (std::size_t j = 0; j < numOfJoints; ++j)
    {
      ASSERT_TRUE(std::isfinite(final.angles[j]));
      EXPECT_LE(std::abs(final.angles[j] - motionRequest.angles[j]), 6.f * degree + 1e-6f) << "base + cap";
      EXPECT_EQ(final.stiffnesses[j], motionRequest.stiffnesses[j]);
      if (motionRequest.angles[j] >= limits.min[j] && motionRequest.angles[j] <= limits.max[j])
      {
        EXPECT_GE(final.angles[j], limits.min[j]) << name(jointAt(j));
        EXPECT_LE(final.angles[j], limits.max[j]) << name(jointAt(j));
      }
    }
  }
  EXPECT_TRUE(worked);
  EXPECT_GT(blackboard.get<EnergySaving>().rounds, 10u);
}
