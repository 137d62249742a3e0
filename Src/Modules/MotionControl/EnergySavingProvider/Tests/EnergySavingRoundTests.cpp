// One adjustment round's rules: thresholds (legs, large offsets, arms, overrides), the first step of a search
// (towards the reading from the motor's target, or along the sign table where they agree), which joints a
// round adjusts (every joint), the joint ranges, accuratePositions, a limb the request no longer lets us adjust, and
// an arm joint at the cap. B-Human's released rounds: BHumanEnergySavingProvider's tests.
#include "Modules/MotionControl/EnergySavingProvider/Tests/EnergySavingRig.h"
#include <cmath>
#include <gtest/gtest.h>
#include <initializer_list>
#include <utility>

using namespace nao;
using namespace nao::energytest;

namespace
{
/// Sets entries of a sign table ("emergencyStepSignsStand" or "emergencyStepSignsHighStand").
void setSigns(EnergySavingRig& rig, const std::string& table,
              std::initializer_list<std::pair<Joint, int>> signs)
{
  for (const auto& [joint, sign] : signs)
    rig.setParameter(table + "." + std::string(name(joint)), sign);
}

/// The rig in `posture`, `joint` reading `degrees` from its request and drawing `amperes`: the offset after
/// the first round.
float offsetAfterOneRound(EnergySavingPosture posture, Joint joint, float degrees, float amperes)
{
  EnergySavingRig rig;
  Inputs& in = inputs();
  in.energySaving = requestAll(posture);
  in.measured[joint] = in.request.angles[joint] + degrees * degree;
  in.currents[joint] = amperes;
  EXPECT_TRUE(rig.runUntilNextRound());
  return rig.offset(joint);
}
} // namespace

TEST(EnergySavingRounds, LegThresholdIs100mA)
{
  for (float current : {0.099f, 0.101f, -0.101f})
    EXPECT_NEAR(offsetAfterOneRound(EnergySavingPosture::highStand, Joint::LKneePitch, 0.45f, current),
                std::abs(current) > milli(rule::legCurrentThreshold) ? maxLeg : 0.f, rad)
        << current << " A";
}

TEST(EnergySavingRounds, LegThresholdIs300mAOnceTheRoundOffsetExceedsLargeOffset)
{
  EnergySavingRig rig;
  Inputs& in = inputs();
  in.energySaving = requestAll(EnergySavingPosture::highStand);
  in.measured[Joint::LHipPitch] = in.request.angles[Joint::LHipPitch] - 5.f * degree; // far: -0.2° per round
  in.currents[Joint::LHipPitch] = 0.29f;
  for (int round = 1; round <= 8; ++round) // falling currents: the search goes on by the same step
    ASSERT_TRUE(rig.roundAt(Joint::LHipPitch, 0.291f - 0.001f * static_cast<float>(round)));
  EXPECT_NEAR(rig.offset(Joint::LHipPitch), -8 * maxLeg, 1e-5f)
      << "1.4° after 7 rounds: 283 mA still adjusts";
  for (int round = 0; round < 3; ++round)
    ASSERT_TRUE(rig.roundAt(Joint::LHipPitch, 0.28f));
  EXPECT_NEAR(rig.offset(Joint::LHipPitch), -8 * maxLeg, 1e-5f) << "1.6° > 1.5°: 280 mA < 300 mA";
  ASSERT_TRUE(rig.roundAt(Joint::LHipPitch, -0.31f));
  EXPECT_NEAR(rig.offset(Joint::LHipPitch), -9 * maxLeg, 1e-5f) << "|-310 mA| > 300 mA";
}

TEST(EnergySavingRounds, TheLargeOffsetThresholdCountsTheRoundOffsetNotTheBaseOffset)
{
  EnergySavingRig rig;
  Inputs& in = inputs(); // normal stand: the knee's base offset takes its 2°
  in.measured[Joint::LKneePitch] = in.request.angles[Joint::LKneePitch] + 2.f * degree;
  in.currents[Joint::LKneePitch] = 0.2f;
  setSigns(rig, "emergencyStepSignsStand", {{Joint::LKneePitch, 1}});
  ASSERT_TRUE(rig.runUntilNextRound());
  EXPECT_NEAR(rig.offset(Joint::LKneePitch), 2.f * degree + m, rad) << "200 mA > 100 mA: reading = target";
}

