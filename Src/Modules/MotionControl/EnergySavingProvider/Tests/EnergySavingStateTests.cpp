// States and transitions: off -> waiting -> working, rounds, base offsets (fade-in, low-pass), resets
// (offsets too large with the centre of mass outside its window, pick-up, request stopped, posture changed)
// and their linear fades.
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
constexpr float rad = 1e-6f; ///< tolerance of angle comparisons, rad

/// Runs until the state is working and returns the time waiting began.
double startWorking(EnergySavingRig& rig)
{
  EXPECT_TRUE(rig.runUntilState(EnergySavingState::waiting, 1.0));
  const double waitingStart = rig.time();
  EXPECT_TRUE(rig.runUntilState(EnergySavingState::working, 1.0));
  return waitingStart;
}
} // namespace

TEST(EnergySavingStates, WaitsForGroundContactThenWaitsMotionChangeWaitTimeThenWorks)
{
  EnergySavingRig rig;
  rig.frame();
  EXPECT_EQ(rig.state(), EnergySavingState::off) << "contact needs the 100 ms debounce first";
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::waiting, 1.0));
  EXPECT_GE(rig.time(), 0.1);
  EXPECT_LT(rig.time(), 0.1 + frameTime);
  EXPECT_TRUE(rig.energy().groundContact);
  const double waitingStart = rig.time();
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::working, 1.0));
  EXPECT_GE(rig.time() - waitingStart, 0.1 - 1e-9);
  EXPECT_LT(rig.time() - waitingStart, 0.1 + frameTime);
}

TEST(EnergySavingStates, StaysOffWithoutGroundContact)
{
  EnergySavingRig rig;
  inputs().leftFootWeight = 0.4f;
  inputs().rightFootWeight = 0.5f; // 0.9 kg < 1 kg
  rig.runFor(3.0);
  EXPECT_EQ(rig.state(), EnergySavingState::off);
  EXPECT_FALSE(rig.energy().groundContact);
}

TEST(EnergySavingStates, OneRoundEveryAdjustWaitTimeStartingOneIntervalAfterWorkingBegins)
{
  EnergySavingRig rig;
  startWorking(rig);
  const double workingStart = rig.time();
  std::vector<double> roundTimes;
  for (int i = 0; i < 5; ++i)
  {
    ASSERT_TRUE(rig.runUntilNextRound());
    roundTimes.push_back(rig.time());
  }
  EXPECT_GE(roundTimes[0] - workingStart, 0.5 - 1e-9);
  EXPECT_LT(roundTimes[0] - workingStart, 0.5 + frameTime);
  for (std::size_t i = 1; i < roundTimes.size(); ++i)
  {
    EXPECT_GE(roundTimes[i] - roundTimes[i - 1], 0.5 - 1e-9);
    EXPECT_LT(roundTimes[i] - roundTimes[i - 1], 0.5 + frameTime);
  }
}

TEST(EnergySavingStates, BaseOffsetsInStandAreClampedFadedInOver60msAndLowPassedWhileWaiting)
{
  EnergySavingRig rig;
  Inputs& in = inputs();
  in.measured[Joint::LKneePitch] = in.request.angles[Joint::LKneePitch] + 0.5f * degree;
  in.measured[Joint::RAnklePitch] = in.request.angles[Joint::RAnklePitch] - 2.f * degree; // clamped to -1°
  in.measured[Joint::LShoulderRoll] = in.request.angles[Joint::LShoulderRoll] + 0.5f * degree; // arm: no base
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::waiting, 1.0));
  const double start = rig.time();
  float knee = 0.5f * degree; // the low-pass state, computed here from the rule 0.9 old + 0.1 new
  EXPECT_NEAR(rig.offset(Joint::LKneePitch), 0.f, rad) << "the fade-in begins at 0";
  bool sawPartialFade = false;
  while (rig.state() == EnergySavingState::waiting)
  {
    in.measured[Joint::LKneePitch] =
        in.request.angles[Joint::LKneePitch] + 0.8f * degree; // the knee sags further
    rig.frame();
    if (rig.state() != EnergySavingState::waiting) break;
    knee = 0.9f * knee + 0.1f * 0.8f * degree;
    const float ramp = static_cast<float>(std::min(1.0, (rig.time() - start) / 0.06));
    sawPartialFade = sawPartialFade || (ramp > 0.f && ramp < 1.f);
    EXPECT_NEAR(rig.offset(Joint::LKneePitch), ramp * knee, rad) << "t = " << rig.time() - start;
    EXPECT_NEAR(rig.offset(Joint::RAnklePitch), -ramp * 1.f * degree, rad);
    EXPECT_NEAR(rig.energy().baseOffsets[Joint::LKneePitch], ramp * knee, rad);
  }
  EXPECT_TRUE(sawPartialFade);
  EXPECT_EQ(rig.offset(Joint::LShoulderRoll), 0.f) << "base offsets are for leg joints";
  // In working the base offsets stay as they were at the end of waiting (no current: no rounds change them).
  const float kneeAtWorking = rig.offset(Joint::LKneePitch);
  rig.runFor(1.2);
  EXPECT_EQ(rig.state(), EnergySavingState::working);
  EXPECT_NEAR(rig.offset(Joint::LKneePitch), kneeAtWorking, rad);
}

