// The hand-over (handOverLoads): a hip, knee or ankle pitch whose search stalls above its threshold holds a load
// its gears cannot, and the same joint of the other leg pushes one minGearStep more each round to take a share:
// until the stuck joint's current falls (it searches again from there), or handOverRounds rounds, then back and
// the other way, then no more. Never while either request moves (a balancer's wobble), never for roll joints.
#include "Modules/MotionControl/EnergySavingProvider/Tests/EnergySavingRig.h"
#include <gtest/gtest.h>

using namespace nao;
using namespace nao::energytest;

namespace
{
constexpr Joint knee = Joint::LKneePitch, mirror = Joint::RKneePitch;

/// High stand, working; the left knee draws 0.5 A, everything else nothing. Then the left knee's search
/// stalls (its currents rise at every step) until it has spent stalledRoundsToSettle rounds at the finest step:
/// from then on it counts as stuck.
void stallTheKnee(EnergySavingRig& rig)
{
  inputs().energySaving = requestAll(EnergySavingPosture::highStand);
  inputs().currents[knee] = 0.5f;
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::working, 1.0));
  for (float current : {0.50f, 0.40f, 0.46f, 0.52f, 0.58f, 0.64f})
    ASSERT_TRUE(rig.roundAt(knee, current));
}
} // namespace

TEST(EnergySavingHandOver, TheMirrorPushesOneStepARoundWhileTheStuckJointHolds)
{
  EnergySavingRig rig;
  stallTheKnee(rig);
  const float kneeOffset = rig.offset(knee);
  EXPECT_EQ(rig.offset(mirror), 0.f);
  // No robot model: the first way is +1. The hand-over started with the stalled round; one step a round from
  // the next, the stuck knee holding its offset meanwhile.
  for (int r = 1; r <= rule::handOverRounds; ++r)
  {
    ASSERT_TRUE(rig.roundAt(knee, 0.64f));
    EXPECT_NEAR(rig.offset(mirror), static_cast<float>(r) * m, rad) << "round " << r;
    EXPECT_EQ(rig.offset(knee), kneeOffset) << "round " << r;
  }
  // handOverRounds without effect: back to where it was, then the other way.
  ASSERT_TRUE(rig.roundAt(knee, 0.64f));
  EXPECT_NEAR(rig.offset(mirror), 0.f, rad);
  for (int r = 1; r <= rule::handOverRounds; ++r)
  {
    ASSERT_TRUE(rig.roundAt(knee, 0.64f));
    EXPECT_NEAR(rig.offset(mirror), -static_cast<float>(r) * m, rad) << "round " << r;
  }
  // Both ways tried: back again, and no more hand-over while this knee stays settled.
  ASSERT_TRUE(rig.roundAt(knee, 0.64f));
  EXPECT_NEAR(rig.offset(mirror), 0.f, rad);
  for (int r = 1; r <= 3; ++r)
  {
    ASSERT_TRUE(rig.roundAt(knee, 0.64f));
    EXPECT_NEAR(rig.offset(mirror), 0.f, rad);
  }
}

TEST(EnergySavingHandOver, TheFirstWayIsTheOneTheRobotModelSaysTheStuckJointMustPush)
{
  EnergySavingRig rig;
  inputs().torques.valid = true;
  inputs().torques.torques[knee] = -0.3f; // N·m the motor must produce: the mirror pushes the same way
  stallTheKnee(rig);
  ASSERT_TRUE(rig.roundAt(knee, 0.64f));
  EXPECT_NEAR(rig.offset(mirror), -m, rad);
}

TEST(EnergySavingHandOver, ACurrentThatFellEndsItAndTheJointSearchesAgainFromThere)
{
  EnergySavingRig rig;
  stallTheKnee(rig);
  ASSERT_TRUE(rig.roundAt(knee, 0.64f));
  ASSERT_TRUE(rig.roundAt(knee, 0.64f));
  ASSERT_NEAR(rig.offset(mirror), 2 * m, rad);
  const float kneeOffset = rig.offset(knee);
  // The push took a share: 0.35 A now, still above the threshold. The pusher keeps its offset; the knee
  // searches afresh (its first step: the sign table's -1, minGearStep), the mirror's own search is free again.
  ASSERT_TRUE(rig.roundAt(knee, 0.35f));
  EXPECT_NEAR(rig.offset(mirror), 2 * m, rad);
  ASSERT_TRUE(rig.roundAt(knee, 0.35f));
  EXPECT_NEAR(rig.offset(knee), kneeOffset - m, rad) << "a new search's first step";
  EXPECT_NEAR(rig.offset(mirror), 2 * m, rad) << "at 0 A the mirror has nothing to search";
}

TEST(EnergySavingHandOver, NeverWhileARequestMovesNorForRollJoints)
{
  {
    EnergySavingRig rig;
    stallTheKnee(rig);
    for (int r = 1; r <= 4; ++r)
    {
      inputs().request.angles[mirror] += (r % 2 ? 1.f : -1.f) * 0.02f * degree; // a balancer's wobble
      ASSERT_TRUE(rig.roundAt(knee, 0.64f));
      EXPECT_NEAR(rig.offset(mirror), 0.f, rad) << "round " << r;
    }
  }
  EnergySavingRig rig;
  inputs().energySaving = requestAll(EnergySavingPosture::highStand);
  inputs().currents[Joint::LHipRoll] = 0.5f;
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::working, 1.0));
  for (float current : {0.50f, 0.40f, 0.46f, 0.52f, 0.58f, 0.64f, 0.70f, 0.76f, 0.82f})
    ASSERT_TRUE(rig.roundAt(Joint::LHipRoll, current));
  EXPECT_EQ(rig.offset(Joint::RHipRoll), 0.f) << "the roll joints hand nothing over";
}

TEST(EnergySavingHandOver, BothJointsCountAsSearchedWhileItRuns)
{
  // The hand-over compares the stuck joint's current from round to round, and the pusher's push is what takes
  // the load: a stage before (smart stiffness) must leave both stiffnesses alone meanwhile.
  EnergySavingRig rig;
  stallTheKnee(rig);
  for (int r = 1; r <= 2 * rule::handOverRounds + 1; ++r)
  {
    ASSERT_TRUE(rig.roundAt(knee, 0.64f));
    EXPECT_TRUE(rig.energy().searching[knee]) << "round " << r;
    EXPECT_TRUE(rig.energy().searching[mirror]) << "round " << r << ": the pusher, at 0 A";
  }
  // Both ways tried: the mirror draws nothing and pushes no more; the knee's own search goes on.
  ASSERT_TRUE(rig.roundAt(knee, 0.64f));
  EXPECT_FALSE(rig.energy().searching[mirror]);
  EXPECT_TRUE(rig.energy().searching[knee]);
}