TEST(EnergySavingRounds, ArmThresholdIs30mAAndArmStepsAreLarger)
{
  for (float current : {0.029f, 0.031f})
  {
    const bool above = current > milli(rule::armCurrentThreshold);
    EXPECT_NEAR(offsetAfterOneRound(EnergySavingPosture::stand, Joint::RShoulderRoll, 2.f, current),
                above ? maxArm : 0.f, rad)
        << current << " A";
    EXPECT_NEAR(offsetAfterOneRound(EnergySavingPosture::stand, Joint::LElbowYaw, -0.3f, current),
                above ? -m : 0.f, rad)
        << current << " A: 0.3° < maxGearStepArms";
  }
}

TEST(EnergySavingRounds, PerJointThresholdOverrideReplacesTheRule)
{
  EnergySavingRig rig;
  Inputs& in = inputs();
  in.energySaving = requestAll(EnergySavingPosture::highStand);
  in.measured[Joint::RKneePitch] = in.request.angles[Joint::RKneePitch] + 0.45f * degree;
  in.currents[Joint::RKneePitch] = 0.15f;
  rig.setParameter("currentThresholdOverrides.RKneePitch", 200.0);
  ASSERT_TRUE(rig.runUntilNextRound());
  EXPECT_EQ(rig.offset(Joint::RKneePitch), 0.f) << "150 mA < the 200 mA override";
  ASSERT_TRUE(rig.roundAt(Joint::RKneePitch, 0.21f));
  EXPECT_NEAR(rig.offset(Joint::RKneePitch), maxLeg, rad);
}

TEST(EnergySavingRounds, TheFirstStepGoesTowardsTheReadingOrWhereTheyAgreeAlongTheSignTable)
{
  EnergySavingRig rig;
  Inputs& in = inputs();
  in.energySaving = requestAll(EnergySavingPosture::highStand);
  setSigns(rig, "emergencyStepSignsHighStand",
           {{Joint::LKneePitch, -1},
            {Joint::RHipRoll, -1},
            {Joint::RKneePitch, 1},
            {Joint::LAnklePitch, -1},
            {Joint::RAnkleRoll, 1},
            {Joint::LShoulderPitch, -1}}); // where the reading differs, it decides
  const std::pair<Joint, float> readings[] = {
      {Joint::LAnklePitch, 0.5f},   // farther than maxGearStep: +maxGearStep
      {Joint::RAnkleRoll, -0.15f},  // beyond the band, within maxGearStep: -minGearStep
      {Joint::LShoulderPitch, 1.f}, // an arm: +maxGearStepArms
      {Joint::LKneePitch,
       0.08f},                // within the band (0.088°): the sign table's -1, though the reading is above
      {Joint::RHipRoll, 0.f}, // agreeing: the sign table's -1 (B-Human's: +1)
      {Joint::RKneePitch, -0.05f}}; // within the band: the sign table's +1
  for (const auto& [joint, degrees] : readings)
  {
    in.measured[joint] = in.request.angles[joint] + degrees * degree;
    in.currents[joint] = 0.5f;
  }
  ASSERT_TRUE(rig.runUntilNextRound());
  EXPECT_NEAR(rig.offset(Joint::LAnklePitch), maxLeg, rad);
  EXPECT_NEAR(rig.offset(Joint::RAnkleRoll), -m, rad);
  EXPECT_NEAR(rig.offset(Joint::LShoulderPitch), maxArm, rad);
  EXPECT_NEAR(rig.offset(Joint::LKneePitch), -m, rad);
  EXPECT_NEAR(rig.offset(Joint::RHipRoll), -m, rad);
  EXPECT_NEAR(rig.offset(Joint::RKneePitch), m, rad);
}

