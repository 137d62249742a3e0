// The per-joint parts of the heat adjustment alone, as plain values without the framework: OffsetSearch (one
// joint's search for its least current) and HandOver (a stuck pitch joint's mirror pushing for it). JointGuard's
// own tests are in EnergySavingGuardTests; the parts together in the module: the other files of this folder, and
// the module alone on a blackboard of its own (ModuleHarness) at the end of this one.
#include "Framework/Testing/ModuleHarness.h"
#include "Modules/MotionControl/EnergySavingProvider/EnergySavingParameters.h"
#include "Modules/MotionControl/EnergySavingProvider/EnergySavingProvider.h"
#include "Modules/MotionControl/EnergySavingProvider/HandOver.h"
#include "Modules/MotionControl/EnergySavingProvider/OffsetSearch.h"
#include <gtest/gtest.h>
#include <limits>
#include <numbers>

using namespace nao;

namespace
{
constexpr float deg = std::numbers::pi_v<float> / 180.f;
constexpr float rad = 1e-7f;

/// The numbers these tests compute with, set here rather than taken from the file.
EnergySavingParameters parameters()
{
  EnergySavingParameters p;
  p.minGearStep = 0.03f * deg;
  p.minSearchStepFraction = 0.125f;
  p.searchCurrentTolerance = 0.005f;
  p.stalledRoundsToSettle = 4;
  p.agreementBand = 0.088f * deg;
  p.maxSag = 0.5f * deg;
  p.handOverRounds = 3;
  p.pusherAboveRounds = 2;
  p.loadDirectionTorque = 0.05f;
  p.guard.marginFraction = 0.1f;
  p.guard.marginCurrent = 0.02f;
  return p;
}

/// A joint whose reading agrees with its target, pulled the + way; `current` A at `adjustment` rad.
SearchRound at(float adjustment, float current)
{
  SearchRound in;
  in.current = current;
  in.threshold = 0.1f;
  in.adjustment = adjustment;
  in.measured = adjustment; // request 0, base 0: the reading at the target
  in.maxStep = 0.2f * deg;
  in.pull = 1.f;
  return in;
}
} // namespace

TEST(OffsetSearch, StepsTheLoadsWayWhileTheCurrentFallsTurnsWithHalfTheStepAndSettlesOnTheLeast)
{
  const EnergySavingParameters p = parameters();
  const float m = p.minGearStep;
  OffsetSearch search;
  search.restart(m);
  float adjustment = search.round(at(0.f, 0.5f), p);
  EXPECT_NEAR(adjustment, m, rad) << "the first step: the way the load pulls, by minGearStep";
  adjustment = search.round(at(adjustment, 0.4f), p);
  EXPECT_NEAR(adjustment, 2 * m, rad) << "lower: on by the same step";
  adjustment = search.round(at(adjustment, 0.404f), p);
  EXPECT_NEAR(adjustment, 3 * m, rad) << "higher by no more than the tolerance: on";
  adjustment = search.round(at(adjustment, 0.45f), p);
  EXPECT_NEAR(adjustment, 2.5f * m, rad) << "worse: turn round with half the step";
  // Worse at every step from here: the step halves down to its finest (m / 8), and after stalledRoundsToSettle
  // rounds at it the search settles on the offset of the least current it saw (0.4 A, drawn at m).
  int rounds = 0;
  while (!search.settled() && rounds++ < 20)
    adjustment = search.round(at(adjustment, 0.45f + 0.01f * static_cast<float>(rounds)), p);
  ASSERT_TRUE(search.settled());
  EXPECT_NEAR(adjustment, m, rad);
  EXPECT_EQ(search.stalledRounds(), p.stalledRoundsToSettle);
  // Settled, it holds that offset while the current stays within the threshold of its last rounds.
  EXPECT_EQ(search.round(at(adjustment, 0.42f), p), adjustment);
  EXPECT_TRUE(search.settled());
}

TEST(OffsetSearch, AChangeOfStiffnessStartsItAfreshWithoutAStep)
{
  const EnergySavingParameters p = parameters();
  OffsetSearch search;
  search.restart(p.minGearStep);
  float adjustment = search.round(at(0.f, 0.5f), p);
  SearchRound changed = at(adjustment, 0.2f);
  changed.stiffnessChanged = true; // the window mixes two stiffnesses: its current says nothing
  EXPECT_EQ(search.round(changed, p), adjustment);
  adjustment = search.round(at(adjustment, 0.3f), p);
  EXPECT_NEAR(adjustment, 2 * p.minGearStep, rad) << "a first step again, not a turn on 0.2 -> 0.3 A";
}

