// One adjustment round's rules: thresholds (legs, large offsets, arms, overrides), step choice toward the
// measured angle, emergency steps with the sign tables, the clamp, one leg joint per round with base offsets,
// arms only while no arm motion runs and accuratePositions.
#include "Modules/MotionControl/EnergySavingProvider/Tests/EnergySavingRig.h"
#include <cmath>
#include <gtest/gtest.h>

using namespace nao;
using namespace nao::energytest;

namespace
{
constexpr float rad = 1e-6f;
constexpr float maxLeg = 0.2f * degree, maxArm = 0.458366f * degree, minStep = 0.0286479f * degree;

/// A rig in `posture`, working, with no round run yet.
void startWorking(EnergySavingRig& rig)
{
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::working, 2.0));
}

/// The step rule of the issue, computed here: toward measured by the maximum step if farther, else the
/// minimum step.
float expectedStep(float measuredMinusRequested, float maxStep)
{
  const float size = std::abs(measuredMinusRequested) > maxStep ? maxStep : minStep;
  return measuredMinusRequested > 0 ? size : (measuredMinusRequested < 0 ? -size : 0.f);
}
} // namespace

TEST(EnergySavingRounds, LegThresholdIs100mA)
{
  for (float current : {0.099f, 0.101f, -0.101f})
  {
    EnergySavingRig rig;
    Inputs& in = inputs();
    in.energySaving = requestAll(EnergySavingPosture::highStand);
    in.measured[Joint::LKneePitch] = in.request.angles[Joint::LKneePitch] + 1.f * degree;
    in.currents[Joint::LKneePitch] = current;
    startWorking(rig);
    ASSERT_TRUE(rig.runUntilNextRound());
    EXPECT_NEAR(rig.offset(Joint::LKneePitch), std::abs(current) > 0.1f ? maxLeg : 0.f, rad)
        << current << " A";
  }
}

TEST(EnergySavingRounds, LegThresholdIs300mAOnceTheOffsetReaches1Point5Degrees)
{
  EnergySavingRig rig;
  Inputs& in = inputs();
  in.energySaving = requestAll(EnergySavingPosture::highStand);
  in.measured[Joint::LHipPitch] =
      in.request.angles[Joint::LHipPitch] - 5.f * degree; // far below: -0.2° per round
  in.currents[Joint::LHipPitch] = 0.25f;
  startWorking(rig);
  for (int round = 1; round <= 7; ++round)
    ASSERT_TRUE(rig.runUntilNextRound());
  EXPECT_NEAR(rig.offset(Joint::LHipPitch), -7 * maxLeg, 1e-5f)
      << "1.4°: below 1.5°, 250 mA > 100 mA adjusts";
  ASSERT_TRUE(rig.runUntilNextRound());
  EXPECT_NEAR(rig.offset(Joint::LHipPitch), -8 * maxLeg, 1e-5f) << "1.6°";
  for (int round = 0; round < 3; ++round)
    ASSERT_TRUE(rig.runUntilNextRound());
  EXPECT_NEAR(rig.offset(Joint::LHipPitch), -8 * maxLeg, 1e-5f) << "250 mA < 300 mA: no more steps";
  in.currents[Joint::LHipPitch] =
      -0.31f; // right after a round: the 240 ms window is full before the next one
  ASSERT_TRUE(rig.runUntilNextRound());
  EXPECT_NEAR(rig.offset(Joint::LHipPitch), -9 * maxLeg, 1e-5f) << "310 mA > 300 mA";
}

TEST(EnergySavingRounds, ArmThresholdIs30mAAndArmStepsAreLarger)
{
  for (float current : {0.029f, 0.031f})
  {
    EnergySavingRig rig;
    Inputs& in = inputs();
    in.measured[Joint::RShoulderRoll] = in.request.angles[Joint::RShoulderRoll] + 2.f * degree;
    in.measured[Joint::LElbowYaw] = in.request.angles[Joint::LElbowYaw] - 0.3f * degree; // closer than 0.458°
    in.currents[Joint::RShoulderRoll] = in.currents[Joint::LElbowYaw] = current;
    startWorking(rig);
    ASSERT_TRUE(rig.runUntilNextRound());
    const bool above = current > 0.03f;
    EXPECT_NEAR(rig.offset(Joint::RShoulderRoll), above ? maxArm : 0.f, rad) << current << " A";
    EXPECT_NEAR(rig.offset(Joint::LElbowYaw), above ? -minStep : 0.f, rad) << current << " A";
  }
}

