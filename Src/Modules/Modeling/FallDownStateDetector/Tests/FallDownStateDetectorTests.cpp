// FallDownStateDetector alone in a ModuleHarness, fed with the InertialData, accelerometer and FSR loads of a torso
// whose motion is scripted here: standing and swaying, a fall to each side (detected while falling, then lying on
// that side), a stagger that is caught, picked up and put down, bad InertialData, an inertial estimate that tilts
// while feet and accelerometer say the robot stands (a stuck gyroscope: no fall), distrusted witnesses, and no
// allocation per frame.
#include "Framework/Testing/ModuleHarness.h"
#include "Modules/Modeling/FallDownStateDetector/FallDownStateDetector.h"
#include "Tools/Testing/AllocationCounter.h"

#include <Eigen/Geometry>
#include <cmath>
#include <gtest/gtest.h>
#include <optional>

using namespace nao;

namespace
{
constexpr float dt = 0.012f;
constexpr float degree = static_cast<float>(M_PI / 180);

constexpr float mass = 5.36f;    ///< kg, the URDF's robot
constexpr double pendulum = 0.3; ///< m, from the sole's edge to the centre of mass

struct Rig
{
  ModuleHarness<FallDownStateDetector> harness;
  std::uint32_t frame = 0;
  float weight = 5.f; ///< kg on both feet together
  /// The feet and the accelerometer tell the truth; false: they say the robot stands still, whatever the tilt
  bool truthfulWitnesses = true;
  bool gyroUsed = true; ///< false: the filter ran without its gyroscope (no rate in InertialData)
  /// Each foot's four readings (kg), if set: instead of the truthful ones
  std::optional<std::array<float, 4>> feet;

  Rig() { harness.input<RobotModel>().totalMass = mass; }