TEST(OffsetSearch, AJointThatGaveWayPastMaxSagIsNotFollowedFurther)
{
  const EnergySavingParameters p = parameters();
  OffsetSearch search;
  search.restart(p.minGearStep);
  SearchRound sagged = at(0.f, 0.5f);
  sagged.measured = 0.8f * deg; // given way 0.8° from its request: beyond maxSag
  const float first = search.round(sagged, p);
  EXPECT_NEAR(first, sagged.maxStep, rad) << "towards the reading, by maxStep";
  EXPECT_NEAR(search.sagBound(), 0.8f * deg + p.agreementBand, rad);
  float adjustment = first;
  for (int r = 0; r < 20; ++r)
  {
    sagged.adjustment = adjustment;
    sagged.current = 0.5f - 0.01f * static_cast<float>(r); // always lower: it would go on for ever
    adjustment = search.round(sagged, p);
  }
  EXPECT_LE(adjustment, search.sagBound() + rad)
      << "no further than where the joint is, give or take a count";
}

namespace
{
constexpr std::size_t knee = index(Joint::LKneePitch), mirror = index(Joint::RKneePitch);

JointArray<float> filled(float value)
{
  JointArray<float> values;
  values.fill(value);
  return values;
}

/// One hand-over's world: both feet on the ground, every joint enabled, the left knee stuck above its threshold
/// at 0.6 A with a search that has stalled, the right knee free at 0.2 A.
struct HandOverWorld
{
  JointArray<float> requested{}, currents{}, adjustments{};
  JointArray<float> lowest = filled(-std::numeric_limits<float>::infinity());
  JointArray<float> highest = filled(std::numeric_limits<float>::infinity());
  JointArray<bool> enabled{}, blocked{}, aboveThreshold{};
  JointTorques torques;
  JointArray<OffsetSearch> searches;
  EnergySavingParameters p = parameters();
  HandOver handOver;

  HandOverWorld()
  {
    enabled.values.fill(true);
    currents[Joint::LKneePitch] = 0.6f;
    currents[Joint::RKneePitch] = 0.2f;
    aboveThreshold[Joint::LKneePitch] = true;
    for (OffsetSearch& search : searches.values)
      search.restart(p.minGearStep);
    // The knee's search stalls: worse at every step until it is at its finest.
    float adjustment = 0.f;
    for (int r = 0; r < 8 && searches[Joint::LKneePitch].stalledRounds() < 2; ++r)
      adjustment = searches[Joint::LKneePitch].round(at(adjustment, 0.6f + 0.01f * static_cast<float>(r)), p);
  }
  void round(bool groundContact = true)
  {
    HandOverRound in{requested,     currents, enabled,     blocked, aboveThreshold, torques,
                     groundContact, searches, adjustments, lowest,  highest};
    handOver.round(in, p);
  }
};
} // namespace

TEST(HandOver, TheMirrorOfAStuckPitchJointPushesOneStepARoundUntilTheStuckJointsCurrentFalls)
{
  HandOverWorld world;
  ASSERT_GE(world.searches[Joint::LKneePitch].stalledRounds(), 2);
  EXPECT_EQ(HandOver::mirrorOf(knee), static_cast<int>(mirror));
  EXPECT_EQ(HandOver::mirrorOf(index(Joint::LHipRoll)), -1) << "roll joints do not hand over";
  world.round(); // the requests stand still from here on
  EXPECT_FALSE(world.handOver.involves(mirror));
  world.round(); // the hand-over begins: no robot model, the first way is +
  EXPECT_TRUE(world.handOver.involves(knee));
  EXPECT_TRUE(world.handOver.involves(mirror));
  world.round();
  world.round();
  EXPECT_NEAR(world.adjustments[Joint::RKneePitch], 2 * world.p.minGearStep, rad);
  EXPECT_EQ(world.adjustments[Joint::LKneePitch], 0.f) << "the stuck joint holds its offset meanwhile";
  world.currents[Joint::LKneePitch] = 0.4f; // the push took a share
  world.round();
  EXPECT_FALSE(world.handOver.involves(mirror));
  EXPECT_NEAR(world.adjustments[Joint::RKneePitch], 2 * world.p.minGearStep, rad)
      << "the pusher keeps its push";
  EXPECT_EQ(world.searches[Joint::LKneePitch].stalledRounds(), 0) << "the helped joint searches again";
  EXPECT_EQ(world.handOver.events(), 0u);
}

