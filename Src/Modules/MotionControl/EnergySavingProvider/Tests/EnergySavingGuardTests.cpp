// The guard ("do no harm"): the reference is each joint's current at zero offset when the posture begins (the base
// offsets of the normal stand wait for it); a joint the stage leaves above its reference plus margin for `rounds`
// rounds of the last window without a new low, or heating faster, goes back to the best offset it saw, then to zero,
// and is left alone until the posture changes, visible in EnergySaving; a joint whose reading goes back and forth
// (it oscillates) is held at zero offset; a joint whose request leaves the posture measures anew. The hand-over's
// guard: a push that takes the pusher above the helped joint, or that does not help within handOverRounds, is undone
// and not tried again in that posture. JointGuard alone first, then through the module.
#include "Modules/MotionControl/Common/JointGuard.h"
#include "Modules/MotionControl/EnergySavingProvider/Tests/EnergySavingRig.h"
#include <cmath>
#include <gtest/gtest.h>
#include <numbers>

using namespace nao;
using namespace nao::energytest;

namespace
{
JointGuardParameters guardParameters()
{
  return JointGuardParameters{}; // 10 % + 20 mA, 4 rounds, 10 s of heating, 1°
}

RigOptions guarded()
{
  RigOptions options;
  options.guard = true;
  return options;
}

/// Rounds until `joint`'s guard leaves `state` (false: not within `rounds`).
bool roundsUntilGuardLeaves(EnergySavingRig& rig, Joint joint, HeatGuardState state, int rounds)
{
  for (int r = 0; r < rounds; ++r)
  {
    if (rig.energy().guard[joint] != state) return true;
    if (!rig.runUntilNextRound()) return false;
  }
  return rig.energy().guard[joint] != state;
}
} // namespace

TEST(JointGuard, ASearchThatStillFindsLowerCurrentsIsLeftToItAStagnatingOneGoesBackToItsBestOffsetThenToZero)
{
  const JointGuardParameters p = guardParameters(); // 10 % + 20 mA; 4 of the last 8 rounds without a new low
  JointGuard guard;
  EXPECT_EQ(guard.state(), HeatGuardState::measuring);
  EXPECT_TRUE(guard.holds());
  guard.setReference(0.5f, 0.3f, 0.3f);
  EXPECT_EQ(guard.state(), HeatGuardState::watching);
  EXPECT_FLOAT_EQ(guard.limit(p), 0.5f * 1.1f + 0.02f);
  // Far above the reference, but falling round by round (a search on its way): nothing.
  for (float current : {1.2f, 1.1f, 1.0f, 0.9f, 0.8f, 0.7f, 0.6f, 0.55f, 0.45f, 0.3f})
    EXPECT_EQ(guard.round(current, 0.01f * current, 0.3f, p), HeatGuardRule::none) << current;
  // Then it stagnates above the limit (0.57 A) and never finds a lower current: after 8 rounds without a new
  // low, 4 or more of them above: back to the best offset (0.3 A at 0.003 rad).
  for (int r = 0; r < 7; ++r)
    EXPECT_EQ(guard.round(r % 2 ? 0.6f : 0.56f, 0.02f, 0.3f, p), HeatGuardRule::none) << r;
  EXPECT_EQ(guard.round(0.6f, 0.02f, 0.3f, p), HeatGuardRule::currentAboveReference);
  EXPECT_EQ(guard.state(), HeatGuardState::heldAtBest);
  EXPECT_FLOAT_EQ(guard.heldOffset(), 0.003f);
  // On its way there (the offset fades) nothing is judged; once there, 4 rounds all above: zero offset, for good.
  for (int r = 0; r < 2; ++r)
    EXPECT_EQ(guard.round(0.6f, 0.01f, 0.3f, p), HeatGuardRule::none);
  for (int r = 0; r < 3; ++r)
    EXPECT_EQ(guard.round(0.6f, 0.003f, 0.3f, p), HeatGuardRule::none);
  EXPECT_EQ(guard.round(0.6f, 0.003f, 0.3f, p), HeatGuardRule::currentAboveReference);
  EXPECT_EQ(guard.state(), HeatGuardState::heldAtZero);
  EXPECT_EQ(guard.heldOffset(), 0.f);
  // Still above at zero offset: its offset is not the cause (the other joints of a closed chain load it). It
  // searches again, and the guard leaves it to its search until the posture changes. One round under the limit
  // at zero starts the count again.
  for (int r = 0; r < 3; ++r)
    EXPECT_EQ(guard.round(0.6f, 0.f, 0.3f, p), HeatGuardRule::none);
  EXPECT_EQ(guard.round(0.5f, 0.f, 0.3f, p), HeatGuardRule::none);
  for (int r = 0; r < 3; ++r)
    EXPECT_EQ(guard.round(0.6f, 0.f, 0.3f, p), HeatGuardRule::none);
  EXPECT_EQ(guard.round(0.6f, 0.f, 0.3f, p), HeatGuardRule::notItsOwnOffset);
  EXPECT_EQ(guard.state(), HeatGuardState::watching);
  EXPECT_FALSE(guard.holds());
  EXPECT_TRUE(guard.released());
  for (int r = 0; r < 40; ++r)
    EXPECT_EQ(guard.round(0.62f, 0.02f, 0.3f, p), HeatGuardRule::none) << "its search goes on";
  EXPECT_FALSE(guard.holds());
}

