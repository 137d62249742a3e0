// The guard's step bound (StepBound, README "The guard"): a change of the offsets that takes a joint's filtered
// current above max(1.5 × reference, reference + 0.3 A) goes back within the round that made it, and that way is not
// tried again in the posture; when the joint made no change of its own, the changes of the joints that share its load
// go back (a hand-over's push among them). A joint that gave way under its load is left to its search. StepBound
// alone first, then through the module.
#include "Modules/MotionControl/Common/StepBound.h"
#include "Modules/MotionControl/EnergySavingProvider/Tests/EnergySavingRig.h"
#include <algorithm>
#include <gtest/gtest.h>
#include <limits>

using namespace nao;
using namespace nao::energytest;

namespace
{
using Verdict = StepBound::Verdict;
constexpr float margin = 0.07f;           ///< A, the guard's margin over 0.5 A: 10 % + 20 mA
constexpr float gaveWay = 0.05f * degree; ///< rad, the file's gaveWay
constexpr float count = 0.088f * degree;  ///< rad, one count of LoLA's reading
constexpr float infinity = std::numeric_limits<float>::infinity();

RigOptions guarded()
{
  RigOptions options;
  options.guard = true;
  return options;
}

/// Runs the next round frame by frame; returns the lowest and highest offset of `joint` it saw.
std::pair<float, float> roundWatching(EnergySavingRig& rig, Joint joint)
{
  float lowest = rig.offset(joint), highest = rig.offset(joint);
  const std::uint32_t rounds = rig.energy().rounds;
  rig.runUntil(
      [&]
      {
        lowest = std::min(lowest, rig.offset(joint));
        highest = std::max(highest, rig.offset(joint));
        return rig.energy().rounds != rounds;
      },
      2.0);
  return {lowest, highest};
}
} // namespace

TEST(StepBound, TheBoundIsHalfTheReferenceOr300mAAboveItWhicheverIsMore)
{
  EXPECT_FLOAT_EQ(StepBound::limit(0.4f, 0.5f, 0.3f), 0.7f);
  EXPECT_FLOAT_EQ(StepBound::limit(0.6f, 0.5f, 0.3f), 0.9f);
  EXPECT_FLOAT_EQ(StepBound::limit(1.f, 0.5f, 0.3f), 1.5f);
}

TEST(StepBound, AChangeThatTakesTheCurrentAboveTheBoundIsBarredAndGoesBack)
{
  StepBound bound; // reference 0.5 A: bound 0.8 A
  bound.round(0.f, 0.5f, 0.5f, 0.3f, margin);
  EXPECT_EQ(bound.frame(0.f, 0.5f, 0.3f, 0.8f, margin, gaveWay), Verdict::none);
  // The round's step, −0.001 rad: the filtered current climbs as the window fills with the new current.
  for (float current : {0.55f, 0.62f, 0.7f, 0.78f})
    EXPECT_EQ(bound.frame(-0.001f, current, 0.3f, 0.8f, margin, gaveWay), Verdict::none) << current;
  EXPECT_EQ(bound.frame(-0.001f, 0.82f, 0.3f, 0.8f, margin, gaveWay), Verdict::own);
  EXPECT_EQ(bound.lowest(), 0.f) << "never below where the round began";
  EXPECT_EQ(bound.highest(), infinity);
  EXPECT_EQ(bound.clamp(-0.001f), 0.f) << "back";
  EXPECT_EQ(bound.clamp(0.002f), 0.002f) << "the other way is open";
  EXPECT_EQ(bound.frame(-0.001f, 0.9f, 0.3f, 0.8f, margin, gaveWay), Verdict::none) << "one verdict a round";
  // Later rounds: the way stays barred, whatever they find.
  bound.round(0.0005f, 0.4f, 0.4f, 0.3f, margin);
  EXPECT_EQ(bound.clamp(-0.003f), 0.f);
}

