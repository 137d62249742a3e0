// Caps and the reset check after a round: a leg offset is capped at maxOffset; largeOffsetJointsForReset leg
// joints beyond largeOffset, or one capped, reset unless the centre of mass is "stable" (B-Human's
// isComStable): never in the normal stand, in posture none or without ground contact; in the high stand when
// the centre of mass, relative to the point between the soles and turned into the ground-aligned frame by the
// IMU's roll and pitch, lies in its window. And what follows such a reset.
#include "Modules/MotionControl/EnergySavingProvider/Tests/EnergySavingRig.h"
#include <Eigen/Geometry>
#include <gtest/gtest.h>
#include <limits>
#include <vector>

using namespace nao;
using namespace nao::energytest;

namespace
{
const float cap = deg(rule::maxOffset), large = deg(rule::largeOffset);
const std::vector<Joint> four{Joint::LKneePitch, Joint::RKneePitch, Joint::LAnklePitch, Joint::RAnklePitch};
const std::vector<Joint> three{Joint::LHipPitch, Joint::RHipPitch, Joint::LKneePitch};

struct Scene
{
  EnergySavingPosture posture = EnergySavingPosture::highStand;
  std::vector<Joint> joints = four;
  std::array<float, 3> centerOfMass{0.003f, 0.f, -0.05f}; ///< m, torso frame
  std::array<float, 3> leftSole{0.f, 0.05f, -0.3f};       ///< m, torso frame
  std::array<float, 3> rightSole{0.f, -0.05f, -0.3f};     ///< m, torso frame
  std::array<float, 2> torso{0.f, 0.f};                   ///< rad, IMU roll and pitch
  bool contact = true;
};

/// The offset of a joint after `round` rounds of maxGearStepLegs, capped.
float offsetAfter(int round)
{
  float offset = 0;
  for (int r = 0; r < round; ++r)
    offset = std::min(offset + maxLeg, cap);
  return offset;
}

/// The round after which the rule resets `joints` stepping maxGearStepLegs each round (0: never, when
/// stable).
int expectedRound(std::size_t joints, bool stable)
{
  if (stable) return 0;
  for (int round = 1;; ++round)
  {
    const float free = offsetAfter(round - 1) + maxLeg;
    if (free > cap || (free > large && joints >= static_cast<std::size_t>(rule::largeOffsetJointsForReset)))
      return round;
  }
}

/// Whether the rule finds the centre of mass of `scene` in its window: relative to the point between the
/// soles, turned from the torso frame into the ground-aligned one (R = Ry(pitch) Rx(roll)).
bool inWindow(const Scene& scene)
{
  Eigen::Vector3f relative;
  for (int axis = 0; axis < 3; ++axis)
    relative[axis] = scene.centerOfMass[axis] - 0.5f * (scene.leftSole[axis] + scene.rightSole[axis]);
  const Eigen::Vector3f ground = Eigen::AngleAxisf(scene.torso[1], Eigen::Vector3f::UnitY()) *
                                 Eigen::AngleAxisf(scene.torso[0], Eigen::Vector3f::UnitX()) * relative;
  return ground.x() >= milli(rule::centerOfMassMin[0]) && ground.x() <= milli(rule::centerOfMassMax[0]) &&
         ground.y() >= milli(rule::centerOfMassMin[1]) && ground.y() <= milli(rule::centerOfMassMax[1]);
}

/// `scene.joints` read 5° above their requests once waiting began (no base offsets) and draw falling
/// currents: each round moves them maxGearStepLegs. The round after which a reset began, or 0 if none within
/// 20 rounds.
int roundOfReset(const Scene& scene)
{
  EnergySavingRig rig;
  Inputs& in = inputs();
  in.energySaving = requestAll(scene.posture);
  in.centerOfMass = scene.centerOfMass;
  in.leftSole = scene.leftSole;
  in.rightSole = scene.rightSole;
  in.torsoAngles = scene.torso;
  if (!scene.contact) in.leftFootWeight = in.rightFootWeight = 0.f;
  FallingCurrents currents;
  for (Joint joint : scene.joints)
    currents.heat(joint, 1.f);
  rig.plant = &currents;
  rig.frame();
  EXPECT_EQ(rig.state(), EnergySavingState::waiting);
  for (Joint joint : scene.joints)
    in.measured[joint] = in.request.angles[joint] + 5.f * degree;
  for (int round = 1; round <= 20; ++round)
  {
    EXPECT_TRUE(rig.runUntilNextRound());
    if (rig.state() == EnergySavingState::resetState)
    {
      EXPECT_EQ(rig.energy().lastResetReason, EnergySavingResetReason::offsetsTooLarge);
      for (Joint joint : scene.joints)
        EXPECT_NEAR(rig.offset(joint), offsetAfter(round), 1e-5f)
            << "the fade starts from the capped offsets";
      return round;
    }
    EXPECT_EQ(rig.state(), EnergySavingState::working);
    for (Joint joint : scene.joints)
      EXPECT_NEAR(rig.offset(joint), offsetAfter(round), 1e-5f) << name(joint) << ", round " << round;
  }
  return 0;
}
} // namespace

TEST(EnergySavingReset, InTheNormalStandAndInPostureNoneLargeOffsetsAlwaysReset)
{
  for (EnergySavingPosture posture : {EnergySavingPosture::stand, EnergySavingPosture::none})
  {
    Scene scene;
    scene.posture = posture;
    ASSERT_TRUE(inWindow(scene));
    EXPECT_EQ(roundOfReset(scene), expectedRound(4, false)) << "four beyond 1.5°";
    EXPECT_EQ(expectedRound(4, false), 8) << "8 x 0.2° = 1.6°";
    scene.joints = {Joint::LAnkleRoll};
    EXPECT_EQ(roundOfReset(scene), expectedRound(1, false)) << "one at the cap";
  }
}