TEST(JointGuard, AJointThatSlippedSearchesAgainInsteadOfBeingPushedBackAgainstItsGears)
{
  const JointGuardParameters p = guardParameters(); // moved: 0.2° from the reference's reading
  JointGuard guard;
  guard.setReference(0.35f, 0.8f, 0.8f);
  const float slipped = 0.8f - 0.5f * std::numbers::pi_v<float> / 180.f; // the worn knee gave way by 0.5°
  for (int r = 0; r < 8; ++r) // the first is a new low since the reference; 8 more without one
    EXPECT_EQ(guard.round(1.04f, 0.0008f, slipped, p), HeatGuardRule::none);
  EXPECT_EQ(guard.round(1.04f, 0.0008f, slipped, p), HeatGuardRule::notItsOwnOffset);
  EXPECT_EQ(guard.state(), HeatGuardState::watching)
      << "not held at zero, which would push it up against friction";
  EXPECT_TRUE(guard.released());
}

TEST(JointGuard, TwoJointsTakingTurnsHeatFasterAlthoughNeitherIsAboveMostOfTheTime)
{
  // The independent plant's worn knees: 0.25 A and 3.4 A by turns, 1 A without the stage. Above the limit in one
  // round of three, below it in the others: the mean square current shows the heating.
  const JointGuardParameters p = guardParameters();
  JointGuard guard;
  guard.setReference(1.f, 0.f, 0.f);
  HeatGuardRule rule = HeatGuardRule::none;
  int rounds = 0;
  for (; rounds < 40 && rule == HeatGuardRule::none; ++rounds)
    rule = guard.round(rounds % 3 == 2 ? 3.4f : 0.25f, 0.004f, 0.f, p);
  EXPECT_EQ(rule, HeatGuardRule::heatingAboveReference);
  EXPECT_LE(rounds, 12) << "three seconds: four rounds at 3.4 A in the heating window";
  EXPECT_EQ(guard.state(), HeatGuardState::heldAtZero)
      << "it is at its best offset already: as without the stage";
}

TEST(JointGuard, AJointAtZeroOffsetIsNotItsOwnOffsetsDoing)
{
  // The other joints of a closed chain load it, or the plant drifts: its own offset is zero, nothing to undo.
  const JointGuardParameters p = guardParameters();
  JointGuard guard;
  guard.setReference(0.003f, 0.f, 0.f);
  for (int r = 0; r < 40; ++r)
    EXPECT_EQ(guard.round(0.45f, 0.f, 0.f, p), HeatGuardRule::none) << r;
  EXPECT_EQ(guard.state(), HeatGuardState::watching);
  // Once its own search moves it and it stays worse, it is judged.
  HeatGuardRule rule = HeatGuardRule::none;
  for (int r = 0; r < 10 && rule == HeatGuardRule::none; ++r)
    rule = guard.round(0.45f, 0.001f, 0.f, p);
  EXPECT_EQ(rule, HeatGuardRule::currentAboveReference);
}

