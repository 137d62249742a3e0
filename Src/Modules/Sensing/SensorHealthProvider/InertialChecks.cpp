#include "Modules/Sensing/SensorHealthProvider/InertialChecks.h"
#include <algorithm>
#include <cmath>
#include <numbers>

namespace nao
{
namespace
{
template<std::size_t N>
bool anyOf(const std::array<bool, N>& flags)
{
  return std::any_of(flags.begin(), flags.end(), [](bool f) { return f; });
}

Eigen::Vector3f vector(const std::array<float, 3>& v)
{
  return {v[0], v[1], v[2]};
}

float angleBetween(const Eigen::Vector3f& a, const Eigen::Vector3f& b)
{
  return std::atan2(a.cross(b).norm(), a.dot(b));
}
} // namespace

SoleFloor soleFloor(const RobotModel& model, const FsrSensorData& fsr, bool trusted,
                    const SensorHealthParameters& p)
{
  SoleFloor floor;
  // The robot stands on its feet: both carry weight and together most of it (a robot lying on its back may rest
  // on both heels, soles level, but not flat on the floor).
  if (!trusted || !(model.totalMass > 0) || !(fsr.left.totalWeight >= p.supportWeight) ||
      !(fsr.right.totalWeight >= p.supportWeight) ||
      !(fsr.left.totalWeight + fsr.right.totalWeight >= p.standingShare * model.totalMass))
    return floor;
  // Each sole's z axis in the torso frame (row-major rotation, sole → torso).
  const std::array<float, 9>& l = model.leftSole.rotation;
  const std::array<float, 9>& r = model.rightSole.rotation;
  const Eigen::Vector3f left(l[2], l[5], l[8]), right(r[2], r[5], r[8]);
  if (!(angleBetween(left, right) <= p.levelSoles)) return floor; // one foot on its edge, or on a step
  floor.known = true;
  floor.up = (left + right).normalized();
  return floor;
}

InertialFindings InertialChecks::check(const InertialSensorData& imu, const UnreadableReadings& unreadable,
                                       float dt, bool gyroTrusted, const SoleFloor& floor,
                                       const SensorHealthParameters& p)
{
  InertialFindings findings;
  findings.accelerometer = checkAccelerometer(imu, unreadable, dt, p);
  const bool accelerometerOk = !findings.accelerometer;
  findings.gyroscope = checkGyroscope(imu, unreadable, accelerometerOk, dt, p);
  findings.angles = checkAngles(imu, unreadable, p);
  checkAtRest(imu, accelerometerOk, gyroTrusted && !findings.gyroscope, floor, dt, p, findings);
  if (accelerometerOk) lastDirection_ = vector(imu.accelerometer).normalized();
  return findings;
}

Finding InertialChecks::checkAccelerometer(const InertialSensorData& imu,
                                           const UnreadableReadings& unreadable, float dt,
                                           const SensorHealthParameters& p)
{
  const int repeats = accelerometerRepeats_.update(imu.accelerometer);
  if (anyOf(unreadable.accelerometer)) return Finding::glitchOf(SensorFault::notFinite);
  for (const float a : imu.accelerometer)
    if (!(std::abs(a) <= p.maxAcceleration)) return Finding::glitchOf(SensorFault::outOfRange);
  if (repeats >= p.stuckFrames) return Finding::failedOf(SensorFault::stuck);
  const float off = std::abs(vector(imu.accelerometer).norm() - p.gravity);
  accelerationOffFor_ = off > p.accelerationOff ? accelerationOffFor_ + dt : 0.f;
  // A norm far from g is a motion (a push, an impact, a fall) while it is brief; for longer, no robot moves so.
  if (accelerationOffFor_ >= p.accelerationOffTime) return Finding::suspectOf(SensorFault::outOfRange);
  return Finding::clean();
}

Finding InertialChecks::checkGyroscope(const InertialSensorData& imu, const UnreadableReadings& unreadable,
                                       bool accelerometerOk, float dt, const SensorHealthParameters& p)
{
  const int repeats = gyroRepeats_.update(imu.gyro);
  if (anyOf(unreadable.gyro)) return Finding::glitchOf(SensorFault::notFinite);
  for (const float w : imu.gyro)
    if (!(std::abs(w) <= p.maxGyro)) return Finding::glitchOf(SensorFault::outOfRange);
  if (repeats >= p.stuckFrames) return Finding::failedOf(SensorFault::stuck);
  // A disagreement stands until a steady window agrees again: a window that cannot be judged (the robot steps, the
  // accelerometer is unusable) clears nothing.
  const Finding standing = gyroDisagreed_ ? Finding::suspectOf(SensorFault::disagrees) : Finding::clean();
  if (!accelerometerOk)
  {
    windowOpen_ = false; // without gravity's direction there is nothing to compare with
    return standing;
  }
  // Over a window in which the accelerometer stays steady (every reading within stillAccelerationOff of the first,
  // the norm near g) the torso cannot have turned about a horizontal axis by more than that steadiness allows: a
  // turn tilts gravity in the torso frame. A gyroscope that integrates a horizontal turn of more than gyroMismatch
  // there contradicts it. A turn about gravity (yaw) tilts nothing and is not compared. Stepping, pushes and falls
  // shake the accelerometer: no window counts then.
  const Eigen::Vector3f a = vector(imu.accelerometer);
  if (!windowOpen_)
  {
    windowOpen_ = true;
    windowTime_ = 0;
    windowCalm_ = true;
    windowStart_ = a;
    turned_.setZero();
    return standing;
  }
  const Eigen::Vector3f up = windowStart_.normalized();
  const Eigen::Vector3f w = vector(imu.gyro);
  turned_ += (w - w.dot(up) * up) * dt; // rad, the horizontal turn the gyroscope integrated
  windowTime_ += dt;
  windowCalm_ = windowCalm_ && (a - windowStart_).norm() <= p.stillAccelerationOff &&
                std::abs(a.norm() - p.gravity) <= p.stillAccelerationOff;
  if (windowTime_ < p.gyroWindow) return standing;
  windowOpen_ = false;
  if (windowCalm_) gyroDisagreed_ = turned_.norm() > p.gyroMismatch;
  return gyroDisagreed_ ? Finding::suspectOf(SensorFault::disagrees) : Finding::clean();
}

Finding InertialChecks::checkAngles(const InertialSensorData& imu, const UnreadableReadings& unreadable,
                                    const SensorHealthParameters& p)
{
  const int repeats = angleRepeats_.update(imu.angles);
  if (anyOf(unreadable.imuAngles)) return Finding::glitchOf(SensorFault::notFinite);
  if (!(std::abs(imu.angles[0]) <= 4.f && std::abs(imu.angles[1]) <= 4.f))
    return Finding::glitchOf(SensorFault::outOfRange); // no angle (rad) lies beyond ±π
  if (repeats >= p.stuckFrames) return Finding::failedOf(SensorFault::stuck);
  return Finding::clean();
}

void InertialChecks::checkAtRest(const InertialSensorData& imu, bool accelerometerOk, bool gyroTrusted,
                                 const SoleFloor& floor, float dt, const SensorHealthParameters& p,
                                 InertialFindings& findings)
{
  const auto standing = [&]
  {
    if (accelerometerDisagreed_)
      findings.accelerometer = worst(findings.accelerometer, Finding::suspectOf(SensorFault::disagrees));
    if (anglesDisagreed_ && !findings.angles) findings.angles = Finding::suspectOf(SensorFault::disagrees);
  };
  if (!accelerometerOk)
  {
    restFor_ = 0;
    standing();
    return;
  }
  // Rest: a slow gyroscope (or a steady direction without one), the accelerometer's norm near g and each reading
  // near the readings' mean, for restTime; then the mean, not one sample, is compared. The floor the soles stand on
  // gives the world's up by the legs' kinematics alone: the accelerometer's mean and LoLA's Angles (the IMU board's
  // own filter) must both agree with it (a joint calibration and a floor that is not level are a few degrees).
  const Eigen::Vector3f a = vector(imu.accelerometer);
  const float follow = dt > 0 ? std::min(1.f, dt / p.restTime) : 1.f;
  meanAcceleration_ =
      restFor_ > 0 ? Eigen::Vector3f(meanAcceleration_ + follow * (a - meanAcceleration_)) : a;
  const bool slow = gyroTrusted ? vector(imu.gyro).norm() <= p.restGyro
                                : angleBetween(a.normalized(), lastDirection_) <= 0.01f;
  const bool rest = slow && std::abs(a.norm() - p.gravity) <= p.restAccelerationOff &&
                    (a - meanAcceleration_).norm() <= p.restAccelerationOff;
  restFor_ = rest ? restFor_ + dt : 0.f;
  // A disagreement stands until the next rest on both feet agrees again.
  if (restFor_ >= p.restTime && floor.known)
  {
    accelerometerDisagreed_ = angleBetween(meanAcceleration_.normalized(), floor.up) > p.soleMismatch;
    const Eigen::Vector3f& u = floor.up;
    const float roll = std::atan2(u.y(), u.z());
    const float pitch = std::atan2(-u.x(), std::hypot(u.y(), u.z()));
    anglesDisagreed_ =
        std::abs(std::remainder(imu.angles[0] - roll, 2 * std::numbers::pi_v<float>)) > p.soleMismatch ||
        std::abs(imu.angles[1] - pitch) > p.soleMismatch;
  }
  standing();
}

} // namespace nao
