// FallDownStateDetector alone in a ModuleHarness, fed with the InertialData and FSR loads of a torso whose motion
// is scripted here: standing and swaying, a fall to each side (detected while falling, then lying on that side), a
// stagger that is caught, picked up and put down, bad InertialData, and no allocation per frame.
#include "Framework/Testing/ModuleHarness.h"
#include "Modules/Modeling/FallDownStateDetector/FallDownStateDetector.h"
#include "Tools/Testing/AllocationCounter.h"

#include <Eigen/Geometry>
#include <cmath>
#include <gtest/gtest.h>

using namespace nao;

namespace
{
constexpr float dt = 0.012f;
constexpr float degree = static_cast<float>(M_PI / 180);

struct Rig
{
  ModuleHarness<FallDownStateDetector> harness;
  std::uint32_t frame = 0;
  float weight = 5.f; ///< kg on both feet together

  /// One frame of a torso tilted by `angle` about the horizontal `axis` (torso frame), turning at `rate` about it.
  void step(const Eigen::Vector3d& axis, double angle, double rate)
  {
    const Eigen::Quaterniond q(Eigen::AngleAxisd(angle, axis.normalized()));
    InertialData& data = harness.input<InertialData>();
    data.orientation = {static_cast<float>(q.w()), static_cast<float>(q.x()), static_cast<float>(q.y()),
                        static_cast<float>(q.z())};
    const Eigen::Vector3d gyro = rate * axis.normalized();
    data.gyro = {static_cast<float>(gyro.x()), static_cast<float>(gyro.y()), static_cast<float>(gyro.z())};
    data.valid = true;
    harness.input<FsrSensorData>().left.totalWeight = weight / 2;
    harness.input<FsrSensorData>().right.totalWeight = weight / 2;
    harness.input<FrameInfo>().time = frame * dt;
    harness.input<FrameInfo>().frameNumber = frame++;
    harness.run();
  }
  const FallDownState& state() { return harness.output<FallDownState>(); }

  /// Falls about `axis` like an inverted pendulum from `start` (rad) until lying (90°), then lies still for 1 s.
  /// Returns the tilt at which falling was first reported (NaN: never).
  float fall(const Eigen::Vector3d& axis, double start)
  {
    double angle = start, rate = 0;
    float detectedAt = std::numeric_limits<float>::quiet_NaN();
    while (angle < M_PI / 2)
    {
      rate += 9.81 / 0.3 * std::sin(angle) * dt; // a 0.3 m pendulum
      angle = std::min(angle + rate * dt, M_PI / 2);
      step(axis, angle, rate);
      if (std::isnan(detectedAt) && state().state == FallState::falling)
        detectedAt = static_cast<float>(angle);
    }
    for (int f = 0; f < 80; ++f)
      step(axis, M_PI / 2, 0);
    return detectedAt;
  }
};
} // namespace

TEST(FallDownStateDetector, TiltOfAnOrientation)
{
  const Eigen::Quaterniond q(Eigen::AngleAxisd(0.3, Eigen::Vector3d::UnitY())); // pitched forward
  const Tilt tilt = tiltOf({static_cast<float>(q.w()), static_cast<float>(q.x()), static_cast<float>(q.y()),
                            static_cast<float>(q.z())},
                           {0.f, 0.5f, 0.f});
  EXPECT_NEAR(tilt.angle, 0.3f, 1e-5f);
  EXPECT_NEAR(tilt.rate, 0.5f, 1e-5f);
  EXPECT_NEAR(tilt.front, std::sin(0.3f), 1e-5f);
  EXPECT_NEAR(tilt.left, 0.f, 1e-5f);
}

