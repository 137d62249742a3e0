#include "Tools/Inertial/OrientationFilter.h"
#include <algorithm>
#include <cmath>

namespace nao::inertial
{
namespace
{
Eigen::Matrix3d skew(const Eigen::Vector3d& v)
{
  Eigen::Matrix3d m;
  m << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
  return m;
}

Eigen::Quaterniond exp(const Eigen::Vector3d& rotation)
{
  const double angle = rotation.norm();
  if (angle < 1e-12) return Eigen::Quaterniond(1, 0.5 * rotation.x(), 0.5 * rotation.y(), 0.5 * rotation.z());
  return Eigen::Quaterniond(Eigen::AngleAxisd(angle, rotation / angle));
}
} // namespace

Eigen::Vector2d rollPitch(const Eigen::Quaterniond& orientation)
{
  const Eigen::Matrix3d r = orientation.toRotationMatrix();
  return {std::atan2(r(2, 1), r(2, 2)), std::asin(std::clamp(-r(2, 0), -1.0, 1.0))};
}

Eigen::Quaterniond tiltFromGravity(const Eigen::Vector3d& f)
{
  const double roll = std::atan2(f.y(), f.z());
  const double pitch = std::atan2(-f.x(), std::hypot(f.y(), f.z()));
  return Eigen::Quaterniond(Eigen::AngleAxisd(pitch, Eigen::Vector3d::UnitY()) *
                            Eigen::AngleAxisd(roll, Eigen::Vector3d::UnitX()));
}

void OrientationFilter::reset(const Eigen::Vector3d& accelerometer, const ImuNoise& noise)
{
  orientation_ = tiltFromGravity(accelerometer);
  bias_.setZero();
  covariance_.setZero();
  const double tilt = noise.initialTiltStdDev * noise.initialTiltStdDev;
  covariance_.diagonal() << tilt, tilt, tilt,
      Eigen::Vector3d::Constant(noise.initialBiasStdDev * noise.initialBiasStdDev);
  initialised_ = true;
}

void OrientationFilter::predict(const Eigen::Vector3d& gyro, double dt, const ImuNoise& noise)
{
  const Eigen::Vector3d turn = (gyro - bias_) * dt;
  orientation_ = (orientation_ * exp(turn)).normalized();
  // δθ' = Exp(−ω dt)·δθ − dt·δb; δb' = δb.
  Matrix6 f = Matrix6::Identity();
  f.topLeftCorner<3, 3>() = exp(-turn).toRotationMatrix();
  f.topRightCorner<3, 3>() = -dt * Eigen::Matrix3d::Identity();
  covariance_ = f * covariance_ * f.transpose();
  covariance_.diagonal().head<3>().array() += noise.gyroNoise * noise.gyroNoise * dt * dt;
  covariance_.diagonal().tail<3>().array() += noise.gyroBiasDrift * noise.gyroBiasDrift * dt;
  covariance_ = 0.5 * (covariance_ + covariance_.transpose()).eval();
}

bool OrientationFilter::correct(const Eigen::Vector3d& accelerometer, const ImuNoise& noise)
{
  const double off = std::abs(accelerometer.norm() - noise.gravity);
  if (!(off <= noise.accGate)) return false;
  const Eigen::Vector3d expected = orientation_.conjugate() * Eigen::Vector3d(0, 0, noise.gravity);
  correctDirection(accelerometer, expected, noise.accNoise + noise.accMotionNoise * off, noise);
  return true;
}

void OrientationFilter::correctUp(const Eigen::Vector3d& up, double deviation, const ImuNoise& noise)
{
  correctDirection(up, this->up(), deviation, noise);
}

void OrientationFilter::correctDirection(const Eigen::Vector3d& measured, const Eigen::Vector3d& expected,
                                         double deviation, const ImuNoise& noise)
{
  Eigen::Matrix<double, 3, 6> h = Eigen::Matrix<double, 3, 6>::Zero();
  h.leftCols<3>() = skew(expected); // h(δθ) = Exp(−δθ)·expected ≈ expected + expected × δθ
  const Eigen::Matrix3d s =
      h * covariance_ * h.transpose() + deviation * deviation * Eigen::Matrix3d::Identity();
  const Eigen::Matrix<double, 6, 3> k = covariance_ * h.transpose() * s.inverse();
  const Eigen::Matrix<double, 6, 1> error = k * (measured - expected);
  orientation_ = (orientation_ * exp(error.head<3>())).normalized();
  bias_ = (bias_ + error.tail<3>()).cwiseMax(-noise.maxBias).cwiseMin(noise.maxBias);
  // Joseph form: stays symmetric and positive in single steps with a poor gain.
  const Matrix6 a = Matrix6::Identity() - k * h;
  covariance_ = a * covariance_ * a.transpose() + deviation * deviation * k * k.transpose();
  covariance_ = 0.5 * (covariance_ + covariance_.transpose()).eval();
}

Eigen::Vector2d OrientationFilter::angleStdDevs() const
{
  const Eigen::Matrix3d r = orientation_.toRotationMatrix();
  const Eigen::Matrix3d world = r * covariance_.topLeftCorner<3, 3>() * r.transpose();
  return {std::sqrt(std::max(world(0, 0), 0.0)), std::sqrt(std::max(world(1, 1), 0.0))};
}
} // namespace nao::inertial
