// SensorHealthProvider alone in a ModuleHarness, fed with the noisy readings of a NAO standing still (or turning, or
// lifted), then with one fault at a time: a stuck or biased gyroscope, a NaN, dead or negative FSRs, a battery
// glitch and a flapping charge, a held or bouncing chest button, a flapping status, a temperature spike, a stuck
// encoder. Each fault makes its own sensor suspect or failed within the stated time and no other; a truthful robot
// that moves, is lifted or discharges its battery leaves every sensor valid; nothing allocates per frame.
#include "Framework/Testing/ModuleHarness.h"
#include "Modules/Sensing/SensorHealthProvider/SensorHealthProvider.h"
#include "Tools/Testing/AllocationCounter.h"

#include <Eigen/Geometry>
#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <random>

using namespace nao;

namespace
{
constexpr float g = 9.81f;
constexpr float mass = 5.36f; ///< kg, the URDF's robot
constexpr float frameTime = 0.012f;

struct Rig
{
  ModuleHarness<SensorHealthProvider> harness;
  std::mt19937 random{7};
  std::normal_distribution<float> normal{0.f, 1.f};
  std::uint32_t frame = 0;
  Eigen::Quaterniond torso = Eigen::Quaterniond::Identity(); ///< torso → world
  Eigen::Vector3d gyroBias = Eigen::Vector3d::Zero();        ///< rad/s added to the gyroscope
  float lifted = 0;            ///< 0..1: how much of the robot's weight a hand carries
  float charge = 0.9f;         ///< 0..1, the battery's true charge
  float batteryCurrent = -2.f; ///< A

  Rig()
  {
    JointRequest& request = harness.input<JointRequest>();
    request.stiffnesses.fill(1.f);
    for (std::size_t j = 0; j < numOfJoints; ++j)
      harness.input<JointSensorData>().temperatures[j] = 30.f;
  }

  /// The readings of this frame, truthful and noisy, with the torso turning at `omega` (rad/s, torso frame).
  void fill(const Eigen::Vector3d& omega = Eigen::Vector3d::Zero())
  {
    if (omega.norm() > 0)
      torso = (torso * Eigen::Quaterniond(Eigen::AngleAxisd(omega.norm() * frameTime, omega.normalized())))
                  .normalized();
    const Eigen::Vector3d f = torso.conjugate() * Eigen::Vector3d(0, 0, g);
    InertialSensorData& imu = harness.input<InertialSensorData>();
    for (std::size_t axis = 0; axis < 3; ++axis)
    {
      const auto i = static_cast<Eigen::Index>(axis);
      imu.gyro[axis] = static_cast<float>(omega[i] + gyroBias[i]) + 0.002f * normal(random);
      imu.accelerometer[axis] = static_cast<float>(f[i]) + 0.03f * normal(random);
    }
    imu.angles = {static_cast<float>(std::atan2(f.y(), f.z())) + 0.001f * normal(random),
                  static_cast<float>(std::atan2(-f.x(), std::hypot(f.y(), f.z()))) + 0.001f * normal(random)};
    FsrSensorData& fsr = harness.input<FsrSensorData>();
    for (FsrFoot* foot : {&fsr.left, &fsr.right})
    {
      foot->totalWeight = 0;
      for (float& reading : foot->readings)
      {
        // Standing: a quarter of half the weight on each sensor; lifted: noise, never negative (as simulated).
        reading = std::max(0.f, (1.f - lifted) * mass / 8.f + 0.01f * normal(random));
        foot->totalWeight += reading;
      }
    }
    charge += batteryCurrent * frameTime / (2.9f * 3600.f);
    harness.input<BatteryData>().charge = charge;
    harness.input<BatteryData>().current = batteryCurrent + 0.01f * normal(random);
    JointSensorData& joints = harness.input<JointSensorData>();
    for (std::size_t j = 0; j < numOfJoints; ++j)
      joints.angles[j] = harness.input<JointRequest>().angles[j] + 0.0015f * std::round(normal(random));
  }
  void run()
  {
    harness.input<FrameInfo>().frameNumber = frame;
    harness.input<FrameInfo>().time = frame * static_cast<double>(frameTime);
    ++frame;
    harness.run();
  }
  void step(const Eigen::Vector3d& omega = Eigen::Vector3d::Zero())
  {
    fill(omega);
    run();
  }
  /// Runs `seconds` of frames, `fault` changing the readings after each fill(); the first frame at which
  /// `sensor` is no longer valid (s from the start of this call; < 0: never).
  template<class Fault>
  float runUntilDistrusted(float seconds, Sensor sensor, Fault fault)
  {
    float first = -1;
    for (int i = 0; i < static_cast<int>(seconds / frameTime); ++i)
    {
      fill();
      fault(*this, i);
      run();
      if (first < 0 && health()[sensor].state != SensorState::valid)
        first = static_cast<float>(i) * frameTime;
    }
    return first;
  }
  const SensorHealth& health() { return harness.output<SensorHealth>(); }
  void expectAllValidBut(std::initializer_list<Sensor> except, const char* what)
  {
    for (std::size_t s = 0; s < numOfSensors; ++s)
    {
      if (std::find(except.begin(), except.end(), static_cast<Sensor>(s)) != except.end()) continue;
      EXPECT_EQ(health().sensors[s].state, SensorState::valid)
          << what << ": " << streams::enumName(static_cast<Sensor>(s)) << " "
          << streams::enumName(health().sensors[s].fault);
    }
  }
};

void settle(Rig& rig, float seconds = 3.f)
{
  for (int i = 0; i < static_cast<int>(seconds / frameTime); ++i)
    rig.step();
}
} // namespace

