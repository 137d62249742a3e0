#include "Tools/Inertial/ComplementaryFilter.h"
#include <algorithm>
#include <cmath>

namespace nao::inertial
{
namespace
{
Eigen::Quaterniond exp(const Eigen::Vector3d& rotation)
{
  const double angle = rotation.norm();
  if (angle < 1e-12) return Eigen::Quaterniond::Identity();
  return Eigen::Quaterniond(Eigen::AngleAxisd(angle, rotation / angle));
}
} // namespace

void ComplementaryFilter::update(const Eigen::Vector3d& gyro, const Eigen::Vector3d& accelerometer, double dt,
                                 const ComplementaryParameters& parameters)
{
  orientation_ = (orientation_ * exp(gyro * dt)).normalized();
  const double norm = accelerometer.norm();
  if (!(std::abs(norm - parameters.gravity) <= parameters.accGate) || norm <= 0) return;
  // The up direction predicted in the body frame and the one measured; turn the first towards the second.
  const Eigen::Vector3d predicted = orientation_.conjugate() * Eigen::Vector3d::UnitZ();
  const Eigen::Vector3d measured = accelerometer / norm;
  const double gain = std::clamp(dt / std::max(parameters.timeConstant, 1e-3), 0.0, 1.0);
  orientation_ = (orientation_ * exp(gain * measured.cross(predicted))).normalized();
}
} // namespace nao::inertial
