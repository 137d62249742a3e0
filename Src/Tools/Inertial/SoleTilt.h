#pragma once
// The world's up direction in the body frame from a sole flat on the floor: the sole's normal turned into the body
// frame by the leg's kinematics, a second measurement of the tilt beside the accelerometer that a swaying torso's
// accelerations do not disturb. The two up directions are a constant small angle apart on a real robot (the leg's
// joint calibration, the IMU's mounting, a floor that is not level), so the measurement is used only with an offset
// learned while the body rests (the accelerometer then measures gravity alone), and only while it agrees with the
// filter within a gate (a foot that rocks on its edge, a fall). Pure: Eigen only, no allocation.
#include <Eigen/Core>
#include <optional>

namespace nao::inertial
{
class SoleTilt
{
public:
  /// Learns the offset from a rest of `dt` s: `restUp` (the up direction measured otherwise: the accelerometer's at
  /// rest) − up from the sole, a plain mean over the first `offsetTime` (s), then averaged with that time constant.
  void learn(const Eigen::Vector3d& soleUp, const Eigen::Vector3d& restUp, double dt, double offsetTime);
  /// The sole's up direction with the offset (a unit vector in the body frame), once the offset has been learned for
  /// `offsetTime` in all and while it lies within `gate` (rad, about) of `filterUp`; nothing otherwise.
  std::optional<Eigen::Vector3d> measure(const Eigen::Vector3d& soleUp, const Eigen::Vector3d& filterUp,
                                         double offsetTime, double gate) const;

  const Eigen::Vector3d& offset() const { return offset_; }
  double learnedTime() const { return learned_; } ///< s of rest the offset has been learned from

private:
  Eigen::Vector3d offset_ = Eigen::Vector3d::Zero();
  double learned_ = 0;
};
} // namespace nao::inertial