TEST(JointGuard, ASearchsBriefProbesDoNotCount)
{
  // A settled search steps the wrong way now and then (a rise restarts it): one round at twice the reference,
  // then back below it.
  const JointGuardParameters p = guardParameters();
  JointGuard guard;
  guard.setReference(0.4f, 0.f, 0.f);
  for (int r = 0; r < 200; ++r)
    ASSERT_EQ(guard.round(r % 8 == 0 ? 0.85f : 0.1f, 0.001f * static_cast<float>(r % 3), 0.f, p),
              HeatGuardRule::none)
        << "round " << r;
  EXPECT_EQ(guard.state(), HeatGuardState::watching);
}

TEST(JointGuard, AReadingThatGoesBackAndForthMakesAJointRestlessOneThatFollowsItsOffsetOrDithersDoesNot)
{
  const JointGuardParameters p = guardParameters(); // 0.35° beyond the net change, 2 rounds in a row
  constexpr float count = 2.f * std::numbers::pi_v<float> / 4096.f; // one LoLA count (rad)
  JointGuard guard;
  guard.setReference(0.5f, 0.3f, 0.3f);
  const auto roundOf = [&](auto reading)
  {
    for (int f = 0; f < 21; ++f) // a round's frames
      guard.observe(reading(f));
    return guard.round(0.5f, 0.f, reading(20), p);
  };
  // Following an offset one way (ten counts in a round) and one flip of a count and back: at rest.
  EXPECT_EQ(roundOf([&](int f) { return 0.3f + static_cast<float>(f / 2) * count; }), HeatGuardRule::none);
  EXPECT_EQ(roundOf([&](int f) { return 0.3f + 10 * count + (f == 7 ? count : 0.f); }), HeatGuardRule::none);
  EXPECT_EQ(roundOf([&](int f) { return 0.3f + 10 * count + (f == 3 ? count : 0.f); }), HeatGuardRule::none);
  // Resting on a count boundary (a worn joint under its neighbours' steps): it dithers between two neighbouring
  // counts as often as it likes, round after round, travelling far more than 0.35° and spanning one count.
  const auto dithering = [&](int f) { return 0.3f + 10 * count + static_cast<float>(f % 2) * count; };
  for (int r = 0; r < 4; ++r)
    EXPECT_EQ(roundOf(dithering), HeatGuardRule::none) << "round " << r;
  EXPECT_EQ(guard.state(), HeatGuardState::watching);
  // Two counts up and down every other frame (a board's limit cycle): one round is not yet enough, two are.
  const auto swinging = [&](int f) { return 0.3f + ((f / 2) % 2 ? 2.f : -2.f) * count; };
  EXPECT_EQ(roundOf(swinging), HeatGuardRule::none);
  EXPECT_EQ(roundOf(swinging), HeatGuardRule::jointRestless);
  EXPECT_EQ(guard.state(), HeatGuardState::restless);
  EXPECT_TRUE(guard.holds());
  EXPECT_EQ(guard.heldOffset(), 0.f);
  // Held until the posture changes, whatever it draws or reads now.
  EXPECT_EQ(roundOf([&](int) { return 0.3f; }), HeatGuardRule::none);
  EXPECT_EQ(guard.round(2.f, 0.f, 0.3f, p), HeatGuardRule::none);
  EXPECT_EQ(guard.state(), HeatGuardState::restless);
  guard.reset();
  EXPECT_EQ(guard.state(), HeatGuardState::measuring);
}

TEST(JointGuard, TheReferenceWaitsUntilTwoRoundsAgreeOrTheSettlingRoundsAreOver)
{
  const JointGuardParameters p = guardParameters(); // half the margin: 5 % + 10 mA; one count; 8 rounds
  constexpr float count = 2.f * std::numbers::pi_v<float> / 4096.f;
  JointGuard guard;
  EXPECT_FALSE(guard.offerReference(1.0f, 0.3f, 0.3f, p)) << "one round says nothing about settling";
  EXPECT_FALSE(guard.offerReference(0.9f, 0.3f, 0.3f, p)) << "the current still falls (100 mA > 60 mA)";
  EXPECT_FALSE(guard.offerReference(0.88f, 0.3f, 0.3f + 2 * count, p)) << "the joint still moves";
  EXPECT_TRUE(guard.offerReference(0.85f, 0.3f, 0.3f + 2 * count, p)) << "within 54 mA and one count";
  EXPECT_EQ(guard.state(), HeatGuardState::watching);
  EXPECT_FLOAT_EQ(guard.reference(), 0.85f);
  EXPECT_FALSE(guard.offerReference(0.5f, 0.3f, 0.3f, p)) << "taken: no second reference in the posture";
  // A joint that never settles is taken as it is after settleRounds rounds.
  guard.reset();
  for (int r = 1; r < p.settleRounds; ++r)
    ASSERT_FALSE(guard.offerReference(1.f - 0.1f * static_cast<float>(r % 2), 0.3f, 0.3f, p)) << r;
  EXPECT_TRUE(guard.offerReference(0.7f, 0.3f, 0.3f, p));
  EXPECT_FLOAT_EQ(guard.reference(), 0.7f);
}