TEST(EnergySavingRounds, PerJointThresholdOverrideReplacesTheRule)
{
  EnergySavingRig rig;
  Inputs& in = inputs();
  in.energySaving = requestAll(EnergySavingPosture::highStand);
  in.measured[Joint::RKneePitch] = in.request.angles[Joint::RKneePitch] + 1.f * degree;
  in.currents[Joint::RKneePitch] = 0.15f;
  rig.setParameter("currentThresholdOverrides.RKneePitch", "200.0");
  startWorking(rig);
  ASSERT_TRUE(rig.runUntilNextRound());
  EXPECT_EQ(rig.offset(Joint::RKneePitch), 0.f) << "150 mA < the 200 mA override";
  in.currents[Joint::RKneePitch] = 0.21f;
  ASSERT_TRUE(rig.runUntilNextRound());
  EXPECT_NEAR(rig.offset(Joint::RKneePitch), maxLeg, rad);
}

TEST(EnergySavingRounds, StepsGoTowardTheMeasuredAngleMaxStepWhenFarMinStepWhenClose)
{
  EnergySavingRig rig;
  Inputs& in = inputs();
  in.energySaving = requestAll(EnergySavingPosture::highStand);
  in.measured[Joint::LAnklePitch] = in.request.angles[Joint::LAnklePitch] + 0.5f * degree;
  in.measured[Joint::RAnkleRoll] = in.request.angles[Joint::RAnkleRoll] - 0.15f * degree;
  in.measured[Joint::LShoulderPitch] = in.request.angles[Joint::LShoulderPitch] + 1.f * degree;
  in.currents[Joint::LAnklePitch] = in.currents[Joint::RAnkleRoll] = in.currents[Joint::LShoulderPitch] =
      0.4f;
  startWorking(rig);
  float ankle = 0, roll = 0, shoulder = 0; // offsets as the rule makes them
  for (int round = 1; round <= 9; ++round) // the 10th is an emergency step
  {
    ankle += expectedStep(0.5f * degree - ankle, maxLeg);
    roll += expectedStep(-0.15f * degree - roll, maxLeg);
    shoulder += expectedStep(1.f * degree - shoulder, maxArm);
    ASSERT_TRUE(rig.runUntilNextRound());
    EXPECT_NEAR(rig.offset(Joint::LAnklePitch), ankle, 1e-5f) << "round " << round;
    EXPECT_NEAR(rig.offset(Joint::RAnkleRoll), roll, 1e-5f) << "round " << round;
    EXPECT_NEAR(rig.offset(Joint::LShoulderPitch), shoulder, 1e-5f) << "round " << round;
  }
  EXPECT_NEAR(ankle, 0.4f * degree + 3 * minStep, 1e-6f) << "two max steps, then min steps";
}

TEST(EnergySavingRounds, EveryTenthRoundOverTheThresholdIsAnEmergencyStepAlongTheStandSignTable)
{
  EnergySavingRig rig;
  Inputs& in =
      inputs(); // measured == requested: no direction toward the measured angle, only emergency steps help
  in.currents[Joint::LKneePitch] = 0.6f;
  in.currents[Joint::RAnklePitch] = 0.5f;
  rig.setParameter("emergencyStepSignsStand.RAnklePitch",
                   "-1"); // as in the file; stated for this test's sake
  startWorking(rig);
  for (int round = 1; round <= 9; ++round)
    ASSERT_TRUE(rig.runUntilNextRound());
  EXPECT_EQ(rig.offset(Joint::LKneePitch), 0.f);
  EXPECT_EQ(rig.energy().counters[Joint::LKneePitch], 1);
  ASSERT_TRUE(rig.runUntilNextRound());
  EXPECT_NEAR(rig.offset(Joint::LKneePitch), maxLeg, rad)
      << "stand: gravity bends the knee, the request follows";
  EXPECT_EQ(rig.energy().counters[Joint::LKneePitch], 10) << "refilled";
  EXPECT_EQ(rig.energy().emergencySteps, 1u);
  EXPECT_EQ(rig.offset(Joint::RAnklePitch), 0.f) << "base offsets active: only the highest-current leg joint";
  ASSERT_TRUE(rig.runUntilNextRound());
  EXPECT_LT(rig.offset(Joint::LKneePitch), maxLeg) << "then back toward the measured angle";
}