TEST(SensorHealth, ATruthfulRobotStandingTurningLiftedAndDischargingIsValidThroughout)
{
  Rig rig;
  std::uint32_t changes = 0;
  const auto all = [&](const char* what)
  {
    rig.expectAllValidBut({}, what);
    for (std::size_t j = 0; j < numOfJoints; ++j)
      EXPECT_EQ(rig.health().joints[j].state, SensorState::valid) << what << " " << jointNames[j];
    changes = rig.health().changes;
  };
  for (int i = 0; i < 2500; ++i) // 30 s standing
  {
    rig.step();
    EXPECT_TRUE(rig.health()[Sensor::gyroscope].trusted()) << i;
  }
  all("standing");
  for (int i = 0; i < 400; ++i) // pitching forward and back at up to 1 rad/s, rolling
    rig.step({0.3 * std::sin(i * 0.05), std::sin(i * 0.03), 0.5});
  all("turning");
  // A hand takes the weight within half a second (a quicker one would accelerate the body), holds it 30 s, puts it
  // down.
  for (int i = 0; i < 42; ++i)
  {
    rig.lifted = static_cast<float>(i) / 42.f;
    rig.step();
  }
  rig.lifted = 1;
  for (int i = 0; i < 2500; ++i)
    rig.step();
  for (int i = 42; i >= 0; --i)
  {
    rig.lifted = static_cast<float>(i) / 42.f;
    rig.step();
  }
  all("lifted: unloaded FSRs read noise, never negative");
  rig.batteryCurrent = -6.f; // a robot that walks hard
  for (int i = 0; i < 5000; ++i)
    rig.step();
  all("discharging");
  EXPECT_NEAR(rig.health().batteryCharge, rig.charge, 0.005f);
  EXPECT_EQ(changes, 0u);
}

