// The search for the offset of least current (OffsetSearch): the same step while the current falls, turn round
// with half the step when it rises by more than searchCurrentTolerance, never below minGearStep ×
// minSearchStepFraction, a new search once the joint was at or below its threshold, settling on the least
// current's offset (no emergency steps), and the sag bound (maxSag). A limb adjusted again after an arm motion
// starts a new search.
// High stand throughout: no base offsets, and offsets at the cap do not reset there (the CoM lies in its
// window).
#include "Modules/MotionControl/EnergySavingProvider/Tests/EnergySavingRig.h"
#include <algorithm>
#include <gtest/gtest.h>
#include <initializer_list>

using namespace nao;
using namespace nao::energytest;

namespace
{
/// A rig in the high stand whose sign table gives the knee and the ankle -1 and RHipRoll +1, working, before
/// its first round; `joints` draw `amperes` from the start, so that the first round's current window holds
/// nothing else.
void startHighStand(EnergySavingRig& rig, std::initializer_list<Joint> joints, float amperes)
{
  for (Joint joint : joints)
    inputs().currents[joint] = amperes;
  inputs().energySaving = requestAll(EnergySavingPosture::highStand);
  rig.setParameter("emergencyStepSignsHighStand.LKneePitch", -1);
  rig.setParameter("emergencyStepSignsHighStand.LAnklePitch", -1);
  rig.setParameter("emergencyStepSignsHighStand.RHipRoll", 1);
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::working, 1.0));
}

/// Sets the current of every joint in `joints` to `amperes` and runs the next round.
void round(EnergySavingRig& rig, std::initializer_list<Joint> joints, float amperes)
{
  for (Joint joint : joints)
    inputs().currents[joint] = amperes;
  ASSERT_TRUE(rig.runUntilNextRound());
}
} // namespace

TEST(EnergySavingSearch, WhileTheCurrentFallsTheSearchGoesOnTheSameWayByTheSameStep)
{
  EnergySavingRig rig;
  Inputs& in = inputs();
  // The knee reads its request (agreement band: the sign table's -1, minGearStep); the ankle reads 0.45°
  // above (the first step towards it, maxGearStep): both go on past the reading as long as the current falls.
  in.measured[Joint::LAnklePitch] = in.request.angles[Joint::LAnklePitch] + 0.45f * degree;
  startHighStand(rig, {Joint::LKneePitch, Joint::LAnklePitch}, 0.49f);
  for (int r = 1; r <= 5; ++r)
  {
    round(rig, {Joint::LKneePitch, Joint::LAnklePitch}, 0.5f - 0.01f * static_cast<float>(r));
    EXPECT_NEAR(rig.offset(Joint::LKneePitch), -static_cast<float>(r) * m, rad) << "round " << r;
    EXPECT_NEAR(rig.offset(Joint::LAnklePitch), static_cast<float>(r) * maxLeg, 1e-5f) << "round " << r;
  }
}

TEST(EnergySavingSearch, ACurrentHigherByMoreThanTheToleranceTurnsRoundWithHalfTheStepDownToTheFloor)
{
  for (double fraction : {rule::minSearchStepFraction, 0.25})
  {
    EnergySavingRig rig;
    rig.setParameter("handOverRounds", 0); // the search alone (EnergySavingHandOverTests: the hand-over)
    rig.setParameter("minSearchStepFraction", fraction);
    rig.setParameter("stalledRoundsToSettle", 1000); // no settling: the floor alone
    startHighStand(rig, {Joint::LKneePitch}, 0.5f);
    const float floor = m * static_cast<float>(fraction);
    float expected = -m, step = m, direction = -1.f; // the first step: the sign table's -1, minGearStep
    round(rig, {Joint::LKneePitch}, 0.5f);
    EXPECT_NEAR(rig.offset(Joint::LKneePitch), expected, rad);
    for (int r = 2; r <= 8; ++r)
    {
      const float tolerance = milli(rule::searchCurrentTolerance);
      round(rig, {Joint::LKneePitch},
            0.5f + (tolerance + 0.001f) * static_cast<float>(r - 1)); // each 6 mA up
      direction = -direction;
      step = std::max(0.5f * step, floor);
      expected += direction * step;
      EXPECT_NEAR(rig.offset(Joint::LKneePitch), expected, rad) << "fraction " << fraction << ", round " << r;
    }
    EXPECT_EQ(step, floor) << "the test reached the floor";
  }
}