TEST(EnergySavingRounds, HighStandSignTableMovesKneesButNotAnkles)
{
  EnergySavingRig rig;
  Inputs& in = inputs();
  in.energySaving = requestAll(EnergySavingPosture::highStand);
  in.currents[Joint::RKneePitch] = in.currents[Joint::LAnklePitch] = 0.6f;
  startWorking(rig);
  for (int round = 1; round <= 10; ++round)
    ASSERT_TRUE(rig.runUntilNextRound());
  EXPECT_NEAR(rig.offset(Joint::RKneePitch), maxLeg, rad);
  EXPECT_EQ(rig.offset(Joint::LAnklePitch), 0.f) << "sign 0 in high stand";
  EXPECT_EQ(rig.energy().emergencySteps, 1u);
}

TEST(EnergySavingRounds, PostureNoneMakesEmergencyStepsTowardTheMeasuredAngle)
{
  EnergySavingRig rig;
  Inputs& in = inputs();
  in.energySaving = requestAll(EnergySavingPosture::none);
  in.measured[Joint::LKneePitch] = in.request.angles[Joint::LKneePitch] - 0.1f * degree;
  in.currents[Joint::LKneePitch] = 0.6f;
  startWorking(rig);
  float knee = 0;
  for (int round = 1; round <= 10; ++round)
  {
    const float towardMeasured = -0.1f * degree - knee;
    knee += round == 10 ? std::copysign(maxLeg, towardMeasured) : expectedStep(towardMeasured, maxLeg);
    ASSERT_TRUE(rig.runUntilNextRound());
  }
  EXPECT_NEAR(rig.offset(Joint::LKneePitch), knee, 1e-5f);
}

TEST(EnergySavingRounds, OffsetsAreClampedTo3DegreesBaseOffsetIncluded)
{
  EnergySavingRig rig;
  Inputs& in = inputs(); // stand: the knee's base offset takes 1°, rounds may add 2° more
  in.measured[Joint::LKneePitch] = in.request.angles[Joint::LKneePitch] + 10.f * degree;
  in.currents[Joint::LKneePitch] = 1.f;
  startWorking(rig);
  EXPECT_NEAR(rig.offset(Joint::LKneePitch), 1.f * degree, rad);
  for (int round = 0; round < 20; ++round)
  {
    ASSERT_TRUE(rig.runUntilNextRound());
    EXPECT_LE(rig.offset(Joint::LKneePitch), 3.f * degree + rad);
  }
  EXPECT_NEAR(rig.offset(Joint::LKneePitch), 3.f * degree, rad);
  EXPECT_EQ(rig.state(), EnergySavingState::working)
      << "at 3° but the centre of mass inside its window: no reset";
  rig.setParameter("maxOffset", "1.0"); // a live edit below the offset: back into range step by step
  for (int round = 1; round <= 11; ++round)
  {
    ASSERT_TRUE(rig.runUntilNextRound());
    const float expected = std::max(1.f, 3.f - 0.2f * static_cast<float>(round)) * degree;
    EXPECT_NEAR(rig.offset(Joint::LKneePitch), expected, 1e-5f) << "round " << round;
  }
}