TEST(SensorHealth, AStuckGyroscopeFailsWithinItsStuckFramesAndAloneOfAllSensors)
{
  for (const float stuckAt : {1.f, 5.f})
  {
    Rig rig;
    settle(rig);
    const float at =
        rig.runUntilDistrusted(3.f, Sensor::gyroscope,
                               [&](Rig& r, int) {
                                 r.harness.input<InertialSensorData>().gyro = {stuckAt, stuckAt, stuckAt};
                               });
    EXPECT_GE(at, 0.f) << stuckAt;
    EXPECT_LE(at, 11 * frameTime) << stuckAt;
    EXPECT_EQ(rig.health()[Sensor::gyroscope].state, SensorState::failed) << stuckAt;
    EXPECT_EQ(rig.health()[Sensor::gyroscope].fault, SensorFault::stuck) << stuckAt;
    EXPECT_FALSE(rig.health()[Sensor::gyroscope].usable);
    rig.expectAllValidBut({Sensor::gyroscope, Sensor::imuAngles}, "stuck gyroscope");
    EXPECT_EQ(rig.health()[Sensor::imuAngles].state, SensorState::valid);
    // Truthful again: valid after recoverAfter.
    settle(rig, 2.5f);
    EXPECT_EQ(rig.health()[Sensor::gyroscope].state, SensorState::valid) << stuckAt;
  }
}

TEST(SensorHealth, AGyroscopeBiasThatTheAccelerometerDoesNotSeeIsSuspectWithinAWindowAndThenFails)
{
  for (const double bias : {0.3, 0.45, 0.6})
  {
    Rig rig;
    settle(rig);
    rig.gyroBias = {0, bias, 0};
    const float at = rig.runUntilDistrusted(3.f, Sensor::gyroscope, [](Rig&, int) {});
    EXPECT_GE(at, 0.f) << bias;
    EXPECT_LE(at, 2 * 0.5f + frameTime) << bias << ": within two windows";
    EXPECT_EQ(rig.health()[Sensor::gyroscope].state, SensorState::failed) << bias;
    EXPECT_EQ(rig.health()[Sensor::gyroscope].fault, SensorFault::disagrees) << bias;
    rig.expectAllValidBut({Sensor::gyroscope}, "biased gyroscope");
    rig.gyroBias.setZero();
    settle(rig, 3.f);
    EXPECT_EQ(rig.health()[Sensor::gyroscope].state, SensorState::valid) << bias;
  }
  // A bias the filter estimates itself (up to 0.1 rad/s) is no fault.
  Rig rig;
  rig.gyroBias = {0.08, -0.08, 0.05};
  EXPECT_LT(rig.runUntilDistrusted(20.f, Sensor::gyroscope, [](Rig&, int) {}), 0.f);
}

TEST(SensorHealth, ANotFiniteValueCostsOnlyItselfForOneFrame)
{
  Rig rig;
  settle(rig);
  rig.fill();
  rig.harness.input<UnreadableReadings>().gyro[1] = true;
  rig.harness.input<UnreadableReadings>().fsr[2] = true;
  rig.harness.input<UnreadableReadings>().battery[0] = true;
  rig.run();
  EXPECT_FALSE(rig.health()[Sensor::gyroscope].usable);
  EXPECT_FALSE(rig.health()[Sensor::leftFsr].usable);
  EXPECT_FALSE(rig.health()[Sensor::battery].usable);
  EXPECT_TRUE(rig.health()[Sensor::accelerometer].usable);
  EXPECT_TRUE(rig.health()[Sensor::rightFsr].usable);
  rig.expectAllValidBut({}, "one unreadable frame leaves the states");
  rig.harness.input<UnreadableReadings>() = {};
  rig.step();
  for (std::size_t s = 0; s < numOfSensors; ++s)
    EXPECT_TRUE(rig.health().sensors[s].trusted()) << streams::enumName(static_cast<Sensor>(s));
  // Unreadable for longer than failAfter: failed.
  const float at = rig.runUntilDistrusted(
      1.5f, Sensor::gyroscope, [](Rig& r, int) { r.harness.input<UnreadableReadings>().gyro[0] = true; });
  EXPECT_NEAR(at, 1.f, 2 * frameTime);
  EXPECT_EQ(rig.health()[Sensor::gyroscope].fault, SensorFault::notFinite);
}