namespace
{
/// Stand leg joints reading their requests (no base offsets, the sign tables decide), hot: the offsets after
/// two rounds; RAnklePitch is the hottest leg joint in the first, LHipYawPitch in the second.
JointArray<float> offsetsAfterTwoRounds(EnergySavingPosture posture)
{
  EnergySavingRig rig;
  Inputs& in = inputs();
  in.energySaving = requestAll(posture);
  for (const char* table : {"emergencyStepSignsStand", "emergencyStepSignsHighStand"})
    setSigns(rig, table,
             {{Joint::LKneePitch, 1},
              {Joint::RAnklePitch, -1},
              {Joint::LHipYawPitch, -1},
              {Joint::LElbowRoll, -1}});
  in.currents[Joint::LKneePitch] = 0.4f;
  in.currents[Joint::RAnklePitch] = -0.5f; // highest |current|
  in.currents[Joint::LHipYawPitch] = 0.2f;
  in.currents[Joint::LElbowRoll] = 0.05f;
  EXPECT_TRUE(rig.runUntilNextRound());
  in.currents[Joint::RAnklePitch] = -0.49f; // lower: the searches go on by the same step
  in.currents[Joint::LKneePitch] = 0.39f;
  in.currents[Joint::LElbowRoll] = 0.049f;
  EXPECT_TRUE(rig.roundAt(Joint::LHipYawPitch, 0.6f)); // now the highest (B-Human's filter would skip it)
  JointArray<float> offsets;
  for (std::size_t j = 0; j < numOfJoints; ++j)
    offsets[j] = rig.offset(jointAt(j));
  return offsets;
}
} // namespace

TEST(EnergySavingRounds, EveryJointIsAdjustedEveryRoundByDefault)
{
  for (EnergySavingPosture posture : {EnergySavingPosture::stand, EnergySavingPosture::highStand})
  {
    const JointArray<float> offsets = offsetsAfterTwoRounds(posture);
    EXPECT_NEAR(offsets[Joint::RAnklePitch], -2 * m, rad);
    EXPECT_NEAR(offsets[Joint::LKneePitch], 2 * m, rad);
    EXPECT_NEAR(offsets[Joint::LHipYawPitch], -0.5f * m, rad) << "600 mA after 200 mA: a rise, back by half";
    EXPECT_NEAR(offsets[Joint::LElbowRoll], -2 * m, rad);
  }
}

TEST(EnergySavingRounds, OffsetsNeverPushARequestWithinTheJointRangeBeyondIt)
{
  EnergySavingRig rig;
  Inputs& in = inputs();
  // The elbow is requested 0.5° from its stop (-2°, nao-v6.urdf); it reads beyond the stop, and is hot.
  in.limits.min[Joint::LElbowRoll] = -88.5f * degree;
  in.limits.max[Joint::LElbowRoll] = -2.f * degree;
  in.measured[Joint::LElbowRoll] = -1.f * degree;
  // The knee is requested 0.2° below a (narrowed) stop and reads 1° beyond its request: a base offset of 1°.
  in.limits.max[Joint::RKneePitch] = in.request.angles[Joint::RKneePitch] + 0.2f * degree;
  in.measured[Joint::RKneePitch] = in.request.angles[Joint::RKneePitch] + 1.f * degree;
  // The shoulder's request lies beyond its range already: the rule does not apply, its offsets are not cut.
  in.limits.max[Joint::LShoulderPitch] = in.request.angles[Joint::LShoulderPitch] - 1.f * degree;
  in.measured[Joint::LShoulderPitch] = in.request.angles[Joint::LShoulderPitch] + 2.f * degree;
  FallingCurrents currents;
  for (Joint joint : {Joint::LElbowRoll, Joint::RKneePitch, Joint::LShoulderPitch})
    currents.heat(joint, 0.5f);
  rig.plant = &currents;
  bool elbowAtStop = false, kneeAtStop = false;
  for (int frame = 0; frame < 400; ++frame)
  {
    rig.frame();
    for (Joint joint : {Joint::LElbowRoll, Joint::RKneePitch})
    {
      ASSERT_LE(rig.output().angles[joint], in.limits.max[joint]) << name(joint) << " at " << rig.time();
      ASSERT_GE(rig.output().angles[joint], in.limits.min[joint]) << name(joint) << " at " << rig.time();
    }
    const auto atStop = [&](Joint joint)
    { return rig.output().angles[joint] >= in.limits.max[joint] - 1e-6f; };
    elbowAtStop = elbowAtStop || atStop(Joint::LElbowRoll);
    kneeAtStop = kneeAtStop || atStop(Joint::RKneePitch);
  }
  EXPECT_TRUE(elbowAtStop) << "the rounds pushed the elbow to its stop";
  EXPECT_TRUE(kneeAtStop) << "the base offset pushed the knee to its stop";
  EXPECT_GT(rig.offset(Joint::LShoulderPitch), 1.f * degree) << "beyond its range already: not cut back";
}