TEST(EnergySavingRounds, WithBaseOffsetsOnlyTheHighestCurrentLegJointIsAdjustedArmsAsUsual)
{
  for (EnergySavingPosture posture : {EnergySavingPosture::stand, EnergySavingPosture::highStand})
  {
    EnergySavingRig rig;
    Inputs& in = inputs();
    in.energySaving = requestAll(posture);
    for (Joint joint : {Joint::LKneePitch, Joint::RAnklePitch, Joint::LHipRoll, Joint::LElbowRoll})
      in.measured[joint] = in.request.angles[joint] + 2.f * degree; // base offsets take 1°, 1° remains
    in.currents[Joint::LKneePitch] = 0.4f;
    in.currents[Joint::RAnklePitch] = -0.5f; // highest |current|
    in.currents[Joint::LHipRoll] = 0.3f;
    in.currents[Joint::LElbowRoll] = 0.05f;
    startWorking(rig);
    const float base = posture == EnergySavingPosture::stand ? 1.f * degree : 0.f;
    ASSERT_TRUE(rig.runUntilNextRound());
    const bool all = posture == EnergySavingPosture::highStand;
    EXPECT_NEAR(rig.offset(Joint::RAnklePitch), base + maxLeg, rad);
    EXPECT_NEAR(rig.offset(Joint::LKneePitch), base + (all ? maxLeg : 0.f), rad);
    EXPECT_NEAR(rig.offset(Joint::LHipRoll), base + (all ? maxLeg : 0.f), rad);
    EXPECT_NEAR(rig.offset(Joint::LElbowRoll), maxArm, rad);
  }
}

TEST(EnergySavingRounds, ArmsOnlyWhileNoArmMotionRunsTheirOffsetsFadeLinearlyMeanwhile)
{
  EnergySavingRig rig;
  Inputs& in = inputs();
  for (Joint joint : {Joint::LShoulderRoll, Joint::RShoulderRoll})
  {
    in.measured[joint] = in.request.angles[joint] + 3.f * degree;
    in.currents[joint] = 0.1f;
  }
  startWorking(rig);
  ASSERT_TRUE(rig.runUntilNextRound());
  ASSERT_TRUE(rig.runUntilNextRound());
  ASSERT_NEAR(rig.offset(Joint::LShoulderRoll), 2 * maxArm, rad);
  in.energySaving.adjustLeftArm = false; // a left arm motion starts
  float previous = rig.offset(Joint::LShoulderRoll);
  const float perFrame = 3.f * degree * static_cast<float>(frameTime) / 3.f; // maxOffset per resetTime
  for (int frame = 0; frame < 100 && previous > 0.f; ++frame)
  {
    rig.frame();
    const float now = rig.offset(Joint::LShoulderRoll);
    EXPECT_NEAR(previous - now, std::min(perFrame, previous), 1e-6f) << "linear fade";
    previous = now;
  }
  EXPECT_EQ(previous, 0.f);
  ASSERT_TRUE(rig.runUntilNextRound(3.0));
  EXPECT_EQ(rig.offset(Joint::LShoulderRoll), 0.f) << "not adjusted during the arm motion";
  EXPECT_NEAR(rig.offset(Joint::RShoulderRoll), static_cast<float>(rig.energy().rounds) * maxArm, 1e-5f)
      << "the other arm goes on: one step in every round";
  in.energySaving.adjustLeftArm = true; // the arm motion ended
  ASSERT_TRUE(rig.runUntilNextRound(3.0));
  EXPECT_NEAR(rig.offset(Joint::LShoulderRoll), maxArm, rad) << "adjusted again, from 0";
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
  rig.body.plant = &plant;
  startWorking(rig);
  float knee = 0, ankle = 0; // offsets by the rule: error = requested - measured = -(offset + sag)
  auto rule = [](float error)
  {
    const float size = std::abs(error) > maxLeg ? maxLeg : minStep / 2;
    return error > 0 ? size : (error < 0 ? -size : 0.f);
  };
  for (int round = 1; round <= 30; ++round)
  {
    knee += rule(-(knee + 0.93f * degree));
    ankle += rule(-(ankle - 0.5f * degree));
    ASSERT_TRUE(rig.runUntilNextRound());
    EXPECT_NEAR(rig.offset(Joint::LKneePitch), knee, 1e-5f) << "round " << round;
    EXPECT_NEAR(rig.offset(Joint::RAnklePitch), ankle, 1e-5f) << "round " << round;
  }
  EXPECT_NEAR(in.measured[Joint::LKneePitch], in.request.angles[Joint::LKneePitch], minStep / 2 + 1e-5f);
  EXPECT_NEAR(in.measured[Joint::RAnklePitch], in.request.angles[Joint::RAnklePitch], minStep / 2 + 1e-5f);
  EXPECT_EQ(rig.offset(Joint::LShoulderRoll), 0.f) << "accuratePositions adjusts the legs only";
}