TEST(SensorHealth, DeadOrNegativeFsrsAreDistrustedAtOnceAndFail)
{
  const auto zeroLeft = [](Rig& r, int)
  {
    r.harness.input<FsrSensorData>().left.readings = {0, 0, 0, 0};
    r.harness.input<FsrSensorData>().left.totalWeight = 0;
  };
  {
    Rig rig;
    settle(rig);
    EXPECT_LE(rig.runUntilDistrusted(2.f, Sensor::leftFsr, zeroLeft), 4 * frameTime)
        << "4 repeats in 5 frames";
    EXPECT_EQ(rig.health()[Sensor::leftFsr].state, SensorState::failed);
    EXPECT_EQ(rig.health()[Sensor::leftFsr].fault, SensorFault::stuck);
    rig.expectAllValidBut({Sensor::leftFsr}, "dead left foot");
  }
  {
    Rig rig;
    settle(rig);
    const auto allNegative = [](Rig& r, int)
    {
      for (FsrFoot* foot : {&r.harness.input<FsrSensorData>().left, &r.harness.input<FsrSensorData>().right})
        foot->readings = {-0.5f, -0.5f, -0.5f, -0.5f};
    };
    EXPECT_LT(rig.runUntilDistrusted(2.f, Sensor::rightFsr, allNegative), 1.1f);
    EXPECT_EQ(rig.health()[Sensor::leftFsr].state, SensorState::failed);
    EXPECT_EQ(rig.health()[Sensor::rightFsr].fault, SensorFault::outOfRange);
    rig.fill();
    allNegative(rig, 0);
    rig.run();
    EXPECT_FALSE(rig.health()[Sensor::leftFsr].usable);
  }
}

TEST(SensorHealth, TheBatteryChargeIsBelievedOnlyWhereItsCurrentAgrees)
{
  Rig rig;
  settle(rig);
  const float before = rig.health().batteryCharge;
  // One frame at 0, one at −1: the charge the robot believes does not move.
  for (const float glitch : {0.f, -1.f})
  {
    rig.fill();
    rig.harness.input<BatteryData>().charge = glitch;
    rig.run();
    EXPECT_NEAR(rig.health().batteryCharge, before, 0.001f) << glitch;
    EXPECT_FALSE(rig.health()[Sensor::battery].trusted()) << glitch;
    rig.step();
  }
  // Flapping 0 ↔ 1: suspect, then failed; the believed charge follows the current alone.
  rig.runUntilDistrusted(5.f, Sensor::battery,
                         [](Rig& r, int i)
                         { r.harness.input<BatteryData>().charge = i % 2 == 0 ? 0.f : 1.f; });
  EXPECT_EQ(rig.health()[Sensor::battery].state, SensorState::failed);
  EXPECT_EQ(rig.health()[Sensor::battery].fault, SensorFault::jump);
  EXPECT_NEAR(rig.health().batteryCharge, rig.charge, 0.002f);
  settle(rig, 3.f);
  EXPECT_EQ(rig.health()[Sensor::battery].state, SensorState::valid) << "agrees again";
  // A gauge that corrects itself by 5 %: taken as the new level after chargeSettleTime.
  rig.charge -= 0.05f;
  settle(rig, 30.f);
  EXPECT_NEAR(rig.health().batteryCharge, rig.charge + 0.05f, 0.01f) << "not yet";
  settle(rig, 35.f);
  EXPECT_NEAR(rig.health().batteryCharge, rig.charge, 0.005f);
  EXPECT_EQ(rig.health()[Sensor::battery].state, SensorState::valid);
  // A reading that drops to 0 and stays there is never believed: the current counts on.
  const float counted = rig.health().batteryCharge;
  rig.runUntilDistrusted(90.f, Sensor::battery,
                         [](Rig& r, int) { r.harness.input<BatteryData>().charge = 0.f; });
  EXPECT_NEAR(rig.health().batteryCharge, counted - 2.f * 90.f / (2.9f * 3600.f), 0.002f);
}