TEST(EnergySavingGuard, TheReferenceIsTakenAtZeroOffsetAndTheBaseOffsetsOfTheStandWaitForIt)
{
  EnergySavingRig rig(guarded());
  Inputs& in = inputs();
  in.measured[Joint::LKneePitch] = in.request.angles[Joint::LKneePitch] + 0.5f * degree;
  in.currents[Joint::LKneePitch] = 0.6f;
  in.currents[Joint::LAnklePitch] = 0.05f;
  rig.frame();
  EXPECT_EQ(rig.energy().guard[Joint::LKneePitch], HeatGuardState::measuring);
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::working, 1.0));
  EXPECT_EQ(rig.offset(Joint::LKneePitch), 0.f) << "no base offset before the reference";
  ASSERT_TRUE(rig.runUntilNextRound()); // offered: a second round must agree (the legs have settled)
  EXPECT_EQ(rig.energy().guard[Joint::LKneePitch], HeatGuardState::measuring);
  ASSERT_TRUE(rig.runUntilNextRound());
  EXPECT_EQ(rig.energy().guard[Joint::LKneePitch], HeatGuardState::watching);
  EXPECT_FLOAT_EQ(rig.energy().references[Joint::LKneePitch], 0.6f);
  EXPECT_FLOAT_EQ(rig.energy().references[Joint::LAnklePitch], 0.05f);
  EXPECT_EQ(rig.energy().guard[Joint::HeadYaw], HeatGuardState::off) << "skipped joints are not guarded";
  rig.runFor(milli(rule::baseOffsetFadeInTime) + frameTime);
  EXPECT_NEAR(rig.offset(Joint::LKneePitch), 0.5f * degree, rad) << "B-Human's base offset, a round later";
}

TEST(EnergySavingGuard, AJointTheStageLeavesAboveItsReferenceGoesToItsBestOffsetThenToZeroAndEverySayWhy)
{
  EnergySavingRig rig(guarded());
  Inputs& in = inputs();
  in.energySaving = requestAll(EnergySavingPosture::highStand); // no base offsets
  constexpr Joint knee = Joint::LKneePitch;
  in.currents[knee] = 0.5f;
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::working, 1.0));
  ASSERT_TRUE(rig.roundAt(knee, 0.5f)); // offered for the reference
  ASSERT_TRUE(rig.roundAt(knee, 0.5f)); // the reference (it agrees), and the search's first step
  ASSERT_FLOAT_EQ(rig.energy().references[knee], 0.5f);
  const float firstStep = rig.offset(knee);
  ASSERT_NE(firstStep, 0.f);
  ASSERT_TRUE(rig.roundAt(knee, 0.2f)); // lower: the best, drawn at the first step; the same step again
  for (int r = 0; r < 7; ++r)           // above the limit (0.57 A) wherever the search goes, no new low
    ASSERT_TRUE(rig.roundAt(knee, 0.8f));
  EXPECT_EQ(rig.energy().guard[knee], HeatGuardState::watching);
  EXPECT_EQ(rig.energy().guardEvents, 0u);
  ASSERT_TRUE(rig.roundAt(knee, 0.8f)); // the eighth: a window without a new low
  EXPECT_EQ(rig.energy().guard[knee], HeatGuardState::heldAtBest);
  EXPECT_EQ(rig.energy().guardEvents, 1u);
  EXPECT_EQ(rig.energy().lastGuardJoint, knee);
  EXPECT_EQ(rig.energy().lastGuardRule, HeatGuardRule::currentAboveReference);
  EXPECT_NEAR(rig.energy().lastGuardTime, rig.time(), 1e-6);
  EXPECT_FLOAT_EQ(rig.energy().lastGuardCurrent, 0.8f);
  EXPECT_FALSE(rig.energy().searching[knee]) << "held: smart stiffness may limit it";
  // It fades to the best offset (nothing jumps) and holds it; there it draws less than its reference.
  in.currents[knee] = 0.3f;
  const float before = rig.offset(knee);
  rig.frame();
  EXPECT_LE(std::abs(rig.offset(knee) - before),
            deg(rule::maxOffset) * frameTime / milli(rule::resetTime) + rad);
  rig.runFor(2.0);
  EXPECT_NEAR(rig.offset(knee), firstStep, rad);
  EXPECT_EQ(rig.energy().guard[knee], HeatGuardState::heldAtBest);
  // Above there as well: to zero.
  in.currents[knee] = 0.8f;
  ASSERT_TRUE(roundsUntilGuardLeaves(rig, knee, HeatGuardState::heldAtBest, 10));
  EXPECT_EQ(rig.energy().guard[knee], HeatGuardState::heldAtZero);
  EXPECT_EQ(rig.energy().guardEvents, 2u);
  in.currents[knee] = 0.4f; // at zero offset it draws what it drew without the stage: held there
  rig.runFor(3.0);
  EXPECT_EQ(rig.offset(knee), 0.f) << "as without the stage";
  EXPECT_EQ(rig.energy().guard[knee], HeatGuardState::heldAtZero);
  EXPECT_EQ(rig.energy().guardEvents, 2u);
}

