// InertialDataFilter alone in a ModuleHarness, fed with the readings of a torso whose orientation is known: a still
// tilted torso with a gyroscope bias, a torso turning, bad input (NaN, out of range, stale) that changes nothing but
// `valid`, a start that waits for a still torso, and no allocation per frame.
#include "Framework/Testing/ModuleHarness.h"
#include "Modules/Sensing/InertialDataFilter/InertialDataFilter.h"
#include "Tools/Testing/AllocationCounter.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <random>

using namespace nao;

namespace
{
constexpr double g = 9.81;

struct Rig
{
  ModuleHarness<InertialDataFilter> harness;
  std::mt19937 random{3};
  std::normal_distribution<float> normal{0.f, 1.f};
  std::uint32_t frame = 0;
  Eigen::Quaterniond truth = Eigen::Quaterniond::Identity();
  Eigen::Vector3d bias = Eigen::Vector3d::Zero();

  /// One frame of a torso at `truth` turning at `omega` (rad/s, torso frame), noisy readings.
  void step(const Eigen::Vector3d& omega = Eigen::Vector3d::Zero())
  {
    fill(omega);
    run();
  }
  /// The readings of that frame, without running it.
  void fill(const Eigen::Vector3d& omega = Eigen::Vector3d::Zero())
  {
    truth =
        (truth * Eigen::Quaterniond(Eigen::AngleAxisd(
                     omega.norm() * 0.012, omega.norm() > 0 ? omega.normalized() : Eigen::Vector3d::UnitX())))
            .normalized();
    const Eigen::Vector3d f = truth.conjugate() * Eigen::Vector3d(0, 0, g);
    InertialSensorData& sensors = harness.input<InertialSensorData>();
    for (int axis = 0; axis < 3; ++axis)
    {
      sensors.gyro[static_cast<std::size_t>(axis)] =
          static_cast<float>(omega[axis] + bias[axis]) + 0.002f * normal(random);
      sensors.accelerometer[static_cast<std::size_t>(axis)] =
          static_cast<float>(f[axis]) + 0.02f * normal(random);
    }
  }
  void run()
  {
    harness.input<FrameInfo>().frameNumber = frame;
    harness.input<FrameInfo>().time = frame * 0.012;
    ++frame;
    harness.run();
  }
  const InertialData& data() { return harness.output<InertialData>(); }
  Eigen::Vector2d trueAngles() const
  {
    const Eigen::Matrix3d r = truth.toRotationMatrix();
    return {std::atan2(r(2, 1), r(2, 2)), std::asin(-r(2, 0))};
  }
};
} // namespace

TEST(InertialDataFilter, ATiltedStillTorsoWithAGyroBias)
{
  Rig rig;
  rig.truth = Eigen::Quaterniond(Eigen::AngleAxisd(0.2, Eigen::Vector3d::UnitY()) *
                                 Eigen::AngleAxisd(-0.1, Eigen::Vector3d::UnitX()));
  rig.bias = {0.02, 0.01, 0.0};
  for (int frame = 0; frame < 3000; ++frame)
    rig.step();
  const InertialData& data = rig.data();
  EXPECT_TRUE(data.valid);
  EXPECT_NEAR(data.angles[0], -0.1, 0.005);
  EXPECT_NEAR(data.angles[1], 0.2, 0.005);
  EXPECT_NEAR(data.gyroBias[0], 0.02, 0.004);
  EXPECT_NEAR(data.gyroBias[1], 0.01, 0.004);
  for (std::size_t axis = 0; axis < 3; ++axis)
  {
    EXPECT_NEAR(data.gyro[axis], 0.f, 0.01f) << axis;
    EXPECT_NEAR(data.acceleration[axis], 0.f, 0.2f) << axis;
  }
  EXPECT_GT(data.angleStdDevs[0], 0.f);
  EXPECT_LT(data.angleStdDevs[1], 0.02f);
  const Eigen::Quaterniond estimate(data.orientation[0], data.orientation[1], data.orientation[2],
                                    data.orientation[3]);
  EXPECT_NEAR(estimate.norm(), 1.0, 1e-5);
}

TEST(InertialDataFilter, FollowsATurningTorso)
{
  Rig rig;
  for (int frame = 0; frame < 100; ++frame)
    rig.step();
  double worst = 0;
  for (int frame = 0; frame < 250; ++frame) // 3 s: roll 0 → about 60°, pitch too
  {
    rig.step({0.35, 0.2, 0.1});
    worst = std::max(worst, (Eigen::Vector2d(rig.data().angles[0], rig.data().angles[1]) - rig.trueAngles())
                                .cwiseAbs()
                                .maxCoeff());
  }
  EXPECT_LT(worst, 0.01) << "rad";
  EXPECT_NEAR(rig.data().gyro[0], 0.35, 0.02);
}