TEST(EnergySavingReset, InTheHighStandOnlyWithTheCentreOfMassOutsideItsWindow)
{
  const std::array<float, 3> positions[] = {{0.003f, 0.f, -0.05f},        {0.0499f, 0.0499f, -0.05f},
                                            {-0.0199f, -0.0499f, -0.05f}, // inside, edges
                                            {0.051f, 0.f, -0.05f},        {-0.021f, 0.f, -0.05f},
                                            {0.f, 0.051f, -0.05f},        {0.f, -0.051f, -0.05f}};
  for (const auto& centerOfMass : positions)
  {
    Scene scene;
    scene.centerOfMass = centerOfMass;
    EXPECT_EQ(roundOfReset(scene), expectedRound(4, inWindow(scene)))
        << centerOfMass[0] << ", " << centerOfMass[1] << " m";
  }
}

TEST(EnergySavingReset, ThreeLegJointsBeyondLargeOffsetResetOnlyOnceOneIsCapped)
{
  Scene scene;
  scene.joints = three;
  scene.centerOfMass = {0.06f, 0.f, -0.05f};
  ASSERT_FALSE(inWindow(scene));
  EXPECT_EQ(roundOfReset(scene), expectedRound(3, false));
  EXPECT_GE(expectedRound(3, false), 15) << "3° / 0.2°";
}

TEST(EnergySavingReset, WithoutGroundContactTheHighStandIsNotStable)
{
  Scene scene;
  scene.contact = false;
  ASSERT_TRUE(inWindow(scene));
  EXPECT_EQ(roundOfReset(scene), expectedRound(4, false));
}

TEST(EnergySavingReset, TheCentreOfMassCountsFromThePointBetweenTheSoles)
{
  Scene scene;
  scene.centerOfMass = {0.07f, 0.09f, -0.05f};
  scene.leftSole = {0.04f, 0.15f, -0.3f}; // between the soles: (0.04, 0.05)
  scene.rightSole = {0.04f, -0.05f, -0.3f};
  ASSERT_TRUE(inWindow(scene)) << "(0.03, 0.04) from between the soles";
  EXPECT_EQ(roundOfReset(scene), 0);
  scene.leftSole = {0.f, 0.05f, -0.3f};
  scene.rightSole = {0.f, -0.05f, -0.3f};
  ASSERT_FALSE(inWindow(scene)) << "(0.07, 0.09)";
  EXPECT_EQ(roundOfReset(scene), expectedRound(4, false));
}

TEST(EnergySavingReset, TheCentreOfMassIsTakenInTheGroundAlignedFrameOfTheTorsoAngles)
{
  // 25 cm straight above the soles in the torso frame: a tilted torso puts it elsewhere over the ground.
  const std::array<float, 2> tilts[] = {{0.f, 0.3f}, {0.f, -0.1f}, {0.f, 0.1f}, {0.3f, 0.f}, {-0.15f, 0.f}};
  int inside = 0;
  for (const auto& torso : tilts)
  {
    Scene scene;
    scene.centerOfMass = {0.f, 0.f, -0.05f};
    scene.torso = torso;
    inside += inWindow(scene);
    EXPECT_EQ(roundOfReset(scene), expectedRound(4, inWindow(scene)))
        << "roll " << torso[0] << ", pitch " << torso[1];
  }
  EXPECT_EQ(inside, 2) << "pitch 0.1 (2.5 cm forward) and roll -0.15 (3.7 cm left) lie inside";
}

TEST(EnergySavingReset, AnUnknownCentreOfMassOrTorsoAngleIsNotStable)
{
  constexpr float notANumber = std::numeric_limits<float>::quiet_NaN();
  Scene scene;
  scene.centerOfMass = {notANumber, 0.f, -0.05f};
  EXPECT_EQ(roundOfReset(scene), expectedRound(4, false));
  scene = Scene{};
  scene.torso = {0.f, notANumber};
  EXPECT_EQ(roundOfReset(scene), expectedRound(4, false));
}

TEST(EnergySavingReset, AfterTheFadeOfATooLargeResetWorkingGoesOnAtOnceFromZero)
{
  EnergySavingRig rig;
  Inputs& in = inputs(); // normal stand: never stable
  FallingCurrents currents;
  for (Joint joint : four)
    currents.heat(joint, 1.f);
  rig.plant = &currents;
  rig.frame();
  for (Joint joint : four)
    in.measured[joint] = in.request.angles[joint] + 5.f * degree;
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::resetState, 10.0));
  const double resetStart = rig.time();
  ASSERT_TRUE(rig.runUntil([&] { return rig.state() != EnergySavingState::resetState; }, 4.0));
  EXPECT_NEAR(rig.time() - resetStart, milli(rule::resetTime), frameTime + 1e-9);
  EXPECT_EQ(rig.state(), EnergySavingState::working) << "not via waiting";
  for (Joint joint : four)
  {
    EXPECT_EQ(rig.offset(joint), 0.f) << "no base offsets though the reading lies 5° away";
    EXPECT_EQ(rig.energy().counters[joint], rule::stepsBeforeEmergencyStep);
  }
  ASSERT_TRUE(rig.runUntilNextRound(milli(rule::adjustWaitTime) + frameTime));
  for (Joint joint : four)
    EXPECT_NEAR(rig.offset(joint), maxLeg, 1e-6f) << "a new search from 0";
}