TEST(EnergySavingGuard, AJointStillAboveAtZeroOffsetSearchesAgain)
{
  // The closed chain of both legs: the other joints' offsets load this one, so zero offset does not give its
  // reference back; its own search can still lower its current.
  EnergySavingRig rig(guarded());
  Inputs& in = inputs();
  in.energySaving = requestAll(EnergySavingPosture::highStand);
  constexpr Joint roll = Joint::RHipRoll;
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::working, 1.0));
  ASSERT_TRUE(rig.roundAt(roll, 0.006f)); // offered ...
  ASSERT_TRUE(rig.roundAt(roll, 0.006f)); // ... and the reference
  ASSERT_EQ(rig.energy().guard[roll], HeatGuardState::watching);
  in.currents[roll] = 0.22f; // loaded by the others; its search finds nothing lower
  ASSERT_TRUE(roundsUntilGuardLeaves(rig, roll, HeatGuardState::watching, 12));
  EXPECT_EQ(rig.energy().guard[roll], HeatGuardState::heldAtZero);
  ASSERT_TRUE(roundsUntilGuardLeaves(rig, roll, HeatGuardState::heldAtZero, 12));
  EXPECT_EQ(rig.energy().guard[roll], HeatGuardState::watching);
  EXPECT_EQ(rig.energy().lastGuardRule, HeatGuardRule::notItsOwnOffset);
  EXPECT_EQ(rig.energy().lastGuardJoint, roll);
  ASSERT_TRUE(rig.roundAt(roll, 0.2f)); // searching again: a step
  EXPECT_NE(rig.offset(roll), 0.f);
  EXPECT_TRUE(rig.energy().searching[roll]);
  const std::uint32_t events = rig.energy().guardEvents;
  for (int r = 0; r < 20; ++r)
    ASSERT_TRUE(rig.roundAt(roll, 0.25f));
  EXPECT_EQ(rig.energy().guard[roll], HeatGuardState::watching) << "left to its search in this posture";
  EXPECT_EQ(rig.energy().guardEvents, events);
}

TEST(EnergySavingGuard, AJointThatDrewNothingAndDrawsUnderItsBaseOffsetIsSentBackToZero)
{
  EnergySavingRig rig(guarded());
  Inputs& in = inputs();
  constexpr Joint roll = Joint::LAnkleRoll;
  in.measured[roll] = in.request.angles[roll] + 0.3f * degree; // a base offset of 0.3°, and no current
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::working, 1.0));
  ASSERT_TRUE(rig.runUntilNextRound()); // offered ...
  ASSERT_TRUE(rig.runUntilNextRound()); // ... the reference: 0 A; the base offset fades in
  ASSERT_EQ(rig.energy().references[roll], 0.f);
  in.currents[roll] = 0.2f; // what the base offset makes it draw; its search does not bring it back
  ASSERT_TRUE(roundsUntilGuardLeaves(rig, roll, HeatGuardState::watching, 12));
  EXPECT_EQ(rig.energy().guard[roll], HeatGuardState::heldAtZero);
  rig.runFor(1.0);
  EXPECT_EQ(rig.offset(roll), 0.f);
  EXPECT_EQ(rig.energy().baseOffsets[roll], 0.f) << "the base offset is the stage's too";
}