TEST(EnergySavingSearch, ACurrentHigherByNoMoreThanTheToleranceKeepsTheWayAndTheStep)
{
  // OffsetSearch: "lower or no different: the same step again" (the current is a staircase over the offset).
  EnergySavingRig rig;
  startHighStand(rig, {Joint::LKneePitch}, 0.5f);
  float previous = 0.5f;
  round(rig, {Joint::LKneePitch}, previous);
  for (float rise : {0.004f, 0.f, 0.0049f})
  {
    previous += rise;
    round(rig, {Joint::LKneePitch}, previous);
  }
  EXPECT_NEAR(rig.offset(Joint::LKneePitch), -4 * m, rad);
  round(rig, {Joint::LKneePitch}, previous + 0.006f); // more than the tolerance: turn round
  EXPECT_NEAR(rig.offset(Joint::LKneePitch), -4 * m + 0.5f * m, rad);
}

TEST(EnergySavingSearch, AJointAtOrBelowItsThresholdStartsANewSearchFromTheTargetTowardsTheReading)
{
  EnergySavingRig rig;
  Inputs& in = inputs();
  in.measured[Joint::LAnklePitch] = in.request.angles[Joint::LAnklePitch] + 0.45f * degree;
  startHighStand(rig, {Joint::LAnklePitch}, 0.5f);
  const float threshold = milli(rule::legCurrentThreshold);
  const Joint ankle = Joint::LAnklePitch;
  round(rig, {ankle}, 0.5f); // 0.45° > maxGearStep from the target: +maxGearStep
  EXPECT_NEAR(rig.offset(ankle), maxLeg, rad);
  round(rig, {ankle}, 0.6f); // worse: back by half
  EXPECT_NEAR(rig.offset(ankle), 0.5f * maxLeg, rad);
  round(rig, {ankle}, threshold - 0.01f); // below the threshold: no step, the search ends
  EXPECT_NEAR(rig.offset(ankle), 0.5f * maxLeg, rad);
  round(rig, {ankle}, 0.5f); // lower than 0.6 A, but a new search: 0.35° from the target, +maxGearStep
  EXPECT_NEAR(rig.offset(ankle), 1.5f * maxLeg, rad) << "the old search would have gone on down by 0.1°";
  // 0.15° from the target: farther than the agreement band, within maxGearStep: +minGearStep, search after
  // search, until the reading lies within the band: then the sign table's -1.
  float expected = 1.5f * maxLeg;
  for (int search = 0; search < 4; ++search)
  {
    round(rig, {ankle}, search == 0 ? threshold : threshold - 0.02f); // at the threshold counts as done
    EXPECT_NEAR(rig.offset(ankle), expected, rad);
    const float fromTarget = 0.45f * degree - expected;
    expected += fromTarget > deg(rule::agreementBand) ? m : -m;
    round(rig, {ankle}, 0.5f);
    EXPECT_NEAR(rig.offset(ankle), expected, rad)
        << "search " << search << ", reading " << fromTarget / degree << "° from the target";
  }
  EXPECT_NEAR(expected, 1.5f * maxLeg + 2 * m, rad) << "the test reached the band: 3 steps up, then 1 down";
}

namespace
{
/// The currents of a search that reaches the floor and stalls there (round 8: the fourth at the finest step).
/// Least current 0.40 A in round 2, drawn at the offset of the first step.
constexpr float stallingCurrents[8] = {0.50f, 0.40f, 0.46f, 0.52f, 0.58f, 0.64f, 0.70f, 0.76f};
/// The offsets they give by the rule, for a first step of `first` (sign ±1, size minGearStep): lower, the
/// same step; then four rises: turn round with half the step, down to minGearStep / 8 (from round 5 on), where
/// the fourth round settles (the eighth).
constexpr int stallingRounds = 7; ///< rounds before the one that settles
float stallingOffset(int r, float first)
{
  constexpr float afterRound[stallingRounds] = {1.f, 2.f, 1.5f, 1.75f, 1.625f, 1.75f, 1.625f}; // × first
  return afterRound[r - 1] * first;
}
} // namespace