TEST(StepBound, AJointThatGaveWayIsLeftToItsSearchOnePushedBackIsNotOneMovedByTheOthersIsLoaded)
{
  {
    StepBound
        bound; // a step with the load relieves the worn joint's motor, then it slips that way by a count and
               // its motor holds it further down: going back would push it up against its gears
    bound.round(0.f, 0.5f, 0.5f, 0.3f, margin);
    EXPECT_EQ(bound.frame(0.001f, 0.4f, 0.3f, 0.8f, margin, gaveWay), Verdict::none);
    EXPECT_EQ(bound.frame(0.001f, 0.9f, 0.3f + count, 0.8f, margin, gaveWay), Verdict::none);
    EXPECT_EQ(bound.lowest(), -infinity);
    EXPECT_EQ(bound.highest(), infinity);
  }
  {
    StepBound
        bound; // a change that pushes the joint back against its load: the current only rises, then it moves
    bound.round(0.001f, 0.5f, 0.5f, 0.3f, margin);
    EXPECT_EQ(bound.frame(0.f, 0.7f, 0.3f, 0.8f, margin, gaveWay), Verdict::none);
    EXPECT_EQ(bound.frame(0.f, 0.9f, 0.3f - count, 0.8f, margin, gaveWay), Verdict::own);
    EXPECT_EQ(bound.lowest(), 0.001f);
  }
  {
    StepBound
        bound; // a way barred, then the joint rises without a change of its own: the others moved its load
    bound.round(0.f, 0.5f, 0.5f, 0.3f, margin);
    ASSERT_EQ(bound.frame(0.001f, 0.85f, 0.3f, 0.8f, margin, gaveWay), Verdict::own);
    ASSERT_EQ(bound.highest(), 0.f);
    bound.round(0.f, 0.5f, 0.5f, 0.3f, margin);
    EXPECT_EQ(bound.frame(0.f, 0.85f, 0.3f, 0.8f, margin, gaveWay), Verdict::loaded);
    EXPECT_EQ(bound.highest(), infinity) << "its load is another now: what it barred is open again";
  }
  {
    StepBound bound; // its own change one way, but it moved the other: the others pushed it
    bound.round(0.f, 0.5f, 0.5f, 0.3f, margin);
    EXPECT_EQ(bound.frame(-0.001f, 0.85f, 0.3f + count, 0.8f, margin, gaveWay), Verdict::loaded);
  }
}

TEST(StepBound, AJointAtItsBarThatDrawsMoreThanThenCarriesAnotherLoadAndItsWaysOpenAgain)
{
  StepBound bound;
  bound.round(0.f, 0.5f, 0.5f, 0.3f, margin);
  ASSERT_EQ(bound.frame(-0.001f, 0.85f, 0.3f, 0.8f, margin, gaveWay), Verdict::own);
  ASSERT_EQ(bound.lowest(), 0.f);
  bound.round(0.f, 0.7f, 0.5f, 0.3f, margin); // back there: its window still holds the step's current
  EXPECT_EQ(bound.lowest(), 0.f) << "a whole round there first";
  bound.round(0.f, 0.5f, 0.5f, 0.3f, margin); // what it drew there when the way was barred
  EXPECT_EQ(bound.lowest(), 0.f);
  bound.round(0.f, 0.75f, 0.75f, 0.3f, margin); // the same offset draws more now: its load is another
  EXPECT_EQ(bound.lowest(), -infinity);
}

TEST(StepBound, ACurrentThatWasRisingWhenTheRoundBeganIsNotItsChangesDoing)
{
  // The filtered current still climbs to the latest sample's 0.85 A (an earlier round's doing): the round's step
  // is judged against where the joint stands, not against the window's mean.
  StepBound bound;
  bound.round(0.f, 0.6f, 0.85f, 0.3f, margin);
  EXPECT_EQ(bound.frame(0.0005f, 0.86f, 0.3f, 0.8f, margin, gaveWay), Verdict::none);
  EXPECT_EQ(bound.frame(0.0005f, 0.95f, 0.3f, 0.8f, margin, gaveWay), Verdict::own) << "0.1 A above: its own";
}

TEST(StepBound, AnotherJointsBoundUndoesThisJointsChangeOfTheRound)
{
  StepBound bound;
  bound.round(0.002f, 0.3f, 0.3f, 0.3f, margin);
  EXPECT_FALSE(bound.undo(0.002f)) << "no change in this round";
  EXPECT_TRUE(bound.undo(0.0025f));
  EXPECT_EQ(bound.highest(), 0.002f);
  EXPECT_EQ(bound.clamp(0.0025f), 0.002f);
}