TEST(HandOver, APushWithoutEffectIsUndoneTriedTheOtherWayAndThenNoMore)
{
  HandOverWorld world;
  world.round(); // the requests stand still from here on
  world.round(); // the hand-over begins
  for (int r = 0; r < world.p.handOverRounds; ++r)
    world.round();
  EXPECT_NEAR(world.adjustments[Joint::RKneePitch], 3 * world.p.minGearStep, rad);
  world.round(); // handOverRounds without effect: back to where it began, the other way
  EXPECT_EQ(world.adjustments[Joint::RKneePitch], 0.f);
  EXPECT_EQ(world.handOver.events(), 1u);
  EXPECT_EQ(world.handOver.lastEvent().rule, HeatGuardRule::handOverWithoutEffect);
  EXPECT_EQ(world.handOver.lastEvent().joint, mirror);
  world.round();
  EXPECT_NEAR(world.adjustments[Joint::RKneePitch], -world.p.minGearStep, rad) << "the other way";
  for (int r = 0; r < world.p.handOverRounds + 1; ++r)
    world.round();
  EXPECT_EQ(world.adjustments[Joint::RKneePitch], 0.f);
  EXPECT_EQ(world.handOver.events(), 2u);
  EXPECT_FALSE(world.handOver.involves(mirror)) << "both ways tried: not again in this posture";
  for (int r = 0; r < 5; ++r)
    world.round();
  EXPECT_EQ(world.adjustments[Joint::RKneePitch], 0.f);
}

TEST(HandOver, APushThatTakesThePusherAboveTheStuckJointIsUndone)
{
  HandOverWorld world;
  world.round();                            // the requests stand still from here on
  world.round();                            // the hand-over begins
  world.currents[Joint::RKneePitch] = 0.7f; // above 0.6 A × 1.1 + 20 mA = 0.68 A
  world.round();
  EXPECT_EQ(world.handOver.events(), 0u) << "one round is the load on its way";
  world.round();
  EXPECT_EQ(world.handOver.events(), 1u) << "pusherAboveRounds in a row";
  EXPECT_EQ(world.handOver.lastEvent().rule, HeatGuardRule::pusherAboveHelped);
  EXPECT_EQ(world.adjustments[Joint::RKneePitch], 0.f);
}

TEST(HandOver, NothingWithoutGroundContactFromAMirrorDrawingMoreOrWhileARequestMoves)
{
  {
    HandOverWorld world;
    world.round(false); // the legs share no load off the ground
    world.round(false);
    EXPECT_FALSE(world.handOver.involves(mirror));
  }
  {
    HandOverWorld world;
    world.currents[Joint::RKneePitch] = 0.65f; // would push from above the stuck joint's current
    world.round();
    world.round();
    EXPECT_FALSE(world.handOver.involves(mirror));
  }
  {
    HandOverWorld world;
    for (int r = 0; r < 4; ++r)
    {
      world.requested[Joint::LKneePitch] = 0.01f * static_cast<float>(r); // a balancer's wobble
      world.round();
    }
    EXPECT_FALSE(world.handOver.involves(mirror));
    EXPECT_EQ(world.adjustments[Joint::RKneePitch], 0.f);
  }
}

TEST(EnergySavingProviderHarness, AloneWithItsInputsItPassesThroughUntilAskedThenMeasuresAndAdjustsAJoint)
{
  // The module on a blackboard of its own (ModuleHarness), parameters from Config/: no robot, no other module.
  ModuleHarness<EnergySavingProvider> stage;
  StiffnessJointRequest& request = stage.input<StiffnessJointRequest>();
  request.angles[Joint::LKneePitch] = 1.f;
  request.stiffnesses.fill(1.f);
  stage.input<JointSensorData>().angles = request.angles;
  stage.input<JointLimits>().min.fill(-std::numbers::pi_v<float>);
  stage.input<JointLimits>().max.fill(std::numbers::pi_v<float>);
  stage.input<FsrSensorData>().left.totalWeight = stage.input<FsrSensorData>().right.totalWeight = 2.65f;
  stage.input<FilteredCurrent>().currents[Joint::LKneePitch] = 0.5f; // A
  FrameInfo& frame = stage.input<FrameInfo>();
  const auto frames = [&](int count)
  {
    for (int f = 0; f < count; ++f)
    {
      frame.time += 0.012;
      ++frame.frameNumber;
      stage.run();
    }
  };
  frames(50);
  EXPECT_EQ(stage.output<EnergySaving>().state, EnergySavingState::off) << "not asked";
  EXPECT_EQ(stage.output<JointRequest>().angles[Joint::LKneePitch], 1.f) << "passes through";
  EnergySavingRequest& ask = stage.input<EnergySavingRequest>();
  ask.adjust = ask.adjustLeftLeg = ask.adjustRightLeg = true;
  ask.posture = EnergySavingPosture::highStand; // no base offsets
  frames(100);                                  // 1.2 s: waiting, then working rounds every 250 ms
  const EnergySaving& status = stage.output<EnergySaving>();
  EXPECT_EQ(status.state, EnergySavingState::working);
  EXPECT_FLOAT_EQ(status.references[Joint::LKneePitch], 0.5f) << "what it draws without the stage";
  EXPECT_NE(status.offsets[Joint::LKneePitch], 0.f) << "its search has begun";
  EXPECT_FLOAT_EQ(stage.output<JointRequest>().angles[Joint::LKneePitch],
                  1.f + status.offsets[Joint::LKneePitch]);
  EXPECT_EQ(status.offsets[Joint::LShoulderPitch], 0.f) << "the arms are not asked for";
}
