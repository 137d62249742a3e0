// The heat adjustment and a stage before it that changes stiffness (smart stiffness): a joint's search compares
// currents of one stiffness only (a change since the last round starts it afresh, without a step), and
// EnergySaving::searching says which joints are being searched, so that the stage before leaves them alone.
// High stand throughout, as EnergySavingSearchTests.
#include "Modules/MotionControl/EnergySavingProvider/Tests/EnergySavingRig.h"
#include <gtest/gtest.h>

using namespace nao;
using namespace nao::energytest;

namespace
{
constexpr Joint knee = Joint::LKneePitch;

/// Working in the high stand, before the first round, the knee drawing `amperes` (every other joint 0 A).
void startHighStand(EnergySavingRig& rig, float amperes)
{
  inputs().currents[knee] = amperes;
  inputs().energySaving = requestAll(EnergySavingPosture::highStand);
  rig.setParameter("emergencyStepSignsHighStand.LKneePitch", -1);
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::working, 1.0));
}

void round(EnergySavingRig& rig, float amperes)
{
  inputs().currents[knee] = amperes;
  ASSERT_TRUE(rig.runUntilNextRound());
}
} // namespace

TEST(EnergySavingStiffness, AStiffnessChangeDuringTheSearchStartsItAfreshWithoutAStep)
{
  EnergySavingRig rig;
  startHighStand(rig, 0.5f);
  round(rig, 0.5f);  // the first step: the sign table's -1, minGearStep
  round(rig, 0.49f); // lower: on by the same step
  ASSERT_NEAR(rig.offset(knee), -2 * m, rad);
  // A stage before limits the knee: its current falls because of the limit, not of the offset. Without the
  // rule this "lower" current would carry the search on to -3 m.
  inputs().request.stiffnesses[knee] = 0.4f;
  round(rig, 0.30f);
  EXPECT_NEAR(rig.offset(knee), -2 * m, rad)
      << "no step in a round whose current window mixes two stiffnesses";
  round(rig, 0.30f); // a new search at stiffness 0.4: its first step (reading within the band: sign table)
  EXPECT_NEAR(rig.offset(knee), -3 * m, rad);
  // 0.36 A: lower than the 0.49 A of the old stiffness (would go on), higher than this search's 0.30 A by more
  // than the tolerance: the new search turns round with half the step.
  round(rig, 0.36f);
  EXPECT_NEAR(rig.offset(knee), -2.5f * m, rad) << "compared with the rounds of the new stiffness only";
}

TEST(EnergySavingStiffness, AStiffnessThatChangedAndCameBackWithinARoundStillCounts)
{
  EnergySavingRig rig;
  startHighStand(rig, 0.5f);
  round(rig, 0.5f);
  ASSERT_NEAR(rig.offset(knee), -m, rad);
  inputs().request.stiffnesses[knee] = 0.3f; // one frame at 0.3, then 1 again (the window saw both)
  rig.frame();
  inputs().request.stiffnesses[knee] = 1.f;
  round(rig, 0.45f);
  EXPECT_NEAR(rig.offset(knee), -m, rad);
  round(rig, 0.45f); // the fresh search's first step
  EXPECT_NEAR(rig.offset(knee), -2 * m, rad);
}

TEST(EnergySavingStiffness, SearchingNamesTheJointsWhoseSearchIsUnderWay)
{
  EnergySavingRig rig;
  rig.setParameter("handOverRounds", 0); // the settled knee alone, no hand-over to its mirror
  EXPECT_FALSE(rig.energy().searching[knee]) << "off: nothing searched";
  startHighStand(rig, 0.5f);
  // Working, before the first round: every adjusted joint counts as searched; skipped ones (head, hands) not.
  EXPECT_TRUE(rig.energy().searching[knee]);
  EXPECT_TRUE(rig.energy().searching[Joint::LShoulderRoll]);
  EXPECT_FALSE(rig.energy().searching[Joint::HeadYaw]);
  EXPECT_FALSE(rig.energy().searching[Joint::LHand]);
  // The first round: the knee above its threshold searches, joints at 0 A have nothing to search.
  round(rig, 0.5f);
  EXPECT_TRUE(rig.energy().searching[knee]);
  EXPECT_FALSE(rig.energy().searching[Joint::RKneePitch]);
  EXPECT_FALSE(rig.energy().searching[Joint::LShoulderRoll]);
  // A search that stalls at its finest step settles (EnergySavingSearchTests' currents): held, not searched.
  for (float current : {0.40f, 0.46f, 0.52f, 0.58f, 0.64f, 0.70f})
  {
    round(rig, current);
    EXPECT_TRUE(rig.energy().searching[knee]) << current << " A";
  }
  round(rig, 0.76f);
  EXPECT_FALSE(rig.energy().searching[knee]) << "settled";
  round(rig, 0.5f); // a lower current (a limit cut in) leaves it settled
  EXPECT_FALSE(rig.energy().searching[knee]);
  round(rig, 0.87f); // beyond the threshold above the search's highest: searched again
  EXPECT_TRUE(rig.energy().searching[knee]);
  inputs().energySaving.adjust = false; // the motion source stops asking: the reset searches nothing
  rig.frame();
  EXPECT_EQ(rig.state(), EnergySavingState::resetState);
  EXPECT_FALSE(rig.energy().searching[knee]);
}