TEST(SensorHealth, AChestButtonHeldOrBouncingIsNoPressButAFault)
{
  Rig rig;
  settle(rig);
  TouchData& touch = rig.harness.input<TouchData>();
  const auto press = [&](int frames)
  {
    touch.values[TouchData::chestButton] = 1.f;
    for (int i = 0; i < frames; ++i)
      rig.step();
    touch.values[TouchData::chestButton] = 0.f;
    rig.step();
  };
  press(17); // 0.2 s: a press
  EXPECT_EQ(rig.health()[Sensor::chestButton].state, SensorState::valid);
  press(300); // 3.6 s
  EXPECT_EQ(rig.health()[Sensor::chestButton].fault, SensorFault::heldTooLong);
  settle(rig, 2.5f);
  EXPECT_EQ(rig.health()[Sensor::chestButton].state, SensorState::valid);
  for (int i = 0; i < 4; ++i) // bouncing: 8 changes within 0.1 s
    press(1);
  EXPECT_EQ(rig.health()[Sensor::chestButton].fault, SensorFault::flapping);
}

TEST(SensorHealth, AJointsFlappingStatusJumpingTemperatureAndStuckEncoderAreItsOwn)
{
  Rig rig;
  settle(rig);
  JointSensorData& joints = rig.harness.input<JointSensorData>();
  for (int i = 0; i < 20; ++i)
  {
    rig.fill();
    joints.status[Joint::RKneePitch] =
        i % 2 == 0 ? TemperatureStatus::criticallyHot : TemperatureStatus::regular;
    rig.run();
  }
  EXPECT_EQ(rig.health().joints[Joint::RKneePitch].fault, SensorFault::flapping);
  rig.fill();
  joints.temperatures[Joint::HeadPitch] = 70.f;
  rig.run();
  EXPECT_EQ(rig.health().joints[Joint::HeadPitch].fault, SensorFault::jump);
  // LKneePitch's request moves 0.3 rad over 1 s while its reading stays put.
  const float held = joints.angles[Joint::LKneePitch];
  for (int i = 0; i < 84; ++i)
  {
    rig.harness.input<JointRequest>().angles[Joint::LKneePitch] = 0.3f * static_cast<float>(i) / 84.f;
    rig.fill();
    joints.angles[Joint::LKneePitch] = held;
    rig.run();
  }
  EXPECT_EQ(rig.health().joints[Joint::LKneePitch].fault, SensorFault::notFollowing);
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    if (j == index(Joint::RKneePitch) || j == index(Joint::HeadPitch) || j == index(Joint::LKneePitch))
      continue;
    EXPECT_EQ(rig.health().joints[j].state, SensorState::valid) << jointNames[j];
  }
  rig.expectAllValidBut({}, "joint faults");
}

TEST(SensorHealth, NothingAllocatesPerFrame)
{
  Rig rig;
  rig.step();
  test::ThreadAllocationCount count;
  for (int i = 0; i < 2000; ++i)
    rig.step({0.1 * std::sin(i * 0.01), 0.2, 0.0});
  rig.harness.parameters().gyroWindow = 0.3f; // a live edit
  rig.step();
  EXPECT_EQ(count.allocations(), 0u);
}