  /// One frame of a torso tilted by `angle` about the horizontal `axis` (torso frame), turning at `rate` about it:
  /// the estimate (InertialData); the accelerometer of a pendulum of `pendulum` m pivoting on the sole's edge
  /// (gravity and the centripetal part along the body: g cos θ − l θ̇²) and the feet's load, on the edge it tips over
  /// once it leans more than 3°.
  void step(const Eigen::Vector3d& axis, double angle, double rate)
  {
    const Eigen::Quaterniond q(Eigen::AngleAxisd(angle, axis.normalized()));
    InertialData& data = harness.input<InertialData>();
    data.orientation = {static_cast<float>(q.w()), static_cast<float>(q.x()), static_cast<float>(q.y()),
                        static_cast<float>(q.z())};
    const Eigen::Vector3d gyro = rate * axis.normalized();
    data.gyro = {static_cast<float>(gyro.x()), static_cast<float>(gyro.y()), static_cast<float>(gyro.z())};
    if (!gyroUsed) data.gyro = {0, 0, 0};
    data.valid = true;
    data.gyroUsed = gyroUsed;
    const bool tipping = truthfulWitnesses && std::abs(angle) > 3 * degree && weight > 1.f;
    const double along = truthfulWitnesses ? 9.81 * std::cos(angle) - pendulum * rate * rate : 9.81;
    harness.input<InertialSensorData>().accelerometer = {0.f, 0.f, static_cast<float>(along)};
    FsrSensorData& fsr = harness.input<FsrSensorData>();
    for (FsrFoot* foot : {&fsr.left, &fsr.right})
    {
      foot->readings.fill(weight / 8);
      foot->totalWeight = weight / 2;
    }
    if (tipping)
    {
      // LoLA's order: FrontLeft, FrontRight, RearLeft, RearRight.
      const float half = weight / 4;
      const Eigen::Vector3d a = axis.normalized() * (angle >= 0 ? 1 : -1);
      if (a.y() > 0.5) // forward
        fsr.left.readings = fsr.right.readings = {half, half, 0, 0};
      else if (a.y() < -0.5) // backward
        fsr.left.readings = fsr.right.readings = {0, 0, half, half};
      else
      {
        const bool left = a.x() < 0;
        FsrFoot& loaded = left ? fsr.left : fsr.right;
        FsrFoot& other = left ? fsr.right : fsr.left;
        loaded.readings = left ? std::array<float, 4>{weight / 2, 0, weight / 2, 0}
                               : std::array<float, 4>{0, weight / 2, 0, weight / 2};
        loaded.totalWeight = weight;
        other.readings.fill(0);
        other.totalWeight = 0;
      }
    }
    if (feet) fsr.left.readings = fsr.right.readings = *feet;
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
      rate += 9.81 / pendulum * std::sin(angle) * dt;
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

TEST(FallDownStateDetector, AnEstimateThatTiltsWhileFeetAndAccelerometerSayTheRobotStandsIsNoFall)
{
  // A stuck gyroscope that SensorHealth does not distrust yet: the estimate tilts at 1-5 rad/s, the feet stay
  // flat and loaded, the accelerometer reads g along the torso.
  for (const double rate : {1.0, 5.0})
  {
    Rig rig;
    for (int f = 0; f < 100; ++f)
      rig.step(Eigen::Vector3d::UnitY(), 0.0, 0);
    rig.truthfulWitnesses = false;
    for (int f = 0; f < 40; ++f)
      rig.step(Eigen::Vector3d::UnitY(), std::min(rate * f * dt, 1.2), rate);
    EXPECT_NE(rig.state().state, FallState::falling) << rate;
    EXPECT_EQ(rig.state().falls, 0u) << rate;
  }
}

TEST(FallDownStateDetector, DistrustedWitnessesAreLeftOutAndWithoutAnyTheEstimateDecides)
{
  // The feet distrusted: the accelerometer witnesses the fall.
  {
    Rig rig;
    rig.harness.input<SensorHealth>()[Sensor::leftFsr].state = SensorState::failed;
    for (int f = 0; f < 100; ++f)
      rig.step(Eigen::Vector3d::UnitY(), 0.02, 0);
    EXPECT_LT(rig.fall(Eigen::Vector3d::UnitY(), 0.05), 50 * degree);
    EXPECT_EQ(rig.state().witness, FallWitness::accelerometer);
  }
  // The accelerometer distrusted: the feet witness it.
  {
    Rig rig;
    rig.harness.input<SensorHealth>()[Sensor::accelerometer].state = SensorState::failed;
    for (int f = 0; f < 100; ++f)
      rig.step(Eigen::Vector3d::UnitY(), 0.02, 0);
    EXPECT_LT(rig.fall(Eigen::Vector3d::UnitY(), 0.05), 50 * degree);
    EXPECT_EQ(rig.state().witness, FallWitness::soleEdge);
  }
  // Neither: the estimate decides alone.
  {
    Rig rig;
    rig.harness.input<SensorHealth>()[Sensor::accelerometer].state = SensorState::failed;
    rig.harness.input<SensorHealth>()[Sensor::rightFsr].usable = false;
    rig.truthfulWitnesses = false;
    for (int f = 0; f < 100; ++f)
      rig.step(Eigen::Vector3d::UnitY(), 0.02, 0);
    EXPECT_LT(rig.fall(Eigen::Vector3d::UnitY(), 0.05), 50 * degree);
    EXPECT_EQ(rig.state().witness, FallWitness::noWitness);
  }
}

TEST(FallDownStateDetector, WithoutATrustedGyroscopeTheTiltsOwnChangeGivesTheRate)
{
  Rig rig;
  for (int f = 0; f < 100; ++f)
    rig.step(Eigen::Vector3d::UnitY(), 0.02, 0);
  double angle = 0.05, rate = 0;
  bool detected = false;
  while (angle < M_PI / 2 && !detected)
  {
    rate += 9.81 / pendulum * std::sin(angle) * dt;
    angle = std::min(angle + rate * dt, M_PI / 2);
    rig.gyroUsed = false; // the filter without its gyroscope: no rate
    rig.step(Eigen::Vector3d::UnitY(), angle, rate);
    detected = rig.state().state == FallState::falling;
  }
  EXPECT_TRUE(detected);
  EXPECT_LT(angle, 60 * degree);
}

TEST(FallDownStateDetector, DeadFsrsNeverMakeTheRobotLifted)
{
  Rig rig;
  for (int f = 0; f < 50; ++f)
    rig.step(Eigen::Vector3d::UnitY(), 0.03, 0);
  rig.weight = 0.f;                                                                // all FSRs read 0 ...
  rig.harness.input<SensorHealth>()[Sensor::leftFsr].state = SensorState::suspect; // ... and are distrusted
  rig.harness.input<SensorHealth>()[Sensor::rightFsr].state = SensorState::failed;
  for (int f = 0; f < 200; ++f)
    rig.step(Eigen::Vector3d::UnitY(), 0.03, 0);
  EXPECT_EQ(rig.state().state, FallState::upright);
}

TEST(FallDownStateDetector, AnEdgeTheRobotRestsOnWitnessesNothing)
{
  // A crouch on its heels: the rear edge has carried the load all along. An estimate that tips backward (a stuck
  // gyroscope) finds no sole that changed, and the accelerometer reads g.
  Rig rig;
  rig.truthfulWitnesses = false;
  rig.feet = std::array<float, 4>{0, 0, 1.25f, 1.25f};
  for (int f = 0; f < 200; ++f)
    rig.step(-Eigen::Vector3d::UnitY(), 0.0, 0);
  for (int f = 0; f < 40; ++f)
    rig.step(-Eigen::Vector3d::UnitY(), std::min(3.0 * f * dt, 1.0), 3.0);
  EXPECT_EQ(rig.state().falls, 0u);
  // The same with the load moving onto the heels as the estimate tips: a witness.
  Rig moving;
  moving.truthfulWitnesses = false;
  moving.feet = std::array<float, 4>{0.625f, 0.625f, 0.625f, 0.625f};
  for (int f = 0; f < 200; ++f)
    moving.step(-Eigen::Vector3d::UnitY(), 0.0, 0);
  moving.feet = std::array<float, 4>{0, 0, 1.25f, 1.25f};
  for (int f = 0; f < 40; ++f)
    moving.step(-Eigen::Vector3d::UnitY(), std::min(3.0 * f * dt, 1.0), 3.0);
  EXPECT_EQ(moving.state().falls, 1u);
  EXPECT_EQ(moving.state().witness, FallWitness::soleEdge);
}

TEST(FallDownStateDetector, WithoutAGyroscopeALastingDipOfTheAccelerometerOntoAnEdgeIsTheFall)
{
  const auto run = [](int dipFrames)
  {
    Rig rig;
    rig.gyroUsed = false;
    rig.truthfulWitnesses = false; // the estimate stays upright, as the filter without its gyroscope
    for (int f = 0; f < 100; ++f)
      rig.step(Eigen::Vector3d::UnitY(), 0.0, 0);
    rig.feet = std::array<float, 4>{1.25f, 1.25f, 0, 0}; // the load onto the toes
    for (int f = 0; f < dipFrames; ++f)
    {
      rig.harness.input<FsrSensorData>().left.readings = {1.25f, 1.25f, 0, 0};
      rig.harness.input<FsrSensorData>().right.readings = {1.25f, 1.25f, 0, 0};
      rig.harness.input<InertialSensorData>().accelerometer = {0.f, 0.f, 7.5f};
      rig.harness.input<FrameInfo>().time = rig.frame * dt;
      rig.harness.input<FrameInfo>().frameNumber = rig.frame++;
      rig.harness.run();
    }
    return rig.state();
  };
  const FallDownState falls = run(14);
  EXPECT_EQ(falls.state, FallState::falling);
  EXPECT_EQ(falls.direction, FallDirection::front) << "the edge that took the load";
  EXPECT_EQ(falls.witness, FallWitness::accelerometer);
  EXPECT_EQ(run(7).falls, 0u) << "a step's dip of 7 frames";
}