TEST(EnergySavingGuard,
     ALegJointWhoseReadingSwingsIsRestlessAndEveryJointFadesToZeroOffsetUntilThePostureChanges)
{
  EnergySavingRig rig(guarded());
  Inputs& in = inputs();
  in.energySaving = requestAll(EnergySavingPosture::highStand);
  constexpr Joint knee = Joint::LKneePitch;
  constexpr float count = 2.f * std::numbers::pi_v<float> / 4096.f; // one LoLA count (rad)
  constexpr Joint elbow = Joint::LElbowRoll;
  in.currents[knee] = 1.f;
  in.currents[elbow] = 0.3f;
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::working, 1.0));
  for (int r = 0; r < 4; ++r)
    ASSERT_TRUE(rig.runUntilNextRound()); // the reference, then its search steps
  ASSERT_NE(rig.offset(knee), 0.f);
  ASSERT_NE(rig.offset(elbow), 0.f);
  ASSERT_EQ(rig.energy().guard[knee], HeatGuardState::watching);
  // Its reading swings by two counts either way (the board's loop oscillates): not resting on its gears.
  const float rest = in.measured[knee];
  for (int f = 0; f < 200 && rig.energy().guard[knee] != HeatGuardState::restless; ++f)
  {
    in.measured[knee] = rest + ((f / 2) % 2 ? 2.f : -2.f) * count;
    rig.frame();
  }
  EXPECT_EQ(rig.energy().guard[knee], HeatGuardState::restless);
  EXPECT_EQ(rig.energy().lastGuardRule, HeatGuardRule::jointRestless);
  EXPECT_EQ(rig.energy().lastGuardJoint, knee);
  // A leg that oscillates shakes the body: every joint the stage adjusts goes to zero offset with it.
  EXPECT_EQ(rig.energy().guard[elbow], HeatGuardState::restless);
  EXPECT_EQ(rig.energy().guard[Joint::RKneePitch], HeatGuardState::restless);
  in.measured[knee] = rest;
  rig.runFor(3.5); // resetTime: the offset fades, nothing jumps
  EXPECT_EQ(rig.offset(knee), 0.f);
  EXPECT_EQ(rig.offset(elbow), 0.f);
  EXPECT_FALSE(rig.energy().searching[knee]);
  EXPECT_FALSE(rig.energy().searching[elbow]);
  EXPECT_EQ(rig.energy().guard[knee], HeatGuardState::restless) << "until the posture changes";
  in.request.angles[knee] += 2.f * degree; // another posture for the knee: measured afresh
  rig.frame();
  EXPECT_EQ(rig.energy().guard[knee], HeatGuardState::measuring);
}

TEST(EnergySavingGuard, AJointWhoseRequestLeavesThePostureMeasuresAgainAtZeroOffset)
{
  EnergySavingRig rig(guarded());
  Inputs& in = inputs();
  in.energySaving = requestAll(EnergySavingPosture::highStand);
  constexpr Joint elbow = Joint::LElbowRoll;
  in.currents[elbow] = 0.2f;
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::working, 1.0));
  ASSERT_TRUE(rig.roundAt(elbow, 0.2f)); // offered ...
  ASSERT_TRUE(rig.roundAt(elbow, 0.2f)); // ... and the reference
  ASSERT_EQ(rig.energy().guard[elbow], HeatGuardState::watching);
  ASSERT_TRUE(rig.roundAt(elbow, 0.15f));
  ASSERT_NE(rig.offset(elbow), 0.f);
  in.request.angles[elbow] += 0.5f * degree; // within the posture: nothing changes
  ASSERT_TRUE(rig.roundAt(elbow, 0.14f));
  EXPECT_EQ(rig.energy().guard[elbow], HeatGuardState::watching);
  in.request.angles[elbow] += 1.f * degree; // 1.5° from the reference's request: another posture
  in.currents[elbow] = 0.3f;
  rig.frame();
  EXPECT_EQ(rig.energy().guard[elbow], HeatGuardState::measuring);
  // It fades to zero offset and, a current window later, takes the new posture's reference.
  float offsetBefore = rig.offset(elbow);
  ASSERT_TRUE(rig.runUntil(
      [&]
      {
        if (rig.energy().guard[elbow] == HeatGuardState::measuring) offsetBefore = rig.offset(elbow);
        return rig.energy().guard[elbow] == HeatGuardState::watching;
      },
      3.0));
  EXPECT_EQ(offsetBefore, 0.f) << "measured at zero offset";
  EXPECT_FLOAT_EQ(rig.energy().references[elbow], 0.3f) << "the new posture's";
}