TEST(FallDownStateDetector, FallsToEachSideAreDetectedWhileFallingThenLying)
{
  const struct
  {
    Eigen::Vector3d axis;
    FallDirection direction;
    FallenSide side;
  } cases[] = {{Eigen::Vector3d::UnitY(), FallDirection::front, FallenSide::front},
               {-Eigen::Vector3d::UnitY(), FallDirection::back, FallenSide::back},
               {-Eigen::Vector3d::UnitX(), FallDirection::left, FallenSide::left},
               {Eigen::Vector3d::UnitX(), FallDirection::right, FallenSide::right}};
  for (const auto& c : cases)
  {
    Rig rig;
    for (int f = 0; f < 100; ++f)
      rig.step(c.axis, 0.02, 0);
    EXPECT_EQ(rig.state().state, FallState::upright);
    const float detectedAt = rig.fall(c.axis, 0.05);
    EXPECT_LT(detectedAt, 50 * degree) << "detected well before lying: " << streams::enumName(c.direction);
    EXPECT_EQ(rig.state().state, FallState::fallen) << streams::enumName(c.direction);
    EXPECT_EQ(rig.state().direction, c.direction);
    EXPECT_EQ(rig.state().side, c.side);
    EXPECT_EQ(rig.state().falls, 1u);
    EXPECT_NEAR(rig.state().tilt, M_PI / 2, 1e-3);
    for (int f = 0; f < 200; ++f) // stood up again
      rig.step(c.axis, 0.0, 0);
    EXPECT_EQ(rig.state().state, FallState::upright);
    EXPECT_EQ(rig.state().side, FallenSide::none);
  }
}

TEST(FallDownStateDetector, SwayAndACaughtStaggerAreNoFall)
{
  Rig rig;
  for (int f = 0; f < 1000; ++f) // ±5° at 1 Hz
  {
    const double phase = 2 * M_PI * f * dt;
    rig.step(Eigen::Vector3d::UnitY(), 5 * degree * std::sin(phase), 5 * degree * 2 * M_PI * std::cos(phase));
    ASSERT_EQ(rig.state().state, FallState::upright) << f;
  }
  // Out to 25° and back within a second, as a push that is caught.
  bool staggered = false;
  for (int f = 0; f <= 80; ++f)
  {
    const double phase = M_PI * f / 80.0;
    rig.step(Eigen::Vector3d::UnitX(), 25 * degree * std::sin(phase),
             25 * degree * M_PI / 0.96 * std::cos(phase));
    staggered = staggered || rig.state().state == FallState::staggering;
    ASSERT_NE(rig.state().state, FallState::falling) << f;
  }
  EXPECT_TRUE(staggered);
  for (int f = 0; f < 100; ++f)
    rig.step(Eigen::Vector3d::UnitX(), 0, 0);
  EXPECT_EQ(rig.state().state, FallState::upright);
  EXPECT_EQ(rig.state().falls, 0u);
}

TEST(FallDownStateDetector, PickedUpAndPutDown)
{
  Rig rig;
  for (int f = 0; f < 50; ++f)
    rig.step(Eigen::Vector3d::UnitY(), 0.03, 0);
  rig.weight = 0.05f;
  for (int f = 0; f < 10; ++f) // 0.12 s: not yet
    rig.step(Eigen::Vector3d::UnitY(), 0.03, 0);
  EXPECT_EQ(rig.state().state, FallState::upright);
  for (int f = 0; f < 200; ++f)
    rig.step(Eigen::Vector3d::UnitY(), 0.03 + 0.1 * std::sin(f * 0.05), 0.4 * std::cos(f * 0.05));
  EXPECT_EQ(rig.state().state, FallState::lifted);
  rig.weight = 5.f;
  for (int f = 0; f < 20; ++f)
    rig.step(Eigen::Vector3d::UnitY(), 0.03, 0);
  EXPECT_EQ(rig.state().state, FallState::upright);
  EXPECT_EQ(rig.state().falls, 0u);
}

TEST(FallDownStateDetector, InvalidInertialDataKeepsTheLastTilt)
{
  Rig rig;
  for (int f = 0; f < 50; ++f)
    rig.step(Eigen::Vector3d::UnitY(), 0.03, 0);
  rig.harness.input<InertialData>().orientation = {0.f, 1.f, 0.f, 0.f}; // upside down, but not valid
  rig.harness.input<InertialData>().valid = false;
  for (int f = 0; f < 100; ++f)
  {
    rig.harness.input<FrameInfo>().time = rig.frame++ * dt;
    rig.harness.run();
  }
  EXPECT_EQ(rig.state().state, FallState::upright);
  EXPECT_NEAR(rig.state().tilt, 0.03, 1e-5);
}

TEST(FallDownStateDetector, NothingAllocatesPerFrame)
{
  Rig rig;
  rig.step(Eigen::Vector3d::UnitY(), 0, 0);
  test::ThreadAllocationCount count;
  rig.fall(Eigen::Vector3d::UnitY(), 0.05);
  for (int f = 0; f < 200; ++f)
    rig.step(Eigen::Vector3d::UnitY(), 0, 0);
  EXPECT_EQ(count.allocations(), 0u);
}