TEST(InertialDataFilter, BadInputChangesNothingButValid)
{
  Rig rig;
  for (int frame = 0; frame < 200; ++frame)
    rig.step();
  ASSERT_TRUE(rig.data().valid);
  const InertialData before = rig.data();
  const std::uint32_t lastGood = rig.frame - 1;
  const auto expectUnchanged = [&](const char* what)
  {
    const InertialData& now = rig.data();
    EXPECT_FALSE(now.valid) << what;
    EXPECT_EQ(now.orientation, before.orientation) << what;
    EXPECT_EQ(now.angles, before.angles) << what;
    EXPECT_EQ(now.gyro, before.gyro) << what;
    EXPECT_EQ(now.gyroBias, before.gyroBias) << what;
  };
  InertialSensorData& sensors = rig.harness.input<InertialSensorData>();
  SensorHealth& health = rig.harness.input<SensorHealth>();
  const InertialSensorData good = sensors;
  // Neither sensor usable (SensorHealth says so, or the values are not finite whatever it says): nothing to go on.
  sensors.gyro[1] = std::numeric_limits<float>::quiet_NaN();
  sensors.accelerometer[2] = std::numeric_limits<float>::infinity();
  rig.run();
  expectUnchanged("NaN gyroscope, infinite accelerometer");
  sensors = good;
  health[Sensor::gyroscope].usable = false;
  health[Sensor::accelerometer].usable = false;
  rig.run();
  expectUnchanged("both distrusted");
  health = SensorHealth{};
  sensors = good;
  rig.run(); // the last good frame's readings once more: stale
  expectUnchanged("stale readings");
  rig.frame = lastGood; // the last good frame's time again, new readings
  rig.step();
  expectUnchanged("time not advancing");
  rig.step();
  EXPECT_TRUE(rig.data().valid);
  EXPECT_LT(std::abs(rig.data().angles[0] - before.angles[0]), 0.002f) << "no jump after bad input";
  EXPECT_LT(std::abs(rig.data().angles[1] - before.angles[1]), 0.002f);
}

TEST(InertialDataFilter, ANotFiniteGyroscopeCostsOnlyItself)
{
  Rig rig;
  for (int frame = 0; frame < 200; ++frame)
    rig.step();
  const InertialData before = rig.data();
  rig.harness.input<InertialSensorData>().gyro[1] = std::numeric_limits<float>::quiet_NaN();
  rig.run(); // SensorHealth (the default here) would say so; the filter checks besides
  EXPECT_TRUE(rig.data().valid) << "the accelerometer carries the frame";
  EXPECT_FALSE(rig.data().gyroUsed);
  EXPECT_NEAR(rig.data().angles[1], before.angles[1], 0.002f);
  rig.step();
  EXPECT_TRUE(rig.data().gyroUsed);
}

TEST(InertialDataFilter, AGyroscopeThatSensorHealthDistrustsIsLeftOut)
{
  // A gyroscope stuck at 1 rad/s about y on a torso that stands still, tilted 0.1 rad forward: used, it drags the
  // estimate away; left out, the accelerometer holds it.
  for (const bool distrusted : {false, true})
  {
    Rig rig;
    rig.truth = Eigen::Quaterniond(Eigen::AngleAxisd(0.1, Eigen::Vector3d::UnitY()));
    for (int frame = 0; frame < 200; ++frame)
      rig.step();
    double worst = 0;
    for (int frame = 0; frame < 400; ++frame) // 4.8 s
    {
      rig.fill();
      rig.harness.input<InertialSensorData>().gyro = {0.f, 1.f, 0.f};
      rig.harness.input<SensorHealth>()[Sensor::gyroscope].state =
          distrusted ? SensorState::failed : SensorState::valid;
      rig.harness.input<SensorHealth>()[Sensor::gyroscope].usable = !distrusted;
      rig.run();
      worst = std::max(worst, std::abs(rig.data().angles[1] - rig.trueAngles()[1]));
    }
    if (distrusted)
    {
      EXPECT_LT(worst, 0.01) << "rad: the accelerometer alone";
      EXPECT_FALSE(rig.data().gyroUsed);
      EXPECT_EQ(rig.data().gyro, (std::array<float, 3>{0.f, 0.f, 0.f}));
    }
    else
      EXPECT_GT(worst, 0.1) << "rad: trusted, the stuck gyroscope tilts the estimate";
  }
}

TEST(InertialDataFilter, StartsOnlyFromAStillTorso)
{
  Rig rig;
  InertialSensorData& sensors = rig.harness.input<InertialSensorData>();
  sensors.accelerometer = {15.f, 0.f, 9.81f}; // a torso being shaken: the tilt would be 57° off
  sensors.gyro = {0.1f, 0.f, 0.f};
  rig.run();
  EXPECT_FALSE(rig.data().valid);
  rig.step();
  EXPECT_TRUE(rig.data().valid);
  EXPECT_NEAR(rig.data().angles[1], 0.f, 0.01f);
}

TEST(InertialDataFilter, NothingAllocatesPerFrame)
{
  Rig rig;
  rig.step();
  test::ThreadAllocationCount count;
  for (int frame = 0; frame < 2000; ++frame)
    rig.step({0.1 * std::sin(frame * 0.01), 0.2, 0.0});
  rig.harness.parameters().accGate = 2.f; // a live edit
  rig.step();
  EXPECT_EQ(count.allocations(), 0u);
}