TEST(EnergySavingGuard, APushThatTakesThePusherAboveTheHelpedJointIsUndoneAndNotTriedAgainInThePosture)
{
  EnergySavingRig rig(guarded());
  rig.setParameter("guard.enabled", "false"); // the hand-over's own guard alone
  Inputs& in = inputs();
  in.energySaving = requestAll(EnergySavingPosture::highStand);
  constexpr Joint knee = Joint::LKneePitch, mirror = Joint::RKneePitch;
  in.currents[knee] = 0.5f;
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::working, 1.0));
  for (float current :
       {0.50f, 0.40f, 0.46f, 0.52f, 0.58f, 0.64f}) // the search stalls: the knee counts as stuck
    ASSERT_TRUE(rig.roundAt(knee, current));
  ASSERT_TRUE(rig.roundAt(knee, 0.64f));
  ASSERT_NEAR(rig.offset(mirror), m, rad) << "the mirror pushes";
  in.currents[mirror] = 0.75f; // the push loads the pusher beyond the knee's 0.64 A (+ 10 % + 20 mA)
  for (int r = 1; r < rule::pusherAboveRounds; ++r)
  {
    ASSERT_TRUE(rig.roundAt(knee, 0.64f));
    EXPECT_NEAR(rig.offset(mirror), static_cast<float>(r + 1) * m, rad)
        << "round " << r << ": the load may move";
  }
  ASSERT_TRUE(rig.roundAt(knee, 0.64f));
  EXPECT_NEAR(rig.offset(mirror), 0.f, rad) << "undone";
  EXPECT_EQ(rig.energy().lastGuardRule, HeatGuardRule::pusherAboveHelped);
  EXPECT_EQ(rig.energy().lastGuardJoint, mirror);
  in.currents[mirror] = 0.f;
  // The other way, without effect for handOverRounds: undone too; then no more, although the knee's search
  // starts anew (a rise) and stalls again.
  for (int r = 0; r <= rule::handOverRounds; ++r)
    ASSERT_TRUE(rig.roundAt(knee, 0.64f));
  EXPECT_NEAR(rig.offset(mirror), 0.f, rad);
  EXPECT_EQ(rig.energy().lastGuardRule, HeatGuardRule::handOverWithoutEffect);
  const std::uint32_t events = rig.energy().guardEvents;
  ASSERT_TRUE(rig.roundAt(knee, 0.9f)); // 0.26 A above its search's highest: a new search
  for (float current : {0.9f, 0.8f, 0.86f, 0.92f, 0.98f, 1.04f, 1.1f, 1.1f, 1.1f})
  {
    ASSERT_TRUE(rig.roundAt(knee, current));
    EXPECT_NEAR(rig.offset(mirror), 0.f, rad) << "not tried again in this posture";
  }
  EXPECT_EQ(rig.energy().guardEvents, events);
}

TEST(EnergySavingGuard, SwitchedOffTheStageWorksAsBeforeAndShowsTheGuardOff)
{
  EnergySavingRig rig; // the rig's default: guard off
  Inputs& in = inputs();
  in.measured[Joint::LKneePitch] = in.request.angles[Joint::LKneePitch] + 0.5f * degree;
  rig.runFor(0.2);
  EXPECT_NEAR(rig.offset(Joint::LKneePitch), 0.5f * degree, rad) << "base offsets at the start, as B-Human's";
  for (std::size_t j = 0; j < numOfJoints; ++j)
    EXPECT_EQ(rig.energy().guard[j], HeatGuardState::off);
}
