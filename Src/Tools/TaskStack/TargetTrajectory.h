#pragma once
// A task's reference on its way to a new target (seed 003's s* with its rate ds*/dt): smoothstep from where the
// feature was when the target came to the target, so that the task's velocity starts and ends at zero and never
// exceeds 1.5 times the mean. A target given as a step (a script, a live edit) would otherwise ask for gain x error
// at once: full speed from one frame to the next, a jolt that rocks a standing robot. Nothing allocates.
#include <Eigen/Core>
#include <algorithm>
#include <cmath>

namespace nao::taskstack
{
class TargetTrajectory
{
public:
  /// Heads for `target` (same units as the feature) from `current` at `time` (s), at `meanSpeed` (units/s, > 0)
  /// and with an acceleration of at most `maxAcceleration` (units/s^2, > 0; smoothstep's peak is 6 d / T^2), taking
  /// at least `minDuration` s. Called again with the same target it changes nothing; with another, it starts from
  /// the reference of that moment, so the reference never jumps.
  void aim(const Eigen::Vector3d& target, const Eigen::Vector3d& current, double time, double meanSpeed,
           double maxAcceleration, double minDuration)
  {
    if (aimed_ && target == to_) return;
    const Eigen::Vector3d from = aimed_ ? position(time) : current;
    from_ = from;
    to_ = target;
    start_ = time;
    const double distance = (to_ - from_).norm();
    duration_ = std::max({minDuration, distance / meanSpeed, std::sqrt(6.0 * distance / maxAcceleration)});
    aimed_ = true;
  }
  /// Forgets the target: the next aim() starts from the feature's value.
  void release() { aimed_ = false; }
  bool aimed() const { return aimed_; }

  /// The reference at `time` (s).
  Eigen::Vector3d position(double time) const
  {
    const double t = phase(time);
    return from_ + (to_ - from_) * (t * t * (3 - 2 * t));
  }
  /// Its rate at `time` (units/s).
  Eigen::Vector3d velocity(double time) const
  {
    const double t = phase(time);
    if (t <= 0 || t >= 1) return Eigen::Vector3d::Zero();
    return (to_ - from_) * (6 * t * (1 - t) / duration_);
  }

private:
  double phase(double time) const { return std::clamp((time - start_) / duration_, 0.0, 1.0); }

  Eigen::Vector3d from_ = Eigen::Vector3d::Zero(), to_ = Eigen::Vector3d::Zero();
  double start_ = 0, duration_ = 1;
  bool aimed_ = false;
};
} // namespace nao::taskstack