/// The joint settles `sag` away from its request (gravity), as measured next frame.
class SaggingPlant : public Plant
{
public:
  JointArray<float> sag;
  void respond(const JointRequest& request, Inputs& in) override
  {
    for (std::size_t j = 0; j < numOfJoints; ++j)
      in.measured[j] = request.angles[j] + sag[j];
  }
};

TEST(EnergySavingRounds, AccuratePositionsMovesLegRequestsUntilTheMeasuredAnglesReachTheRequestedOnes)
{
  EnergySavingRig rig;
  Inputs& in = inputs();
  in.energySaving.accuratePositions = true;
  SaggingPlant plant;
  plant.sag[Joint::LKneePitch] = 0.93f * degree;
  plant.sag[Joint::RAnklePitch] = -0.5f * degree;
  plant.sag[Joint::LShoulderRoll] = 1.f * degree;
  in.currents[Joint::LShoulderRoll] = 1.f; // would be adjusted in energy saving mode
  rig.plant = &plant;
  // The rule: e = requested - measured = -(offset + sag); |e| <= minGearStep: nothing; else a count down, and
  // a step of maxGearStepLegs when |e| > maxGearStepLegs, else minGearStep / 2, towards e; at 0 an emergency
  // step of maxGearStepLegs towards e (B-Human: always +).
  struct Joint1
  {
    Joint joint;
    float offset = 0;
    int counter = rule::stepsBeforeEmergencyStep;
  } knee{Joint::LKneePitch}, ankle{Joint::RAnklePitch};
  int emergencySteps = 0;
  for (int round = 1; round <= 30; ++round)
  {
    for (Joint1* j : {&knee, &ankle})
    {
      const float error = -(j->offset + plant.sag[j->joint]);
      if (std::abs(error) <= m) continue;
      const float direction = error > 0 ? 1.f : -1.f;
      const bool emergency = --j->counter <= 0;
      if (emergency)
      {
        j->counter = rule::stepsBeforeEmergencyStep;
        ++emergencySteps;
      }
      j->offset += direction * (emergency || std::abs(error) > maxLeg ? maxLeg : 0.5f * m);
    }
    ASSERT_TRUE(rig.runUntilNextRound());
    EXPECT_NEAR(rig.offset(Joint::LKneePitch), knee.offset, 1e-5f) << "round " << round;
    EXPECT_NEAR(rig.offset(Joint::RAnklePitch), ankle.offset, 1e-5f) << "round " << round;
  }
  EXPECT_GE(emergencySteps, 1) << "the test saw an emergency step";
  EXPECT_EQ(rig.energy().emergencySteps, static_cast<std::uint32_t>(emergencySteps));
  EXPECT_NEAR(in.measured[Joint::LKneePitch], in.request.angles[Joint::LKneePitch], m + 1e-5f);
  EXPECT_NEAR(in.measured[Joint::RAnklePitch], in.request.angles[Joint::RAnklePitch], m + 1e-5f);
  EXPECT_EQ(rig.offset(Joint::LShoulderRoll), 0.f) << "accuratePositions adjusts the legs only";
}