TEST(EnergySavingStepBound,
     AStepThatTakesTheCurrentAboveTheBoundGoesBackWithinTheRoundAndThatWayIsNotTriedAgain)
{
  EnergySavingRig rig(guarded());
  Inputs& in = inputs();
  in.energySaving = requestAll(EnergySavingPosture::highStand); // no base offsets
  constexpr Joint knee = Joint::LKneePitch;
  in.currents[knee] = 0.5f;
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::working, 1.0));
  ASSERT_TRUE(rig.roundAt(knee, 0.5f)); // offered for the reference
  ASSERT_TRUE(rig.roundAt(knee, 0.5f)); // the reference, 0.5 A (bound 0.8 A), and the search's first step
  ASSERT_FLOAT_EQ(rig.energy().references[knee], 0.5f);
  ASSERT_NEAR(rig.offset(knee), -m, rad) << "the sign table's way";
  // The step asks the knee's motor for more: 0.9 A. As the current window fills, the filtered current passes the
  // bound, and the step goes back before the next round.
  in.currents[knee] = 0.9f;
  const std::uint32_t rounds = rig.energy().rounds;
  ASSERT_TRUE(rig.runUntil([&] { return rig.offset(knee) == 0.f; }, milli(rule::adjustWaitTime)));
  EXPECT_EQ(rig.energy().rounds, rounds) << "within the round that made it";
  EXPECT_EQ(rig.energy().lastGuardRule, HeatGuardRule::stepAboveBound);
  EXPECT_EQ(rig.energy().lastGuardJoint, knee);
  EXPECT_GT(rig.energy().lastGuardCurrent, 0.8f);
  EXPECT_LT(rig.energy().lastGuardCurrent, 0.9f)
      << "undone as the window passed the bound, not once it was full";
  // Back at its reference, its currents fall round by round: the search, afresh, would go that way again (the sign
  // table's); the way is barred, so it searches the other.
  float lowest = 0.f, highest = 0.f;
  for (int r = 0; r < 12; ++r)
  {
    in.currents[knee] = 0.5f - 0.02f * static_cast<float>(r);
    const auto [low, high] = roundWatching(rig, knee);
    lowest = std::min(lowest, low);
    highest = std::max(highest, high);
  }
  EXPECT_GE(lowest, -rad) << "not tried again in this posture";
  EXPECT_GT(highest, m / 4) << "the other way is searched";
  // Another posture for the knee: its ways are open again.
  in.request.angles[knee] += 2.f * degree;
  rig.runFor(4.0);
  for (int r = 0; r < 4; ++r)
    ASSERT_TRUE(rig.roundAt(knee, 0.5f - 0.02f * static_cast<float>(r)));
  EXPECT_LT(rig.offset(knee), -rad) << "measured afresh: the sign table's way again";
}

TEST(EnergySavingStepBound, AStepThatLoadsAJointWhoseMotorHoldsItAboveItsBoundGoesBack)
{
  // The hip pitch needs its motor to hold its load (0.3 A without the stage, above its threshold, here 0.28 A: worn
  // gears give way under more load). The knee's step loads it to 0.7 A, above its bound (0.6 A), while the hip
  // makes no change of its own: the knee's step goes back. The hip roll turns in another plane: its step stays.
  EnergySavingRig rig(guarded());
  rig.setParameter("currentThresholdOverrides.LHipPitch", 280.0);
  Inputs& in = inputs();
  in.energySaving = requestAll(EnergySavingPosture::highStand);
  constexpr Joint knee = Joint::LKneePitch, hip = Joint::LHipPitch, roll = Joint::LHipRoll;
  in.currents[knee] = 0.5f;
  in.currents[hip] = 0.3f;
  in.currents[roll] = 0.2f;
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::working, 1.0));
  ASSERT_TRUE(rig.runUntilNextRound());
  ASSERT_TRUE(rig.runUntilNextRound()); // the references, and the first steps
  ASSERT_FLOAT_EQ(rig.energy().references[hip], 0.3f);
  ASSERT_NEAR(rig.offset(knee), -m, rad);
  in.currents[hip] = 0.2f; // below its threshold: the hip holds its offset from here
  ASSERT_TRUE(rig.runUntilNextRound());
  ASSERT_NEAR(rig.offset(knee), -2 * m, rad) << "no different: the same way again";
  const float hipOffset = rig.offset(hip), rollOffset = rig.offset(roll);
  in.currents[hip] = 0.7f;
  const std::uint32_t rounds = rig.energy().rounds;
  ASSERT_TRUE(
      rig.runUntil([&] { return std::abs(rig.offset(knee) + m) <= rad; }, milli(rule::adjustWaitTime)));
  EXPECT_EQ(rig.energy().rounds, rounds) << "within the round that made it";
  EXPECT_EQ(rig.energy().lastGuardRule, HeatGuardRule::stepAboveBound);
  EXPECT_EQ(rig.energy().lastGuardJoint, knee);
  EXPECT_EQ(rig.offset(hip), hipOffset);
  EXPECT_EQ(rig.offset(roll), rollOffset) << "the hip roll carries another share of the load";
}

