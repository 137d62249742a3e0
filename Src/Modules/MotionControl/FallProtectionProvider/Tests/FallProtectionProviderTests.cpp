// FallProtectionProvider on ModuleHarness: the fall direction chooses the posture, the stiffness drops at once, a
// robot that lies still goes passive until it is upright again or the motion source asks for a get-up, the hand-back
// is smooth, bad input, and no allocation per frame.
#include "Framework/Testing/ModuleHarness.h"
#include "Modules/MotionControl/FallProtectionProvider/FallProtectionProvider.h"
#include "Tools/Testing/AllocationCounter.h"
#include <cmath>
#include <gtest/gtest.h>
#include <limits>

using namespace nao;

namespace
{
constexpr double frameTime = 0.012; // s, one LoLA frame

struct Rig
{
  ModuleHarness<FallProtectionProvider> h;
  JointArray<float> stand{};

  Rig()
  {
    for (std::size_t j = 0; j < numOfJoints; ++j)
      stand[j] = 0.05f * static_cast<float>(j % 7) - 0.1f;
    h.input<SafeMotionJointRequest>().angles = stand;
    h.input<SafeMotionJointRequest>().stiffnesses.fill(0.9f);
    h.input<JointSensorData>().angles = stand;
  }
  const FallSafeJointRequest& out() const { return h.output<FallSafeJointRequest>(); }
  const FallProtection& state() const { return h.output<FallProtection>(); }
  void frame()
  {
    h.input<FrameInfo>().time += frameTime;
    h.run();
  }
  void frames(int n)
  {
    for (int i = 0; i < n; ++i)
      frame();
  }
  void fall(FallState state, FallDirection direction = FallDirection::none)
  {
    h.input<FallDownState>().state = state;
    h.input<FallDownState>().direction = direction;
  }
  float angle(Joint joint) const { return out().angles[index(joint)]; }
};

int framesFor(double seconds)
{
  return static_cast<int>(std::ceil(seconds / frameTime)) + 1;
}
} // namespace

TEST(FallProtectionProvider, PassesThroughWhileUprightOrStaggering)
{
  Rig rig;
  rig.frames(10);
  rig.fall(FallState::staggering);
  rig.frames(10);
  EXPECT_EQ(rig.state().phase, FallProtectionPhase::passThrough);
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    EXPECT_EQ(rig.out().angles[j], rig.stand[j]) << j;
    EXPECT_EQ(rig.out().stiffnesses[j], 0.9f) << j;
  }
}

TEST(FallProtectionProvider, TheFallDirectionChoosesHeadAndArms)
{
  const struct
  {
    FallDirection direction;
    bool headBack;   ///< head pitched up (negative) rather than down
    bool armsBehind; ///< shoulder pitch beyond 90° (arms behind the torso) rather than in front
  } cases[] = {{FallDirection::front, true, false},
               {FallDirection::back, false, true},
               {FallDirection::left, false, false},
               {FallDirection::right, false, false}};
  for (const auto& c : cases)
  {
    Rig rig;
    rig.frames(5);
    rig.fall(FallState::falling, c.direction);
    rig.frame();
    const char* name = streams::enumName(c.direction).data();
    ASSERT_EQ(rig.state().phase, FallProtectionPhase::protecting) << name;
    EXPECT_EQ(rig.state().direction, c.direction) << name;
    EXPECT_EQ(rig.angle(Joint::HeadPitch) < -0.3f, c.headBack) << name;
    EXPECT_EQ(rig.angle(Joint::HeadPitch) > 0.3f, !c.headBack) << name;
    for (Joint shoulder : {Joint::LShoulderPitch, Joint::RShoulderPitch})
      EXPECT_EQ(rig.angle(shoulder) > 1.8f, c.armsBehind) << name;
    const FallProtectionParameters& p = rig.h.parameters();
    const bool sideways = c.direction == FallDirection::left || c.direction == FallDirection::right;
    for (std::size_t j = 0; j < numOfJoints; ++j)
    {
      const bool head = j == index(Joint::HeadYaw) || j == index(Joint::HeadPitch);
      EXPECT_EQ(rig.out().stiffnesses[j], sideways && head ? p.sideHeadStiffness : p.stiffnesses[j])
          << name << " " << j;
      EXPECT_LE(rig.out().stiffnesses[j], 0.3f) << name << " " << j; // the stiffness is low at once
    }
    // A direction that flickers during the fall changes nothing.
    rig.fall(FallState::falling,
             c.direction == FallDirection::back ? FallDirection::front : FallDirection::back);
    const float pitch = rig.angle(Joint::HeadPitch);
    rig.frame();
    EXPECT_EQ(rig.angle(Joint::HeadPitch), pitch) << name;
    EXPECT_EQ(rig.state().protectedFalls, 1u) << name;
  }
}

