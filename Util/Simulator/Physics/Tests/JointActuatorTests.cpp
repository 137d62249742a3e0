// One joint's board, motor and gear train on a single hinge with a known load: every expectation here is
// computed by hand from the drive's constants, not taken from a run.
#include "SingleJoint.h"
#include "Util/Simulator/Physics/Encoder.h"

#include <cmath>
#include <gtest/gtest.h>
#include <numbers>
#include <string>

namespace nao::sim
{
namespace
{
using test::SingleJoint;
using test::timestep;

/// A leg drive with round numbers: Kp 900 N·m/rad, 1 N·m per A, stall 5 N·m.
Drive legDrive()
{
  Drive drive;
  drive.maxTorque = 5.0;
  drive.positionGain = 900.0;
  drive.derivativeGain = 0.5;
  drive.velocityGain = 0.5;
  drive.torquePerAmpere = 1.0;
  drive.armature = 0.002;
  drive.staticFriction = 1.0;
  drive.slidingFriction = 0.5;
  drive.bearingFriction = 0.02;
  return drive;
}

const double boardCount = encoderStep(14); ///< rad

TEST(JointActuator, StaticFrictionHoldsALoadBelowItWithoutAnyMotorTorque)
{
  SingleJoint joint(legDrive());
  joint.run(2.0, 0.0, 0.0, 0.9); // stiffness 0, 0.9 N·m against 1 N·m of static friction
  EXPECT_NEAR(joint.angle(), 0.0, 1e-5);
  EXPECT_EQ(joint.actuator().current(), 0.0);
}

TEST(JointActuator, OnceSlidingTheGearDragsOnlyWithItsSlidingFriction)
{
  // 0.9 N·m is held while stuck; a short kick of 0.2 N·m more breaks it loose, and then 0.9 N·m against 0.5
  // N·m of sliding friction accelerates the joint at 0.4 N·m / (0.01 + 0.002) kg·m² = 33 rad/s²: stick-slip.
  SingleJoint joint(legDrive());
  joint.run(0.5, 0.0, 0.0, 0.9);
  joint.run(0.02, 0.0, 0.0, 1.1);
  const double speedAfterKick = joint.velocity();
  ASSERT_GT(speedAfterKick, 0.0);
  joint.run(0.2, 0.0, 0.0, 0.9);
  EXPECT_NEAR((joint.velocity() - speedAfterKick) / 0.2, 0.4 / 0.012, 0.1 * 0.4 / 0.012);
}

TEST(JointActuator, TheBoardOutputsNothingOnlyWhenTargetAndAngleShareACount)
{
  // The joint rests at 0 (count 0) held by friction; targets a quarter count apart.
  for (int quarter = -6; quarter <= 6; ++quarter)
  {
    SingleJoint joint(legDrive());
    const double target = quarter * 0.25 * boardCount;
    joint.run(0.05, target, 5.0, 0.3);
    const long long error = std::llround(target / boardCount) - joint.actuator().boardCount();
    // (1e-6 N·m: the back-EMF of the joint's creep on MuJoCo's soft friction constraint)
    EXPECT_NEAR(joint.actuator().motorTorque(), 900.0 * static_cast<double>(error) * boardCount, 1e-6)
        << quarter << " quarters";
    EXPECT_EQ(std::abs(joint.actuator().motorTorque()) < 1e-6, std::abs(quarter) <= 1)
        << quarter << " quarters";
    EXPECT_NEAR(joint.angle(), 0.0, 0.5 * boardCount); // 0.35 N·m per count never breaks 1 N·m loose
  }
}

TEST(JointActuator, StiffnessLimitsTheTorqueAndWithItTheCurrentUnderStress)
{
  // Stalled against 4 N·m with a target far away: the motor gives all it may, stiffness × 5 N·m.
  double currents[2] = {};
  const double stiffnesses[2] = {1.0, 0.75};
  for (int k = 0; k < 2; ++k)
  {
    SingleJoint joint(legDrive());
    joint.run(0.5, -0.5, stiffnesses[k] * 5.0, 4.0);
    // (1e-6 N·m: at stiffness 1 the supply voltage is the limit, and the back-EMF of the joint's creep on MuJoCo's
    // soft friction constraint takes its share)
    EXPECT_NEAR(joint.actuator().motorTorque(), -stiffnesses[k] * 5.0, 1e-6);
    EXPECT_LE(joint.peakTorque(), stiffnesses[k] * 5.0 + 1e-12);
    currents[k] = joint.actuator().current();
  }
  EXPECT_NEAR(currents[0], 5.0, 1e-6); // A: 5 N·m at 1 N·m/A
  EXPECT_NEAR(currents[1] / currents[0], 0.75, 1e-6);
}

TEST(JointActuator, AJointStoppedAfterRisingAgainstItsLoadKeepsPushingBeyondTheLoad)
{
  // Lift against a 0.6 N·m load to 2° in 1 s, then hold: while it slid the motor carried load + sliding
  // friction; once stuck, friction takes part of it, but the motor still pushes more than the load itself,
  // within one LoLA count (0.088°) of the target — B-Human's "measured difference ~0, current above the
  // load's".
  SingleJoint joint(legDrive());
  const double end = 2.0 * std::numbers::pi / 180.0;
  for (int frame = 1; frame <= 83; ++frame)
    joint.run(0.012, -end * frame / 83.0, 5.0, 0.6);
  joint.run(2.0, -end, 5.0, 0.6);
  EXPECT_LT(joint.actuator().motorTorque(), -0.6);
  EXPECT_GE(joint.actuator().motorTorque(), -0.6 - 0.5 - 1e-9); // never more than load + sliding friction
  EXPECT_LT(std::abs(joint.angle() + end), encoderStep(12));
  EXPECT_NEAR(joint.velocity(), 0.0, 1e-6);
}

TEST(JointActuator, BacklashLetsAReversedLoadMoveTheJointThroughThePlay)
{
  Drive drive = legDrive();
  drive.backlash = 0.5 * std::numbers::pi / 180.0;
  SingleJoint joint(drive);
  // Held at 0 by the motor against a load pushing up: the gear's tooth pushes down.
  joint.run(1.0, 0.0, 5.0, 0.3);
  EXPECT_TRUE(joint.actuator().engaged());
  const double loaded = joint.angle();
  // The load turns round (0.08 N·m, the motor off): the gear train stays where friction holds it, the joint
  // falls through the play onto the other tooth: a lost motion of one backlash. It arrives at v = sqrt(2 a b)
  // with a = (0.08 − 0.02 bearing) / 0.012 kg·m², the impact shares its momentum with the rotor (0.01 of
  // 0.012 kg·m²), and the gear's sliding friction (0.5 − 0.08 N·m) stops both within 0.9 mrad: 1.1 backlashes
  // in all.
  joint.run(0.006, 0.0, 0.0, -0.08);
  EXPECT_FALSE(joint.actuator().engaged());
  joint.run(0.3, 0.0, 0.0, -0.08);
  EXPECT_TRUE(joint.actuator().engaged());
  const double arrival = std::sqrt(2.0 * (0.08 - 0.02) / 0.012 * drive.backlash) * 0.01 / 0.012;
  const double slide = arrival * arrival / (2.0 * (0.5 - 0.08) / 0.012);
  EXPECT_NEAR(loaded - joint.angle(), drive.backlash + slide, 0.05 * drive.backlash);
  EXPECT_NEAR(joint.velocity(), 0.0, 1e-3);
  EXPECT_EQ(joint.actuator().contactSide(), 1); // the other tooth now carries the load pushing down
}

TEST(JointActuator, WithoutBacklashTheGearNeverLetsGo)
{
  SingleJoint joint(legDrive());
  joint.run(1.0, 0.0, 5.0, 0.3);
  joint.run(0.3, 0.0, 0.0, -0.3);
  EXPECT_TRUE(joint.actuator().engaged());
  EXPECT_NEAR(joint.angle(), 0.0, 1e-4); // 0.3 N·m never breaks 1 N·m of static friction loose
}
} // namespace
} // namespace nao::sim