TEST(EnergySavingStepBound, AJointThatRestsOnItsGearsAnswersAnotherJointsStepWithItsOwnSearch)
{
  // The hip pitch draws nothing without the stage: its gears hold its load. A neighbour's step that moves a count of
  // load onto it (0.35 A, above its 0.3 A bound) stays; the hip searches it away itself.
  EnergySavingRig rig(guarded());
  Inputs& in = inputs();
  in.energySaving = requestAll(EnergySavingPosture::highStand);
  constexpr Joint knee = Joint::LKneePitch, hip = Joint::LHipPitch;
  in.currents[knee] = 0.5f;
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::working, 1.0));
  ASSERT_TRUE(rig.runUntilNextRound());
  ASSERT_TRUE(rig.runUntilNextRound()); // the references (the hip: 0 A), and the knee's first step
  const float step = rig.offset(knee);
  ASSERT_NE(step, 0.f);
  in.currents[hip] = 0.35f;
  ASSERT_TRUE(rig.runUntilNextRound());
  EXPECT_EQ(rig.energy().guardEvents, 0u);
  EXPECT_NE(rig.offset(hip), 0.f) << "its own search answers";
}

TEST(EnergySavingStepBound,
     AHandOverPushThatTakesTheHelpedJointAboveItsBoundGoesBackAndThatWayIsNotTriedAgain)
{
  EnergySavingRig rig(guarded());
  rig.setParameter("guard.window", 32); // the guard's other rules wait: the step bound alone
  rig.setParameter("guard.rounds", 32);
  Inputs& in = inputs();
  in.energySaving = requestAll(EnergySavingPosture::highStand);
  constexpr Joint knee = Joint::LKneePitch, mirror = Joint::RKneePitch;
  in.currents[knee] = 0.5f;
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::working, 1.0));
  ASSERT_TRUE(rig.roundAt(knee, 0.5f)); // offered for the reference
  // The reference (0.5 A, bound 0.8 A); then the knee's search stalls, rising at every step: it counts as stuck.
  for (float current : {0.50f, 0.40f, 0.46f, 0.52f, 0.58f, 0.64f})
    ASSERT_TRUE(rig.roundAt(knee, current));
  ASSERT_TRUE(rig.roundAt(knee, 0.64f));
  ASSERT_NEAR(rig.offset(mirror), m, rad) << "the mirror pushes (no robot model: the first way is +)";
  const float kneeOffset = rig.offset(knee);
  // The push loads the stuck knee instead of taking its load: 0.9 A. The knee holds its offset in a hand-over, so
  // the push goes back.
  in.currents[knee] = 0.9f;
  ASSERT_TRUE(rig.runUntil([&] { return std::abs(rig.offset(mirror)) <= rad; }, milli(rule::adjustWaitTime)));
  EXPECT_EQ(rig.energy().lastGuardRule, HeatGuardRule::stepAboveBound);
  EXPECT_EQ(rig.energy().lastGuardJoint, mirror);
  EXPECT_EQ(rig.offset(knee), kneeOffset);
  // That way is not tried again; the other may be.
  float highest = 0.f;
  for (int r = 0; r < 2 * rule::handOverRounds + 4; ++r)
  {
    in.currents[knee] = 0.64f;
    highest = std::max(highest, roundWatching(rig, mirror).second);
  }
  EXPECT_LE(highest, rad);
}
