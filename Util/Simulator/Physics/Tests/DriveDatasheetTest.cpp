// The simulated drives (Config/Sim/motors.toml through makeDrives and JointActuator) against public figures, by
// what a joint does rather than by the formulas that made the constants:
//  - a joint held still (stalled) at stiffness 1 with its target far away gives the datasheet's stall torque
//    through its gear and draws the stall current of its motor; stiffness s gives s times both;
//  - a free joint commanded far away runs no faster than the datasheet's no-load speed through its gear, less
//    what its gear friction takes;
//  - a joint released (stiffness 0) from speed comes to rest as Coulomb friction of the gear train's stated
//    sliding friction stops its inertia: speed falling linearly, at rest after J·ω / friction.
// The stall torque at the joint is motor stall torque × ratio × gear efficiency, as SimulatedRobot sets the torque
// limit (stiffness × maxTorque; the firmware's heat factor is 1 while cool).
#include "SingleJoint.h"
#include "TestRobot.h"

#include <gtest/gtest.h>

namespace nao::sim
{
namespace
{
/// One motor type's public figures. Source: /work/shared/data/nao-v6/motors.md §1 (Aldebaran NAO6 datasheet
/// [DS6]: stall torque, no-load speed, each with its tolerance) and §2 (gear ratio per joint [DS6], [RNQ]).
struct MotorFacts
{
  Joint joint;                 ///< a joint driven by this motor type
  int type;                    ///< 1..5
  double ratio;                ///< gear ratio of that joint
  double stallTorque;          ///< N·m at the motor shaft
  double stallTolerance;       ///< fraction, as printed
  double noLoadRpm;            ///< at the motor shaft
  double noLoadSpeedTolerance; ///< fraction, as printed
};

constexpr MotorFacts datasheet[] = {
    {Joint::LHipRoll, 1, 201.3, 0.065, 0.08, 8700, 0.10},
    {Joint::LWristYaw, 2, 50.61, 0.0094, 0.08, 8400, 0.12},
    {Joint::HeadYaw, 3, 150.27, 0.0143, 0.08, 10700, 0.10},
    {Joint::LShoulderPitch, 4, 150.27, 0.0224, 0.10, 11400, 0.10},
    {Joint::LKneePitch, 5, 130.85, 0.065, 0.10, 8700, 0.10},
};

// Not published (motors.md §3 "Electrical data not found"); the assumptions Config/Sim/motors.toml states:
constexpr double gearEfficiency = 0.6;  ///< of the 3-4 stage gear trains
constexpr double windingVoltage = 12.0; ///< V: the motors are the 12 V winding variants

TEST(DriveDatasheet, AStalledJointGivesTheDatasheetStallTorqueAndDrawsItsStallCurrent)
{
  const auto drives = makeDrives(test::projectConfig().motors, nominalRobot());
  for (const MotorFacts& motor : datasheet)
  {
    SCOPED_TRACE(std::string(name(motor.joint)));
    const Drive& drive = drives[index(motor.joint)];
    ASSERT_EQ(drive.motorType, motor.type);
    ASSERT_EQ(drive.gearRatio, motor.ratio);
    // At the joint: the motor's stall torque through the gear.
    const double stallTorque = motor.stallTorque * motor.ratio * gearEfficiency;
    // A DC motor's stall current is its stall torque over its torque constant, and with the 12 V winding the
    // torque constant is 12 V over the no-load speed (Kt = Ke): I = T·ω₀/U. Both figures' tolerances add up.
    const double noLoadSpeed = motor.noLoadRpm * 2.0 * std::numbers::pi / 60.0; // rad/s at the motor
    const double stallCurrent = motor.stallTorque * noLoadSpeed / windingVoltage;
    const double currentTolerance = (1 + motor.stallTolerance) * (1 + motor.noLoadSpeedTolerance) - 1;

    double torqueAtFull = 0, currentAtFull = 0;
    for (const double stiffness : {1.0, 0.5})
    {
      test::SingleJoint joint(drive, test::SingleJoint::quietBoard(), true);
      joint.run(0.3, 0.5, stiffness * drive.maxTorque, 0.0); // target 0.5 rad away, the shaft held
      ASSERT_NEAR(joint.angle(), 0.0, 2e-4) << "held";
      const double torque = std::abs(joint.actuator().motorTorque());
      const double current = joint.actuator().current();
      EXPECT_LE(joint.peakTorque(), torque * (1 + 1e-12)) << "never more than the stall torque";
      if (stiffness == 1.0)
      {
        EXPECT_NEAR(torque, stallTorque, motor.stallTolerance * stallTorque)
            << "N·m: " << motor.stallTorque * 1000 << " mN·m × " << motor.ratio << " × " << gearEfficiency;
        EXPECT_NEAR(current, stallCurrent, currentTolerance * stallCurrent) << "A";
        torqueAtFull = torque;
        currentAtFull = current;
      }
      else
      {
        // Aldebaran: "the stiffness of the joint is equivalent to a torque limitation" (motors.md §4, [ADST]).
        EXPECT_NEAR(torque, 0.5 * torqueAtFull, 1e-3 * torqueAtFull);
        EXPECT_NEAR(current, 0.5 * currentAtFull, 1e-3 * currentAtFull);
      }
      std::printf(
          "[ stall    ] %-14s stiffness %.1f: %.3f N·m (datasheet %.3f ± %.0f %%), %.2f A (%.2f ± %.0f %%)\n",
          std::string(name(motor.joint)).c_str(), stiffness, torque, stiffness * stallTorque,
          motor.stallTolerance * 100, current, stiffness * stallCurrent, currentTolerance * 100);
    }
  }
}

TEST(DriveDatasheet, AFreeJointRunsAtMostAtTheNoLoadSpeedThroughItsGear)
{
  // A joint commanded far away at stiffness 1 with nothing but its link (0.01 kg·m²) and gear friction to move
  // accelerates until the back-EMF leaves the supply voltage just enough current for the sliding friction: a DC
  // motor's torque falls linearly from stall to zero at the no-load speed, so the top speed is
  // ω₀ · (1 − friction / stall torque). Without a voltage limit it would run on at full torque (36 rad/s for the
  // knee before this test existed). ω₀ is the datasheet's no-load speed through the gear; tolerance: the datasheet's.
  const auto drives = makeDrives(test::projectConfig().motors, nominalRobot());
  for (const MotorFacts& motor : datasheet)
  {
    SCOPED_TRACE(std::string(name(motor.joint)));
    const Drive& drive = drives[index(motor.joint)];
    const double noLoadSpeed =
        motor.noLoadRpm * 2.0 * std::numbers::pi / 60.0 / motor.ratio; // rad/s at the joint
    const double stallTorque = motor.stallTorque * motor.ratio * gearEfficiency;
    const double expected = noLoadSpeed * (1.0 - drive.slidingFriction / stallTorque);
    test::SingleJoint joint(drive);
    // Eight time constants of the speed (inertia / back-EMF gain: 14 ms for the knee, 0.6 s for the light wrist
    // motor), with the target so far ahead that the joint is still on its way.
    const double seconds = 8.0 * (0.01 + drive.armature) / drive.velocityGain;
    const double target = 2.0 * noLoadSpeed * seconds;
    const int steps = static_cast<int>(std::lround(seconds / test::timestep));
    double topSpeed = 0.0, speedBefore = 0.0;
    for (int step = 1; step <= steps; ++step)
    {
      joint.run(test::timestep, target, drive.maxTorque, 0.0);
      topSpeed = std::max(topSpeed, joint.velocity());
      if (step == steps * 3 / 4) speedBefore = joint.velocity();
    }
    std::printf("[ no-load  ] %-14s top speed %.2f rad/s after %.2f s (datasheet %.2f ± %.0f %% no-load, "
                "%.2f with %.3f N·m friction)\n",
                std::string(name(motor.joint)).c_str(), topSpeed, seconds, noLoadSpeed,
                motor.noLoadSpeedTolerance * 100, expected, drive.slidingFriction);
    ASSERT_LT(joint.angle(), target) << "rad: still on its way";
    EXPECT_NEAR(topSpeed, expected, motor.noLoadSpeedTolerance * expected) << "rad/s";
    EXPECT_NEAR(speedBefore, joint.velocity(), 0.01 * topSpeed) << "rad/s: settled, not still accelerating";
    EXPECT_LE(topSpeed, noLoadSpeed * (1 + motor.noLoadSpeedTolerance)) << "rad/s: never above no-load";
  }
}

TEST(DriveDatasheet, AReleasedJointSpinsDownAsItsGearFrictionStopsIt)
{
  // Stiffness 0: the bridge is off, no motor torque and no back-EMF braking; only the gear train's sliding
  // friction (Config/Sim/motors.toml [drives]) acts on the joint and the rotor it turns: a constant
  // deceleration friction / (link + reflected rotor inertia), so the speed falls linearly and the joint stops
  // after J·ω₀ / friction. Tolerance 5 %: MuJoCo's friction is a soft constraint (2 ms time constant) and the gear
  // only sticks below 0.1 °/s.
  const auto drives = makeDrives(test::projectConfig().motors, nominalRobot());
  for (const Joint jointId : {Joint::LKneePitch, Joint::LHipRoll, Joint::LElbowRoll})
  {
    SCOPED_TRACE(std::string(name(jointId)));
    const Drive& drive = drives[index(jointId)];
    test::SingleJoint joint(drive);
    const double startSpeed =
        -3.0; // rad/s, moving into the gear's tooth (reset() engages it on the other side)
    joint.setVelocity(startSpeed);
    const double inertia = 0.01 + drive.armature; // kg·m²: SingleJoint's link and the rotor through the gear
    const double expectedStop = inertia * std::abs(startSpeed) / drive.slidingFriction;
    double stopped = -1, speedAtHalf = 0;
    for (int step = 1; step <= 3 * std::lround(expectedStop / test::timestep) && stopped < 0; ++step)
    {
      joint.run(test::timestep, 0.0, 0.0, 0.0);
      if (step == std::lround(0.5 * expectedStop / test::timestep)) speedAtHalf = joint.velocity();
      if (std::abs(joint.velocity()) < 1e-3) stopped = step * test::timestep;
    }
    std::printf("[ spin-down] %-14s from %.1f rad/s: at rest after %.1f ms (J·ω/friction = %.1f ms, "
                "%.2f N·m)\n",
                std::string(name(jointId)).c_str(), std::abs(startSpeed), stopped * 1000, expectedStop * 1000,
                drive.slidingFriction);
    ASSERT_GT(stopped, 0.0) << "still moving after three times the expected time";
    EXPECT_NEAR(stopped, expectedStop, 0.05 * expectedStop) << "s";
    EXPECT_NEAR(speedAtHalf, 0.5 * startSpeed, 0.05 * std::abs(startSpeed)) << "rad/s: linear, not viscous";
    EXPECT_TRUE(joint.actuator().engaged());
    EXPECT_EQ(joint.actuator().current(), 0.0) << "A: the bridge is off";
    // It stays at rest: nothing drives it, static friction holds.
    const double restAngle = joint.angle();
    joint.run(0.2, 0.0, 0.0, 0.0);
    EXPECT_NEAR(joint.angle(), restAngle, 1e-5);
  }
}
} // namespace
} // namespace nao::sim