TEST(FallProtectionProvider, ARobotThatLiesStillGoesPassiveThenHandsBackSmoothlyOnceUpright)
{
  Rig rig;
  const FallProtectionParameters& p = rig.h.parameters();
  rig.frames(5);
  rig.fall(FallState::falling, FallDirection::front);
  rig.frames(40);
  rig.fall(FallState::fallen);
  JointArray<float> lying = p.frontPose;
  lying[index(Joint::LShoulderPitch)] += 0.3f; // the arms gave way on impact
  rig.h.input<JointSensorData>().angles = lying;
  rig.frames(framesFor(p.lieStillTime) - 2);
  EXPECT_EQ(rig.state().phase, FallProtectionPhase::protecting); // not yet
  rig.frames(2);
  ASSERT_EQ(rig.state().phase, FallProtectionPhase::lyingPassive);
  EXPECT_EQ(rig.state().passiveFalls, 1u);
  // Passive for as long as it lies, whatever the motion source asks: limp where it lies.
  rig.frames(framesFor(30.0));
  ASSERT_EQ(rig.state().phase, FallProtectionPhase::lyingPassive);
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    EXPECT_EQ(rig.out().stiffnesses[j], p.passiveStiffness) << j;
    EXPECT_EQ(rig.out().angles[j], lying[j]) << j;
  }
  // Stood up by a person: it hands back from the measured posture and the passive stiffness.
  rig.fall(FallState::upright);
  rig.frame();
  ASSERT_EQ(rig.state().phase, FallProtectionPhase::handingBack);
  EXPECT_NEAR(rig.angle(Joint::LShoulderPitch), lying[index(Joint::LShoulderPitch)], 0.01f);
  EXPECT_NEAR(rig.out().stiffnesses[index(Joint::LShoulderPitch)], p.passiveStiffness, 0.01f);
  JointArray<float> previous = rig.out().angles;
  float largestMove = 0;
  for (int f = 0; f < framesFor(p.handBackTime); ++f)
  {
    rig.frame();
    for (std::size_t j = 0; j < numOfJoints; ++j)
      largestMove = std::max(largestMove, std::abs(rig.out().angles[j] - previous[j]));
    previous = rig.out().angles;
  }
  // smoothstep: at most 1.5 × the mean speed; the largest distance is below 2.5 rad.
  EXPECT_LT(largestMove, 1.5f * 2.5f * static_cast<float>(frameTime / p.handBackTime));
  EXPECT_EQ(rig.state().phase, FallProtectionPhase::passThrough);
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    EXPECT_EQ(rig.out().angles[j], rig.stand[j]) << j;
    EXPECT_EQ(rig.out().stiffnesses[j], 0.9f) << j;
  }
}

TEST(FallProtectionProvider, AGetUpOfTheMotionSourceTakesTheJointsOfAPassiveRobot)
{
  Rig rig;
  const FallProtectionParameters& p = rig.h.parameters();
  rig.fall(FallState::falling, FallDirection::back);
  rig.frames(20);
  rig.fall(FallState::fallen);
  rig.frames(framesFor(p.lieStillTime) + 5);
  ASSERT_EQ(rig.state().phase, FallProtectionPhase::lyingPassive);
  rig.h.input<MotionJointRequest>().getUp = true;
  rig.frames(framesFor(p.handBackTime) + 1);
  EXPECT_EQ(rig.state().phase, FallProtectionPhase::passThrough);
  EXPECT_EQ(rig.out().angles, rig.stand);
  // While the get-up runs the robot still lies: nothing is taken over.
  rig.frames(framesFor(5.0));
  EXPECT_EQ(rig.state().phase, FallProtectionPhase::passThrough);
  // The get-up ends with the robot still lying (it failed): passive again.
  rig.h.input<MotionJointRequest>().getUp = false;
  rig.frame();
  EXPECT_EQ(rig.state().phase, FallProtectionPhase::lyingPassive);
  EXPECT_EQ(rig.state().passiveFalls, 2u);
}