TEST(SensorHealth, AtRestOnBothFeetTheAccelerometerAndLolasAnglesMeetTheSolesFloor)
{
  // Soles flat under an upright torso (identity rotations: the floor's up is the torso's z), both feet loaded.
  const auto onFeet = [](Rig& rig)
  {
    RobotModel& model = rig.harness.input<RobotModel>();
    model.totalMass = mass;
    model.leftSole = model.rightSole = Pose3{};
  };
  {
    Rig rig;
    onFeet(rig);
    settle(rig, 5.f);
    rig.expectAllValidBut({}, "a truthful robot at rest on both feet");
    // An accelerometer with an offset of 2 m/s² on x (11.5°): the soles' floor says otherwise.
    const float at = rig.runUntilDistrusted(
        5.f, Sensor::accelerometer,
        [](Rig& r, int) { r.harness.input<InertialSensorData>().accelerometer[0] += 2.f; });
    EXPECT_GT(at, 0.9f) << "after restTime at rest";
    EXPECT_LT(at, 1.2f);
    EXPECT_EQ(rig.health()[Sensor::accelerometer].fault, SensorFault::disagrees);
    EXPECT_EQ(rig.health()[Sensor::accelerometer].state, SensorState::failed);
    rig.expectAllValidBut({Sensor::accelerometer},
                          "the accelerometer alone: LoLA's Angles agree with the soles");
    // The robot steps off (one foot unloaded): nothing can be compared, the judgement stands.
    rig.runUntilDistrusted(3.f, Sensor::gyroscope,
                           [](Rig& r, int)
                           {
                             r.harness.input<InertialSensorData>().accelerometer[0] += 2.f;
                             r.harness.input<FsrSensorData>().left.totalWeight = 0.1f;
                           });
    EXPECT_EQ(rig.health()[Sensor::accelerometer].state, SensorState::failed);
    settle(rig, 4.f); // truthful again, at rest on both feet
    EXPECT_EQ(rig.health()[Sensor::accelerometer].state, SensorState::valid);
  }
  {
    Rig rig;
    onFeet(rig);
    settle(rig, 2.f);
    rig.runUntilDistrusted(3.f, Sensor::imuAngles,
                           [](Rig& r, int) { r.harness.input<InertialSensorData>().angles[1] += 0.3f; });
    EXPECT_EQ(rig.health()[Sensor::imuAngles].fault, SensorFault::disagrees);
    rig.expectAllValidBut({Sensor::imuAngles}, "LoLA's Angles alone");
  }
}

TEST(SensorHealth, ARobotLyingOnItsHeelsIsNotTakenToStandOnTheSolesFloor)
{
  // On its back, legs stretched (soles level with each other, their up along the torso's x), the heels carrying
  // 1.2 kg each: more than supportWeight per foot, less than standingShare of the robot together. The IMU tells
  // the truth (the torso lies flat, its z horizontal); the soles' "floor" would call both IMU readings 90° off.
  Rig rig;
  RobotModel& model = rig.harness.input<RobotModel>();
  model.totalMass = mass;
  const Eigen::Matrix3f soleToTorso =
      Eigen::AngleAxisf(-0.5f * static_cast<float>(M_PI), Eigen::Vector3f::UnitY()).toRotationMatrix();
  Pose3 sole;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      sole.rotation[static_cast<std::size_t>(3 * r + c)] = soleToTorso(r, c);
  model.leftSole = model.rightSole = sole;
  rig.torso =
      Eigen::Quaterniond(Eigen::AngleAxisd(-0.5 * M_PI, Eigen::Vector3d::UnitY())); // lying on its back
  const float first = rig.runUntilDistrusted(5.f, Sensor::accelerometer,
                                             [](Rig& r, int)
                                             {
                                               for (FsrFoot* foot : {&r.harness.input<FsrSensorData>().left,
                                                                     &r.harness.input<FsrSensorData>().right})
                                               {
                                                 foot->readings = {0.f, 0.f, 0.6f, 0.6f};
                                                 foot->readings[2] += 0.01f * r.normal(r.random);
                                                 foot->readings[3] += 0.01f * r.normal(r.random);
                                                 foot->totalWeight = foot->readings[2] + foot->readings[3];
                                               }
                                             });
  EXPECT_LT(first, 0.f) << "the accelerometer was distrusted at " << first << " s";
  rig.expectAllValidBut({}, "a robot lying on its heels");
}