TEST(EnergySavingSearch, AStalledSearchSettlesOnTheOffsetOfLeastCurrentAndHoldsUntilTheCurrentRises)
{
  EnergySavingRig rig;
  rig.setParameter("handOverRounds", 0); // the settling alone (EnergySavingHandOverTests: the hand-over)
  startHighStand(rig, {Joint::LKneePitch}, stallingCurrents[0]);
  const Joint knee = Joint::LKneePitch;
  for (int r = 1; r <= stallingRounds; ++r)
  {
    round(rig, {knee}, stallingCurrents[r - 1]);
    ASSERT_NEAR(rig.offset(knee), stallingOffset(r, -m), rad) << "round " << r;
  }
  round(rig, {knee},
        stallingCurrents[stallingRounds]); // four rounds at the finest step: settle where 0.40 A was
  EXPECT_NEAR(rig.offset(knee), -m, rad);
  for (float current : {0.45f, 0.85f, 0.45f}) // within the threshold (100 mA) of the search's highest: hold
  {
    round(rig, {knee}, current);
    EXPECT_NEAR(rig.offset(knee), -m, rad) << current << " A";
  }
  round(rig, {knee}, 0.87f); // 0.76 A + 100 mA exceeded: a new search, its first step
  EXPECT_NEAR(rig.offset(knee), -2 * m, rad);
  EXPECT_EQ(rig.energy().emergencySteps, 0u);
}

TEST(EnergySavingSearch, AStalledSearchSettlesWithoutEmergencySteps)
{
  EnergySavingRig rig;
  rig.setParameter("handOverRounds", 0); // the search alone (EnergySavingHandOverTests: the hand-over)
  Inputs& in = inputs();
  // The knee reads its request (sign table -1); the hip roll reads 0.15° below (sign table +1, reading -1).
  in.measured[Joint::RHipRoll] = in.request.angles[Joint::RHipRoll] - 0.15f * degree;
  startHighStand(rig, {Joint::LKneePitch, Joint::RHipRoll}, stallingCurrents[0]);
  for (int r = 1; r <= stallingRounds; ++r)
  {
    round(rig, {Joint::LKneePitch, Joint::RHipRoll}, stallingCurrents[r - 1]);
    ASSERT_NEAR(rig.offset(Joint::LKneePitch), stallingOffset(r, -m), rad) << "round " << r;
    ASSERT_NEAR(rig.offset(Joint::RHipRoll), stallingOffset(r, -m), rad) << "round " << r;
  }
  round(rig, {Joint::LKneePitch, Joint::RHipRoll}, stallingCurrents[stallingRounds]);
  for (int r = 0; r < 2 * rule::stepsBeforeEmergencyStep; ++r) // B-Human's would make two emergency steps
  {
    round(rig, {Joint::LKneePitch, Joint::RHipRoll}, 0.45f); // within the threshold of the least: held
    EXPECT_NEAR(rig.offset(Joint::LKneePitch), -m, rad) << "settled";
    EXPECT_NEAR(rig.offset(Joint::RHipRoll), -m, rad) << "settled";
  }
  EXPECT_EQ(rig.energy().emergencySteps, 0u);
}