TEST(EnergySavingRounds, ALimbTheRequestNoLongerLetsUsAdjustFadesLinearlyTheOtherGoesOn)
{
  EnergySavingRig rig;
  Inputs& in = inputs();
  FallingCurrents currents;
  for (Joint joint : {Joint::LShoulderRoll, Joint::RShoulderRoll})
  {
    in.measured[joint] = in.request.angles[joint] + 3.f * degree;
    currents.heat(joint, 0.5f);
  }
  rig.plant = &currents;
  ASSERT_TRUE(rig.runUntilNextRound());
  ASSERT_TRUE(rig.runUntilNextRound());
  ASSERT_NEAR(rig.offset(Joint::LShoulderRoll), 2 * maxArm, rad);
  in.energySaving.adjustLeftArm = false; // a left arm motion starts
  float previous = rig.offset(Joint::LShoulderRoll);
  float right = rig.offset(Joint::RShoulderRoll);
  const float perFrame = deg(rule::maxOffset) * static_cast<float>(frameTime) / milli(rule::resetTime);
  for (int frame = 0; frame < 100 && previous > 0.f; ++frame)
  {
    const std::uint32_t rounds = rig.energy().rounds;
    rig.frame();
    const float now = rig.offset(Joint::LShoulderRoll);
    EXPECT_NEAR(previous - now, std::min(perFrame, previous), 1e-6f)
        << "linear fade: maxOffset per resetTime";
    previous = now;
    if (rig.energy().rounds == rounds) continue;
    EXPECT_NE(rig.offset(Joint::RShoulderRoll), right) << "the other arm goes on in every round";
    right = rig.offset(Joint::RShoulderRoll);
  }
  EXPECT_EQ(previous, 0.f);
  ASSERT_TRUE(rig.runUntilNextRound());
  EXPECT_EQ(rig.offset(Joint::LShoulderRoll), 0.f) << "not adjusted during the arm motion";
  in.energySaving.adjustLeftArm = true; // the arm motion ended
  ASSERT_TRUE(rig.runUntilNextRound());
  EXPECT_NEAR(rig.offset(Joint::LShoulderRoll), maxArm, rad) << "adjusted again, from 0";
}

TEST(EnergySavingRounds, AnArmJointAtTheCapFadesAloneToZeroAndStartsOver)
{
  EnergySavingRig rig;
  Inputs& in = inputs(); // normal stand: the knee's base offset 0.8°
  in.measured[Joint::LKneePitch] = in.request.angles[Joint::LKneePitch] + 0.8f * degree;
  in.measured[Joint::LShoulderRoll] = in.request.angles[Joint::LShoulderRoll] + 10.f * degree;
  FallingCurrents currents;
  currents.heat(Joint::LShoulderRoll, 0.5f);
  rig.plant = &currents;
  const float cap = deg(rule::maxOffset);
  const float perFrame = cap * static_cast<float>(frameTime) / milli(rule::resetTime);
  int round = 0;
  for (float offset = 0; offset + maxArm <= cap; offset += maxArm, ++round)
  {
    ASSERT_TRUE(rig.runUntilNextRound());
    ASSERT_NEAR(rig.offset(Joint::LShoulderRoll), offset + maxArm, 1e-5f) << "round " << round + 1;
  }
  ASSERT_TRUE(rig.runUntilNextRound()); // beyond the cap: capped, and the fade begins in the same frame
  EXPECT_NEAR(rig.offset(Joint::LShoulderRoll), cap - perFrame, 1e-5f);
  currents.heat(Joint::LShoulderRoll, 0.6f); // higher than before the cap: the old search would turn round
  float previous = rig.offset(Joint::LShoulderRoll);
  while (previous > 0.f)
  {
    rig.frame();
    const float now = rig.offset(Joint::LShoulderRoll);
    ASSERT_NEAR(previous - now, std::min(perFrame, previous), 1e-6f) << "no round steps it meanwhile";
    previous = now;
    EXPECT_EQ(rig.state(), EnergySavingState::working);
    EXPECT_NEAR(rig.offset(Joint::LKneePitch), 0.8f * degree, rad) << "the legs keep their offsets";
  }
  EXPECT_EQ(rig.energy().lastResetReason, EnergySavingResetReason::none) << "B-Human would reset every joint";
  ASSERT_TRUE(rig.runUntilNextRound());
  EXPECT_NEAR(rig.offset(Joint::LShoulderRoll), maxArm, rad) << "a new search from 0, towards the reading";
}
