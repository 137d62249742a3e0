// B-Human's released rounds on the shared cycle (BHumanEnergySavingProvider): its literal steps towards the reading
// from the request plus base offset with an emergency step every stepsBeforeEmergencyStep-th round, only the
// hottest leg joint per round in the normal stand, the always-positive emergency step of accuratePositions, and
// its file's numbers. The cycle's own rules (states, resets, fades, ranges): EnergySavingProvider's tests.
#include "Framework/Testing/ModuleHarness.h"
#include "Modules/MotionControl/BHumanEnergySavingProvider/BHumanEnergySavingProvider.h"
#include "Modules/MotionControl/EnergySavingProvider/Tests/EnergySavingRig.h"
#include "Tools/Streams/TomlFiles.h"
#include <gtest/gtest.h>
#include <initializer_list>
#include <utility>

using namespace nao;
using namespace nao::energytest;

namespace
{
RigOptions bHuman()
{
  RigOptions options;
  options.module = "BHumanEnergySavingProvider";
  return options;
}

void setSigns(EnergySavingRig& rig, const std::string& table,
              std::initializer_list<std::pair<Joint, int>> signs)
{
  for (const auto& [joint, sign] : signs)
    rig.setParameter(table + "." + std::string(name(joint)), sign);
}
} // namespace

TEST(BHumanEnergySaving, StepsTowardsTheReadingFromRequestPlusBaseAndEveryTenthRoundAnEmergencyStep)
{
  EnergySavingRig rig(bHuman());
  Inputs& in = inputs();
  in.energySaving = requestAll(EnergySavingPosture::none); // no base offsets; the stand's sign table
  setSigns(
      rig, "emergencyStepSignsStand",
      {{Joint::LKneePitch, 1}, {Joint::LAnklePitch, -1}, {Joint::RKneePitch, 1}, {Joint::LElbowRoll, -1}});
  struct Case
  {
    Joint joint;
    float reading;    ///< degrees from the request
    float step, sign; ///< rad: the step towards the reading from the request, and the emergency step's sign
    float offset = 0; ///< rad, by the rule
  };
  Case cases[] = {{Joint::LKneePitch, 0.5f, maxLeg, 1}, // on past the reading: d ignores the offset
                  {Joint::LAnklePitch, -0.1f, -m, -1},
                  {Joint::RKneePitch, 0.f, -m, 1},   // d == 0 steps down
                  {Joint::LElbowRoll, 0.3f, m, -1}}; // arms: maxGearStepArms only beyond 0.458°
  for (Case& c : cases)
  {
    in.measured[c.joint] = in.request.angles[c.joint] + c.reading * degree;
    in.currents[c.joint] = 0.5f; // constant: B-Human's steps do not look at its changes
  }
  for (int round = 1; round <= 11; ++round)
  {
    ASSERT_TRUE(rig.runUntilNextRound());
    for (Case& c : cases)
    {
      const bool emergency = round % rule::stepsBeforeEmergencyStep == 0;
      c.offset += emergency ? c.sign * (isLegJoint(c.joint) ? maxLeg : maxArm) : c.step;
      EXPECT_NEAR(rig.offset(c.joint), c.offset, 1e-5f) << name(c.joint) << ", round " << round;
      EXPECT_EQ(rig.energy().counters[c.joint], rule::stepsBeforeEmergencyStep - round % 10) << name(c.joint);
    }
    EXPECT_EQ(rig.energy().emergencySteps, round >= 10 ? 4u : 0u) << "round " << round;
    EXPECT_EQ(rig.energy().searching, JointArray<bool>{}) << "B-Human's rounds compare no currents";
  }
}

TEST(BHumanEnergySaving, InTheNormalStandOnlyTheHottestLegJointPerRoundArmsEveryRound)
{
  for (EnergySavingPosture posture : {EnergySavingPosture::stand, EnergySavingPosture::highStand})
  {
    EnergySavingRig rig(bHuman());
    Inputs& in = inputs();
    in.energySaving = requestAll(posture); // readings equal the requests: no base offsets, d == 0 steps down
    in.currents[Joint::LKneePitch] = 0.4f;
    in.currents[Joint::RAnklePitch] = -0.5f; // the highest |current|
    in.currents[Joint::LHipYawPitch] = 0.2f;
    in.currents[Joint::LElbowRoll] = 0.05f;
    ASSERT_TRUE(rig.runUntilNextRound());
    ASSERT_TRUE(rig.roundAt(Joint::LHipYawPitch, 0.6f)); // now the highest
    const bool stand = posture == EnergySavingPosture::stand;
    EXPECT_NEAR(rig.offset(Joint::RAnklePitch), stand ? -m : -2 * m, rad) << "the first round's hottest";
    EXPECT_NEAR(rig.offset(Joint::LHipYawPitch), stand ? -m : -2 * m, rad) << "the second round's";
    EXPECT_NEAR(rig.offset(Joint::LKneePitch), stand ? 0.f : -2 * m, rad) << "never the hottest";
    EXPECT_NEAR(rig.offset(Joint::LElbowRoll), -2 * m, rad) << "arms every round";
  }
}

TEST(BHumanEnergySaving, AccuratePositionsEmergencyStepsAlwaysUp)
{
  EnergySavingRig rig(bHuman());
  Inputs& in = inputs();
  in.energySaving = requestAll(EnergySavingPosture::stand);
  in.energySaving.accuratePositions = true;
  in.measured[Joint::LKneePitch] = in.request.angles[Joint::LKneePitch] + 0.1f * degree; // must go down
  for (int round = 1; round <= rule::stepsBeforeEmergencyStep; ++round)
    ASSERT_TRUE(rig.runUntilNextRound());
  const float fine = static_cast<float>(rule::accurateFineStepFraction) * m;
  EXPECT_NEAR(rig.offset(Joint::LKneePitch), -9 * fine + maxLeg, 1e-5f) << "nine fine steps down, then up";
  EXPECT_EQ(rig.energy().emergencySteps, 1u);
}

TEST(BHumanEnergySaving, ItLoadsBHumansNumbers)
{
  const BHumanEnergySavingParameters p = loadModuleParameters<BHumanEnergySavingParameters>(
      testConfigFiles().location, "BHumanEnergySavingProvider");
  EXPECT_FLOAT_EQ(p.adjustWaitTime, 0.5f);
  EXPECT_FLOAT_EQ(p.motionChangeWaitTime, 0.1f);
  EXPECT_FLOAT_EQ(p.legCurrentThreshold, 0.1f);
  EXPECT_FLOAT_EQ(p.armCurrentThreshold, 0.03f);
  EXPECT_EQ(p.stepsBeforeEmergencyStep, 10);
  EXPECT_NEAR(p.maxGearStepLegs, deg(0.2), 1e-8);
  EXPECT_NEAR(p.minGearStep, deg(0.0286479), 1e-8);
  EXPECT_EQ(p.emergencyStepSignsStand[Joint::LKneePitch], 1);
  EXPECT_EQ(p.emergencyStepSignsHighStand[Joint::LKneePitch], -1);
}
