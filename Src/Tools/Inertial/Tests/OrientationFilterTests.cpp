// OrientationFilter and ComplementaryFilter on synthetic motions whose true orientation is known: a tilted body at
// rest with a gyroscope bias (the filter learns the bias, the complementary filter keeps an error of bias × τ), a
// body swinging at 1 Hz, an impact the gate keeps out, and no allocation per step.
#include "Tools/Inertial/ComplementaryFilter.h"
#include "Tools/Inertial/OrientationFilter.h"
#include "Tools/Testing/AllocationCounter.h"

#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>
#include <random>

using namespace nao::inertial;

namespace
{
constexpr double dt = 0.012; // s, LoLA's frame
constexpr double g = 9.81;

Eigen::Quaterniond fromRollPitch(double roll, double pitch)
{
  return Eigen::Quaterniond(Eigen::AngleAxisd(pitch, Eigen::Vector3d::UnitY()) *
                            Eigen::AngleAxisd(roll, Eigen::Vector3d::UnitX()));
}

/// Readings of a body with orientation `q` (body → world), angular velocity `omega` (body frame) and linear
/// acceleration `a` (world frame), with white noise of the given deviations and a gyroscope bias.
struct Imu
{
  std::mt19937 random{7};
  std::normal_distribution<double> normal{0.0, 1.0};
  double gyroNoise = 0.002, accNoise = 0.02;
  Eigen::Vector3d bias = Eigen::Vector3d::Zero();
  Eigen::Vector3d noisy(const Eigen::Vector3d& v, double deviation)
  {
    return v + deviation * Eigen::Vector3d(normal(random), normal(random), normal(random));
  }
  Eigen::Vector3d gyro(const Eigen::Vector3d& omega) { return noisy(omega + bias, gyroNoise); }
  Eigen::Vector3d accelerometer(const Eigen::Quaterniond& q,
                                const Eigen::Vector3d& a = Eigen::Vector3d::Zero())
  {
    return noisy(q.conjugate() * (a + Eigen::Vector3d(0, 0, g)), accNoise);
  }
};

double tiltError(const Eigen::Quaterniond& estimate, const Eigen::Quaterniond& truth)
{
  return (rollPitch(estimate) - rollPitch(truth)).cwiseAbs().maxCoeff();
}
} // namespace

TEST(OrientationFilter, StartsAtTheAccelerometersTilt)
{
  const Eigen::Quaterniond truth = fromRollPitch(0.3, -0.2);
  OrientationFilter filter;
  filter.reset(truth.conjugate() * Eigen::Vector3d(0, 0, g), ImuNoise{});
  EXPECT_LT(tiltError(filter.orientation(), truth), 1e-9);
  EXPECT_NEAR(filter.angles().x(), 0.3, 1e-9);
  EXPECT_NEAR(filter.angles().y(), -0.2, 1e-9);
}

TEST(OrientationFilter, LearnsTheGyroBiasWhereTheComplementaryFilterKeepsAnError)
{
  const Eigen::Quaterniond truth = fromRollPitch(0.1, 0.15);
  Imu imu;
  imu.bias = {0.02, -0.015, 0.01}; // rad/s, about 1°/s: a MEMS gyroscope's turn-on bias
  OrientationFilter filter;
  ComplementaryFilter complementary;
  const ImuNoise noise;
  const ComplementaryParameters parameters;
  filter.reset(imu.accelerometer(truth), noise);
  complementary.reset(imu.accelerometer(truth));
  for (int frame = 0; frame < 5000; ++frame) // 60 s
  {
    const Eigen::Vector3d gyro = imu.gyro(Eigen::Vector3d::Zero());
    const Eigen::Vector3d accelerometer = imu.accelerometer(truth);
    filter.predict(gyro, dt, noise);
    EXPECT_TRUE(filter.correct(accelerometer, noise));
    complementary.update(gyro, accelerometer, dt, parameters);
  }
  // Roll and pitch see the x and y bias (the body is nearly upright: z is the yaw axis, unobservable).
  EXPECT_NEAR(filter.bias().x(), 0.02, 0.003);
  EXPECT_NEAR(filter.bias().y(), -0.015, 0.003);
  const double filterError = tiltError(filter.orientation(), truth);
  const double complementaryError = tiltError(complementary.orientation(), truth);
  EXPECT_LT(filterError, 0.005);       // rad
  EXPECT_GT(complementaryError, 0.01); // ≈ bias × τ = 0.02 rad
  EXPECT_LT(filterError, complementaryError / 3);
  EXPECT_LT(filter.angleStdDevs().maxCoeff(), 0.02);
  EXPECT_GT(filter.angleStdDevs().minCoeff(), 0.0);
}