TEST(EnergySavingSearch, AJointThatGaveWayMoreThanMaxSagIsFollowedOnlyUpToThatSagPlusTheBand)
{
  EnergySavingRig rig;
  Inputs& in = inputs();
  const float band = deg(rule::agreementBand);
  in.measured[Joint::LKneePitch] = in.request.angles[Joint::LKneePitch] + 1.f * degree;    // given way
  in.measured[Joint::RAnklePitch] = in.request.angles[Joint::RAnklePitch] - 0.8f * degree; // given way
  in.measured[Joint::LHipPitch] = in.request.angles[Joint::LHipPitch] + 0.45f * degree; // < maxSag: no bound
  const auto joints = {Joint::LKneePitch, Joint::RAnklePitch, Joint::LHipPitch};
  startHighStand(rig, joints, 0.99f);
  for (int r = 1; r <= 8; ++r)
  {
    round(rig, joints, 1.f - 0.01f * static_cast<float>(r)); // falling: each goes on by maxGearStep
    const float free = static_cast<float>(r) * maxLeg;
    EXPECT_NEAR(rig.offset(Joint::LKneePitch), std::min(free, 1.f * degree + band), 1e-5f) << "round " << r;
    EXPECT_NEAR(rig.offset(Joint::RAnklePitch), std::max(-free, -0.8f * degree - band), 1e-5f)
        << "round " << r;
    EXPECT_NEAR(rig.offset(Joint::LHipPitch), free, 1e-5f) << "round " << r;
  }
  round(rig, {Joint::LKneePitch}, 1.f); // worse: back by half a step, the other way is free
  EXPECT_NEAR(rig.offset(Joint::LKneePitch), 1.f * degree + band - 0.5f * maxLeg, 1e-5f);
}

// withinSagBound() once picked the direction to hold back by the sign of this round's sag, not of the bound: once
// the reading lay on the other side, every step the other way was cut to nothing (the offset stayed at 0.2°).
TEST(EnergySavingSearch, TheSagBoundHoldsBackOnlyTheWayTheJointGaveWay)
{
  // The knee gave way upwards (bound +1.088°); later its reading lies below the request (it was pushed back).
  // Steps down are not "further in that direction" and must stay free.
  EnergySavingRig rig;
  Inputs& in = inputs();
  in.measured[Joint::LKneePitch] = in.request.angles[Joint::LKneePitch] + 1.f * degree;
  startHighStand(rig, {Joint::LKneePitch}, 1.f);
  round(rig, {Joint::LKneePitch}, 1.f);
  ASSERT_NEAR(rig.offset(Joint::LKneePitch), maxLeg, rad);
  in.measured[Joint::LKneePitch] = in.request.angles[Joint::LKneePitch] - 0.3f * degree;
  round(rig, {Joint::LKneePitch}, 1.1f); // worse: turn round, half the step, downwards
  EXPECT_NEAR(rig.offset(Joint::LKneePitch), 0.5f * maxLeg, rad);
  round(rig, {Joint::LKneePitch}, 1.f); // better: on down
  EXPECT_NEAR(rig.offset(Joint::LKneePitch), 0.f, rad);
}

// A limb the request stopped letting us adjust once kept its old search through the fade: adjusted again, its
// next round compared the current with the one before the fade and, the arm hotter after its motion, turned
// round (-maxGearStepArms / 2, away from the reading 3° above) instead of starting anew (+maxGearStepArms) as
// an arm joint does after a fade from the cap.
TEST(EnergySavingSearch, ALimbAdjustedAgainStartsANewSearch)
{
  EnergySavingRig rig;
  Inputs& in = inputs();
  in.measured[Joint::LShoulderRoll] = in.request.angles[Joint::LShoulderRoll] + 3.f * degree;
  in.currents[Joint::LShoulderRoll] = 0.5f;
  ASSERT_TRUE(rig.runUntilNextRound());
  ASSERT_TRUE(rig.roundAt(Joint::LShoulderRoll, 0.49f));
  ASSERT_NEAR(rig.offset(Joint::LShoulderRoll), 2 * deg(rule::maxGearStepArms), 1e-6f);
  in.energySaving.adjustLeftArm = false; // an arm motion: the offset fades
  ASSERT_TRUE(rig.runUntil([&] { return rig.offset(Joint::LShoulderRoll) == 0.f; }, 2.0));
  in.currents[Joint::LShoulderRoll] = 0.6f; // the motion heated the arm
  ASSERT_TRUE(rig.runUntilNextRound());
  in.energySaving.adjustLeftArm = true;
  ASSERT_TRUE(rig.runUntilNextRound());
  EXPECT_NEAR(rig.offset(Joint::LShoulderRoll), deg(rule::maxGearStepArms), 1e-6f)
      << "a new search from 0, towards the reading";
}
