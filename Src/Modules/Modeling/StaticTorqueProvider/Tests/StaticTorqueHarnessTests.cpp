// StaticTorqueProvider alone (ModuleHarness): the IMU's tilt reaches gravity, the lifted robot's torques come
// without contacts, and a non-finite IMU keeps the last torques instead of jumping.
#include "Framework/Testing/ModuleHarness.h"
#include "Modules/Modeling/StaticTorqueProvider/StaticTorqueProvider.h"
#include <cmath>
#include <gtest/gtest.h>
#include <limits>

using namespace nao;

namespace
{
/// A lifted robot (no FSR load) with arms down and the torso pitched forward by `pitch` (rad).
JointTorques liftedTorques(ModuleHarness<StaticTorqueProvider>& harness, float pitch, float shoulderPitch)
{
  JointSensorData& joints = harness.input<JointSensorData>();
  for (std::size_t j = 0; j < numOfJoints; ++j)
    joints.angles[j] = 0.f;
  joints.angles[Joint::LShoulderPitch] = shoulderPitch;
  joints.angles[Joint::RShoulderPitch] = shoulderPitch;
  harness.input<FsrSensorData>() = FsrSensorData{};
  harness.input<InertialSensorData>().angles = {0.f, pitch};
  harness.run();
  return harness.output<JointTorques>();
}
} // namespace

TEST(StaticTorqueProviderAlone, ATiltedTorsoIsTheSameAsTurningTheShoulderByTheTilt)
{
  // Torso pitch and shoulder pitch turn about parallel axes: an arm at shoulder angle s under a torso pitched by
  // p hangs as one at s + p under an upright torso, so its shoulder must hold the same torque.
  ModuleHarness<StaticTorqueProvider> harness;
  const float pitch = 0.3f, shoulder = 0.5f;
  const JointTorques tilted = liftedTorques(harness, pitch, shoulder);
  ASSERT_TRUE(tilted.valid);
  EXPECT_EQ(tilted.supportModel, SupportModel::noContact) << "no FSR load: lifted";
  const double g = harness.parameters().gravity;
  EXPECT_NEAR(tilted.gravity[0], g * std::sin(pitch), 1e-5);
  EXPECT_NEAR(tilted.gravity[2], -g * std::cos(pitch), 1e-5);
  const JointTorques turned = liftedTorques(harness, 0.f, shoulder + pitch);
  const JointTorques upright = liftedTorques(harness, 0.f, shoulder);
  for (Joint joint : {Joint::LShoulderPitch, Joint::RShoulderPitch})
  {
    EXPECT_NEAR(tilted.torques[joint], turned.torques[joint], 1e-4) << name(joint);
    EXPECT_GT(std::abs(tilted.torques[joint] - upright.torques[joint]), 0.01)
        << name(joint) << ": the tilt counts";
  }
}

TEST(StaticTorqueProviderAlone, ALiftedRobotsLegsCarryOnlyThemselves)
{
  // Lifted, the torso is held: a leg's torques come from that leg's own links, whatever the other leg does;
  // bending a knee moves the shank and foot, so the knee and the hip of that leg hold a different torque.
  ModuleHarness<StaticTorqueProvider> harness;
  const JointTorques lifted = liftedTorques(harness, 0.f, 1.57f);
  ASSERT_TRUE(lifted.valid);
  EXPECT_EQ(lifted.footLoad[0], 0.f);
  EXPECT_EQ(lifted.footLoad[1], 0.f);
  harness.input<JointSensorData>().angles[Joint::LKneePitch] = 1.2f;
  harness.input<JointSensorData>().angles[Joint::LHipPitch] = -0.6f;
  harness.run();
  const JointTorques bent = harness.output<JointTorques>();
  EXPECT_GT(std::abs(bent.torques[Joint::LKneePitch] - lifted.torques[Joint::LKneePitch]), 0.05f);
  EXPECT_GT(std::abs(bent.torques[Joint::LHipPitch] - lifted.torques[Joint::LHipPitch]), 0.05f);
  for (Joint joint :
       {Joint::RHipRoll, Joint::RHipPitch, Joint::RKneePitch, Joint::RAnklePitch, Joint::RAnkleRoll})
    EXPECT_NEAR(bent.torques[joint], lifted.torques[joint], 1e-5) << name(joint) << ": the other leg";
}