TEST(EnergySavingStates, NoBaseOffsetsInHighStandOrAccuratePositions)
{
  for (bool accurate : {false, true})
  {
    EnergySavingRig rig;
    Inputs& in = inputs();
    in.energySaving = requestAll(accurate ? EnergySavingPosture::stand : EnergySavingPosture::highStand);
    in.energySaving.accuratePositions = accurate;
    in.measured[Joint::LKneePitch] = in.request.angles[Joint::LKneePitch] + 0.5f * degree;
    startWorking(rig);
    EXPECT_EQ(rig.offset(Joint::LKneePitch), 0.f) << (accurate ? "accuratePositions" : "highStand");
  }
}

TEST(EnergySavingStates, PickUpFadesOffsetsLinearlyOver3sThenStaysOffUntilPutDown)
{
  EnergySavingRig rig;
  Inputs& in = inputs();
  in.measured[Joint::LKneePitch] = in.request.angles[Joint::LKneePitch] + 0.8f * degree;
  in.measured[Joint::LAnklePitch] = in.request.angles[Joint::LAnklePitch] - 0.6f * degree;
  startWorking(rig);
  rig.runFor(0.3);
  JointArray<float> before;
  for (std::size_t j = 0; j < numOfJoints; ++j)
    before[j] = rig.offset(jointAt(j));
  ASSERT_GT(before[Joint::LKneePitch], 0.7f * degree);

  in.leftFootWeight = in.rightFootWeight = 0.f; // picked up
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::resetState, 1.0));
  EXPECT_EQ(rig.energy().lastResetReason, EnergySavingResetReason::contactChanged);
  const double resetStart = rig.time();
  EXPECT_GE(resetStart, 0.1) << "after the 100 ms debounce";
  while (rig.state() == EnergySavingState::resetState)
  {
    const float remaining = static_cast<float>(1.0 - (rig.time() - resetStart) / 3.0);
    for (Joint joint : {Joint::LKneePitch, Joint::LAnklePitch})
      EXPECT_NEAR(rig.offset(joint), remaining * before[joint], rad) << name(joint) << " at " << rig.time();
    rig.frame();
  }
  EXPECT_NEAR(rig.time() - resetStart, 3.0, frameTime + 1e-9);
  EXPECT_EQ(rig.state(), EnergySavingState::off);
  EXPECT_EQ(rig.output().angles, in.request.angles) << "off: the request passes unchanged";
  rig.runFor(2.0);
  EXPECT_EQ(rig.state(), EnergySavingState::off) << "no adjustment while lifted";

  in.leftFootWeight = in.rightFootWeight = 2.6f; // put down
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::waiting, 1.0));
  rig.runFor(0.2);
  EXPECT_NEAR(rig.offset(Joint::LKneePitch), 0.8f * degree, rad) << "the restart takes base offsets anew";
}