TEST(FallProtectionProvider, ARobotLyingWithoutAFallSeenGoesPassiveToo)
{
  Rig rig;
  const FallProtectionParameters& p = rig.h.parameters();
  rig.fall(FallState::fallen, FallDirection::none); // started on the floor
  rig.frames(framesFor(p.lieStillTime) - 2);
  EXPECT_EQ(rig.state().phase, FallProtectionPhase::passThrough);
  rig.frames(2);
  EXPECT_EQ(rig.state().phase, FallProtectionPhase::lyingPassive);
  EXPECT_EQ(rig.state().protectedFalls, 0u);
}

TEST(FallProtectionProvider, ACaughtFallHandsBack)
{
  Rig rig;
  rig.fall(FallState::falling, FallDirection::left);
  rig.frames(10);
  ASSERT_EQ(rig.state().phase, FallProtectionPhase::protecting);
  rig.fall(FallState::upright);
  rig.frame();
  EXPECT_EQ(rig.state().phase, FallProtectionPhase::handingBack);
}

TEST(FallProtectionProvider, TheSitDownStageIsNotTakenOver)
{
  for (SitDownPhase phase : {SitDownPhase::sittingDown, SitDownPhase::sitting, SitDownPhase::standingUp})
  {
    Rig rig;
    rig.h.input<SitDown>().phase = phase;
    rig.frames(5);
    rig.fall(FallState::falling, FallDirection::back);
    rig.frames(10);
    EXPECT_EQ(rig.state().phase, FallProtectionPhase::passThrough) << streams::enumName(phase);
    EXPECT_EQ(rig.out().angles, rig.stand) << streams::enumName(phase);
    // Once the sit-down hands back, a fall that is still certain is taken over.
    rig.h.input<SitDown>().phase = SitDownPhase::passThrough;
    rig.frame();
    EXPECT_EQ(rig.state().phase, FallProtectionPhase::protecting) << streams::enumName(phase);
  }
}

TEST(FallProtectionProvider, BadInputNeitherJumpsNorGoesNaN)
{
  Rig rig;
  rig.frames(5);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  rig.h.input<SafeMotionJointRequest>().angles[index(Joint::RKneePitch)] = nan;
  rig.h.input<SafeMotionJointRequest>().stiffnesses[index(Joint::RKneePitch)] = nan;
  rig.frames(5);
  EXPECT_EQ(rig.angle(Joint::RKneePitch), rig.stand[index(Joint::RKneePitch)]);
  EXPECT_EQ(rig.out().stiffnesses[index(Joint::RKneePitch)], 0.9f);
  // A fall and the hand-back with NaN measurements: the hand-back starts from the last request.
  rig.fall(FallState::falling, FallDirection::back);
  rig.frames(5);
  rig.fall(FallState::upright);
  rig.h.input<JointSensorData>().angles.fill(nan);
  const JointArray<float> before = rig.out().angles;
  rig.frame();
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    EXPECT_TRUE(std::isfinite(rig.out().angles[j])) << j;
    EXPECT_TRUE(std::isfinite(rig.out().stiffnesses[j])) << j;
    EXPECT_LT(std::abs(rig.out().angles[j] - before[j]), 0.01f) << j;
  }
}

TEST(FallProtectionProvider, NothingAllocatesPerFrame)
{
  Rig rig;
  rig.frames(5);
  nao::test::ThreadAllocationCount count;
  for (FallDirection direction : {FallDirection::front, FallDirection::back, FallDirection::left})
  {
    rig.fall(FallState::falling, direction);
    rig.frames(50);
    rig.fall(FallState::fallen);
    rig.frames(200);
    rig.h.input<MotionJointRequest>().getUp = direction == FallDirection::back;
    rig.frames(20);
    rig.fall(FallState::upright);
    rig.frames(100);
    rig.h.input<MotionJointRequest>().getUp = false;
  }
  rig.h.parameters().handBackTime = 0.5f; // a live edit
  rig.frames(5);
  EXPECT_EQ(count.allocations(), 0u);
}
