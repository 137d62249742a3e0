#pragma once
// The baseline to beat: a complementary filter. The gyroscope is integrated; each frame the orientation is turned a
// fraction dt/τ of the way towards the tilt the accelerometer gives (Mahony's proportional term without the
// integral: no bias estimate). Frames whose accelerometer norm is farther than a gate from g are not used for the
// correction, as in OrientationFilter.
#include "Tools/Inertial/OrientationFilter.h"

namespace nao::inertial
{
struct ComplementaryParameters
{
  double timeConstant = 1.0; ///< s: the accelerometer's tilt is followed with this time constant
  double accGate = 3.0;      ///< m/s²: a norm farther from g is no gravity measurement
  double gravity = 9.81;     ///< m/s²
};

class ComplementaryFilter
{
public:
  void reset(const Eigen::Vector3d& accelerometer) { orientation_ = tiltFromGravity(accelerometer); }
  void update(const Eigen::Vector3d& gyro, const Eigen::Vector3d& accelerometer, double dt,
              const ComplementaryParameters& parameters);
  const Eigen::Quaterniond& orientation() const { return orientation_; }
  Eigen::Vector2d angles() const { return rollPitch(orientation_); }

private:
  Eigen::Quaterniond orientation_ = Eigen::Quaterniond::Identity();
};
} // namespace nao::inertial