TEST(StaticTorqueProviderAlone, ANonFiniteImuKeepsTheLastTorques)
{
  ModuleHarness<StaticTorqueProvider> harness;
  const JointTorques before = liftedTorques(harness, 0.2f, 0.5f);
  ASSERT_TRUE(before.valid);
  for (float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()})
  {
    harness.input<InertialSensorData>().angles = {bad, 0.2f};
    harness.input<JointSensorData>().angles[Joint::LShoulderPitch] = 1.0f; // would change the torques
    harness.run();
    const JointTorques& after = harness.output<JointTorques>();
    EXPECT_FALSE(after.valid);
    for (std::size_t j = 0; j < numOfJoints; ++j)
      EXPECT_EQ(after.torques[j], before.torques[j]) << name(jointAt(j)) << ": no jump";
  }
  harness.input<InertialSensorData>().angles = {0.f, 0.2f};
  harness.run();
  EXPECT_TRUE(harness.output<JointTorques>().valid) << "back as soon as the IMU is";
}

TEST(StaticTorqueProviderAlone, LolasAnglesGiveGravityOnlyWhileTheFilterAgrees)
{
  ModuleHarness<StaticTorqueProvider> harness;
  InertialData& filtered = harness.input<InertialData>();
  filtered.valid = true;
  filtered.angles = {0.f, 0.1f};
  // Agreeing within anglesAgreement: LoLA's own estimate is used.
  const JointTorques agreeing = liftedTorques(harness, 0.12f, 0.5f);
  const double g = harness.parameters().gravity;
  EXPECT_NEAR(agreeing.gravity[0], g * std::sin(0.12), 1e-5);
  // Stuck at 1.5 rad (a dead IMU board's filter) against an upright filter: the filter's tilt is gravity's.
  const JointTorques stuck = liftedTorques(harness, 1.5f, 0.5f);
  ASSERT_TRUE(stuck.valid);
  EXPECT_NEAR(stuck.gravity[0], g * std::sin(0.1), 1e-5);
  // Distrusted by SensorHealth, even when they agree: the filter's.
  harness.input<SensorHealth>()[Sensor::imuAngles].state = SensorState::failed;
  const JointTorques distrusted = liftedTorques(harness, 0.12f, 0.5f);
  EXPECT_NEAR(distrusted.gravity[0], g * std::sin(0.1), 1e-5);
  // Neither the filter nor trusted Angles: the last torques are kept.
  filtered.valid = false;
  harness.input<JointSensorData>().angles[Joint::LShoulderPitch] = 1.f;
  harness.run();
  EXPECT_FALSE(harness.output<JointTorques>().valid);
  EXPECT_EQ(harness.output<JointTorques>().torques[Joint::LShoulderPitch],
            distrusted.torques[Joint::LShoulderPitch]);
}

TEST(StaticTorqueProviderAlone, OneFrameOfAnUnusableFootIsNoDistrustButSuspectFsrsAre)
{
  // A landing foot's impact can read beyond the FSRs' range for a frame (usable false, still valid): the torques'
  // trust in the sensors holds, so that smart stiffness does not start over. A suspect foot does not.
  ModuleHarness<StaticTorqueProvider> harness;
  liftedTorques(harness, 0.f, 0.f);
  EXPECT_TRUE(harness.output<JointTorques>().sensorsTrusted);
  harness.input<SensorHealth>()[Sensor::leftFsr].usable = false;
  harness.run();
  EXPECT_TRUE(harness.output<JointTorques>().sensorsTrusted);
  harness.input<SensorHealth>()[Sensor::leftFsr].state = SensorState::suspect;
  harness.run();
  EXPECT_FALSE(harness.output<JointTorques>().sensorsTrusted);
  EXPECT_NE(harness.output<JointTorques>().supportModel, SupportModel::noContact)
      << "distrusted FSRs never make the robot lifted";
}