TEST(OrientationFilter, FollowsASwingingBodyWhoseAccelerationMisleadsTheAccelerometer)
{
  // A pendulum-like swing in pitch, ±20° at 1 Hz, with the torso's linear acceleration of a 0.3 m lever.
  Imu imu;
  OrientationFilter filter;
  ComplementaryFilter complementary;
  const ImuNoise noise;
  const ComplementaryParameters parameters;
  const auto pitchAt = [](double t) { return 0.35 * std::sin(2 * M_PI * t); };
  filter.reset(imu.accelerometer(fromRollPitch(0, 0)), noise);
  complementary.reset(imu.accelerometer(fromRollPitch(0, 0)));
  double worst = 0, worstComplementary = 0;
  for (int frame = 1; frame < 1000; ++frame)
  {
    const double t = frame * dt;
    const double rate = 0.35 * 2 * M_PI * std::cos(2 * M_PI * t);
    const double angular = -0.35 * 4 * M_PI * M_PI * std::sin(2 * M_PI * t);
    const Eigen::Quaterniond truth = fromRollPitch(0, pitchAt(t));
    // Tangential acceleration of a point 0.3 m above the pivot, in the world frame.
    const Eigen::Vector3d a = 0.3 * angular * Eigen::Vector3d(std::cos(pitchAt(t)), 0, -std::sin(pitchAt(t)));
    const Eigen::Vector3d gyro = imu.gyro({0, rate, 0});
    const Eigen::Vector3d accelerometer = imu.accelerometer(truth, a);
    filter.predict(gyro, dt, noise);
    filter.correct(accelerometer, noise);
    complementary.update(gyro, accelerometer, dt, parameters);
    if (t > 2)
    {
      worst = std::max(worst, tiltError(filter.orientation(), truth));
      worstComplementary = std::max(worstComplementary, tiltError(complementary.orientation(), truth));
    }
  }
  std::printf("swing: worst error %.4f rad (complementary %.4f rad)\n", worst, worstComplementary);
  EXPECT_LT(worst, 0.03); // rad, under 2°
  EXPECT_LT(worstComplementary, 0.1);
}

TEST(OrientationFilter, AnImpactBeyondTheGateChangesNothing)
{
  const Eigen::Quaterniond truth = fromRollPitch(0.05, 0.05);
  Imu imu;
  OrientationFilter filter;
  const ImuNoise noise;
  filter.reset(imu.accelerometer(truth), noise);
  for (int frame = 0; frame < 100; ++frame)
  {
    filter.predict(imu.gyro(Eigen::Vector3d::Zero()), dt, noise);
    filter.correct(imu.accelerometer(truth), noise);
  }
  const Eigen::Quaterniond before = filter.orientation();
  const Eigen::Vector3d impact = imu.accelerometer(truth, {25, 0, 10}); // m/s², a blow
  EXPECT_FALSE(filter.correct(impact, noise));
  EXPECT_EQ(filter.orientation().coeffs(), before.coeffs());
  // Just inside the gate the measurement counts, but weighted down: the tilt moves by less than 0.5°.
  const Eigen::Vector3d shove = imu.accelerometer(truth, {2.5, 0, 0});
  EXPECT_TRUE(filter.correct(shove, noise));
  EXPECT_LT(tiltError(filter.orientation(), before), 0.5 * M_PI / 180);
}

TEST(OrientationFilter, NothingAllocatesPerStep)
{
  Imu imu;
  OrientationFilter filter;
  ComplementaryFilter complementary;
  const ImuNoise noise;
  filter.reset(imu.accelerometer(Eigen::Quaterniond::Identity()), noise);
  nao::test::ThreadAllocationCount count;
  for (int frame = 0; frame < 1000; ++frame)
  {
    const Eigen::Vector3d gyro = imu.gyro({0.1, 0.2, 0.3});
    const Eigen::Vector3d accelerometer = imu.accelerometer(Eigen::Quaterniond::Identity());
    filter.predict(gyro, dt, noise);
    filter.correct(accelerometer, noise);
    complementary.update(gyro, accelerometer, dt, ComplementaryParameters{});
  }
  EXPECT_EQ(count.allocations(), 0u);
}