TEST(EnergySavingStates, StopRequestingResetsToOffAndRequestingAgainRestarts)
{
  EnergySavingRig rig;
  Inputs& in = inputs();
  in.measured[Joint::RKneePitch] = in.request.angles[Joint::RKneePitch] + 0.8f * degree;
  startWorking(rig);
  const float before = rig.offset(Joint::RKneePitch);
  in.energySaving.adjust = false;
  rig.frame();
  EXPECT_EQ(rig.state(), EnergySavingState::resetState);
  EXPECT_EQ(rig.energy().lastResetReason, EnergySavingResetReason::notRequested);
  rig.runFor(1.5);
  EXPECT_NEAR(rig.offset(Joint::RKneePitch), before * 0.5f, 0.01f * degree) << "half way through the fade";
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::off, 2.0));
  rig.runFor(1.0);
  EXPECT_EQ(rig.state(), EnergySavingState::off);
  in.energySaving.adjust = true;
  rig.frame();
  EXPECT_EQ(rig.state(), EnergySavingState::waiting);
}

TEST(EnergySavingStates, MovingRequestIsAMotionChangeBackToWaitingWithOffsetsKept)
{
  EnergySavingRig rig;
  Inputs& in = inputs();
  in.measured[Joint::LKneePitch] = in.request.angles[Joint::LKneePitch] + 0.8f * degree;
  startWorking(rig);
  const float knee = rig.offset(Joint::LKneePitch);
  const std::uint32_t rounds = rig.energy().rounds;
  for (int i = 0; i < 60; ++i) // 0.72 s of a moving request: longer than a round interval
  {
    in.request.angles[Joint::RHipPitch] += 0.02f * degree;
    rig.frame();
    EXPECT_EQ(rig.state(), EnergySavingState::waiting);
    EXPECT_NEAR(rig.offset(Joint::LKneePitch), knee, rad);
  }
  EXPECT_EQ(rig.energy().rounds, rounds) << "no rounds while the request moves";
  const double stopped = rig.time();
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::working, 1.0));
  EXPECT_GE(rig.time() - stopped, 0.1 - 1e-9);
  EXPECT_NEAR(rig.offset(Joint::LKneePitch), knee, rad) << "a motion change keeps the base offsets";
}

TEST(EnergySavingStates, PostureChangeResetsThenRestartsWithoutBaseOffsetsInHighStand)
{
  EnergySavingRig rig;
  Inputs& in = inputs();
  in.measured[Joint::LKneePitch] = in.request.angles[Joint::LKneePitch] + 0.8f * degree;
  startWorking(rig);
  in.energySaving.posture = EnergySavingPosture::highStand;
  rig.frame();
  EXPECT_EQ(rig.state(), EnergySavingState::resetState);
  EXPECT_EQ(rig.energy().lastResetReason, EnergySavingResetReason::modeChanged);
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::waiting, 4.0));
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::working, 1.0));
  EXPECT_EQ(rig.offset(Joint::LKneePitch), 0.f);
}

TEST(EnergySavingStates, RunsAsTheLastStageBehindRealModulesOnTheStandInBody)
{
  // StandPoseProvider -> (off) -> (off) -> EnergySavingProvider, with the robot model of Config/Robots.
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
                    {"CollisionFreeJointRequest", "off", here},
                    {"StiffnessJointRequest", "off", here},
                    {"RobotModel", "RobotModelProvider", here},
                    {"FilteredCurrent", "FilteredCurrentProvider", here},
                    {"EnergySavingRequest", "ScriptedEnergySavingRequest", here},
                    {"JointRequest", "EnergySavingProvider", here},
                    {"EnergySaving", "EnergySavingProvider", here}},
                   "stage-chain-test");
  bool worked = false;
  while (motion.runFrame())
  {
    const JointRequest& motionRequest = blackboard.get<MotionJointRequest>();
    const JointRequest& final = blackboard.get<JointRequest>();
    worked = worked || blackboard.get<EnergySaving>().state == EnergySavingState::working;
    for (std::size_t j = 0; j < numOfJoints; ++j)
    {
      ASSERT_TRUE(std::isfinite(final.angles[j]));
      EXPECT_LE(std::abs(final.angles[j] - motionRequest.angles[j]), 3.f * degree + 1e-6f);
      EXPECT_EQ(final.stiffnesses[j], motionRequest.stiffnesses[j]);
    }
  }
  EXPECT_TRUE(worked);
  EXPECT_GT(blackboard.get<EnergySaving>().rounds, 10u);
  EXPECT_EQ(blackboard.get<EnergySaving>().lastResetReason, EnergySavingResetReason::none)
      << "the stand's centre of mass lies inside the window, the feet carry the robot";
}
