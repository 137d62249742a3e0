// The reset condition after a round: (>= 4 leg joints beyond 1.5° or any joint at 3°) and (centre of mass
// outside x -20..50 mm, y -50..50 mm in the torso frame, or no ground contact); and what follows such a
// reset.
#include "Modules/MotionControl/EnergySavingProvider/Tests/EnergySavingRig.h"
#include <gtest/gtest.h>
#include <initializer_list>

using namespace nao;
using namespace nao::energytest;

namespace
{
constexpr float maxLeg = 0.2f * degree;

/// Posture none (no base offsets, every leg joint adjusted each round): `joints` are measured 5° above their
/// request and draw 500 mA (over both thresholds), so each round moves them 0.2° (emergency steps also go
/// toward measured). Returns the round after which the reset began, or 0 if none began within `rounds`.
int roundOfReset(std::initializer_list<Joint> joints, std::array<float, 3> centerOfMass, int rounds)
{
  EnergySavingRig rig;
  Inputs& in = inputs();
  in.energySaving = requestAll(EnergySavingPosture::none);
  for (Joint joint : joints)
  {
    in.measured[joint] = in.request.angles[joint] + 5.f * degree;
    in.currents[joint] = 0.5f;
  }
  EXPECT_TRUE(rig.runUntilState(EnergySavingState::working, 2.0));
  in.centerOfMass = centerOfMass;
  for (int round = 1; round <= rounds; ++round)
  {
    EXPECT_TRUE(rig.runUntilNextRound());
    if (rig.state() == EnergySavingState::resetState)
    {
      EXPECT_EQ(rig.energy().lastResetReason, EnergySavingResetReason::offsetsTooLarge);
      for (Joint joint : joints)
        EXPECT_NEAR(rig.offset(joint), round * maxLeg, 1e-5f) << "the fade starts from the round's offsets";
      return round;
    }
  }
  return 0;
}

constexpr std::array<float, 3> comInside{0.003f, 0.f, -0.05f};
} // namespace

TEST(EnergySavingReset, FourLegJointsBeyond1Point5DegreesWithTheCentreOfMassOutsideInX)
{
  const auto four = {Joint::LKneePitch, Joint::RKneePitch, Joint::LAnklePitch, Joint::RAnklePitch};
  EXPECT_EQ(roundOfReset(four, {0.051f, 0.f, -0.05f}, 20), 8) << "8 x 0.2° = 1.6° > 1.5°";
  EXPECT_EQ(roundOfReset(four, {-0.021f, 0.f, -0.05f}, 20), 8);
}

TEST(EnergySavingReset, FourLegJointsBeyond1Point5DegreesWithTheCentreOfMassOutsideInY)
{
  const auto four = {Joint::LHipPitch, Joint::RHipPitch, Joint::LKneePitch, Joint::RKneePitch};
  EXPECT_EQ(roundOfReset(four, {0.f, 0.051f, -0.05f}, 20), 8);
  EXPECT_EQ(roundOfReset(four, {0.f, -0.051f, -0.05f}, 20), 8);
}

TEST(EnergySavingReset, ThreeLegJointsBeyond1Point5DegreesOnlyWhenOneReaches3Degrees)
{
  EXPECT_EQ(
      roundOfReset({Joint::LKneePitch, Joint::RKneePitch, Joint::LAnklePitch}, {0.06f, 0.f, -0.05f}, 20), 15)
      << "15 x 0.2° = 3°, the clamp";
}

TEST(EnergySavingReset, OneJointAt3DegreesWithTheCentreOfMassOutside)
{
  EXPECT_EQ(roundOfReset({Joint::LAnkleRoll}, {0.f, 0.06f, -0.05f}, 20), 15);
}

TEST(EnergySavingReset, NoResetWhileTheCentreOfMassIsInsideItsWindow)
{
  const auto four = {Joint::LKneePitch, Joint::RKneePitch, Joint::LAnklePitch, Joint::RAnklePitch};
  EXPECT_EQ(roundOfReset(four, comInside, 20), 0);
  EXPECT_EQ(roundOfReset(four, {0.0499f, 0.0499f, -0.05f}, 20), 0) << "the window's edges are inside";
  EXPECT_EQ(roundOfReset(four, {-0.0199f, -0.0499f, -0.05f}, 20), 0);
}

TEST(EnergySavingReset, AfterTheFadeOfATooLargeResetWorkingGoesOnAtOnce)
{
  EnergySavingRig rig;
  Inputs& in = inputs();
  in.energySaving = requestAll(EnergySavingPosture::none);
  for (Joint joint : {Joint::LKneePitch, Joint::RKneePitch, Joint::LAnklePitch, Joint::RAnklePitch})
  {
    in.measured[joint] = in.request.angles[joint] + 5.f * degree;
    in.currents[joint] = 0.5f;
  }
  in.centerOfMass = {0.08f, 0.f, -0.05f};
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::resetState, 10.0));
  const double resetStart = rig.time();
  ASSERT_TRUE(rig.runUntil([&] { return rig.state() != EnergySavingState::resetState; }, 4.0));
  EXPECT_NEAR(rig.time() - resetStart, 3.0, frameTime + 1e-9);
  EXPECT_EQ(rig.state(), EnergySavingState::working) << "not via waiting";
  EXPECT_EQ(rig.offset(Joint::LKneePitch), 0.f);
  EXPECT_EQ(rig.energy().counters[Joint::LKneePitch], 10);
  ASSERT_TRUE(rig.runUntilNextRound());
  EXPECT_NEAR(rig.offset(Joint::LKneePitch), maxLeg, 1e-6f) << "adjusting again from 0";
}
