#include "Modules/Sensing/InertialDataFilter/InertialDataFilter.h"
#include <algorithm>
#include <cmath>

namespace nao
{
namespace
{
bool finite(const std::array<float, 3>& v)
{
  return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]);
}
} // namespace

std::array<bool, 2> InertialDataFilter::useSoles(const Eigen::Vector3d& rate,
                                                 const Eigen::Vector3d& accelerometer, double dt)
{
  std::array<bool, 2> used{};
  const RobotModel& model = get<RobotModel>();
  if (!(model.totalMass > 0.f)) return used; // no robot model in this graph: no sole to measure with
  const InertialDataFilterParameters& p = params();
  const FsrSensorData& fsr = get<FsrSensorData>();
  const SensorHealth& health = get<SensorHealth>();
  const std::array<const FsrFoot*, 2> feet = {&fsr.left, &fsr.right};
  const std::array<const Pose3*, 2> soles = {&model.leftSole, &model.rightSole};
  // A foot supports when its FSRs, not distrusted, carry weight: a dead sensor makes no sole a measurement (a
  // one-frame glitch, such as an impact beyond the range, does not take a landing foot's support away).
  const std::array<bool, 2> support = {
      health[Sensor::leftFsr].valid() && feet[0]->totalWeight >= p.supportWeight,
      health[Sensor::rightFsr].valid() && feet[1]->totalWeight >= p.supportWeight}; // NaN: no support
  // Offsets are learned against the accelerometer: only while it is trusted, or they would learn its fault.
  const bool accelerometerTrusted = health[Sensor::accelerometer].trusted();
  const bool resting = support[0] && support[1] && health[Sensor::gyroscope].trusted() &&
                       accelerometerTrusted &&
                       std::abs(accelerometer.norm() - noise_.gravity) <= p.restAccelerationOff &&
                       (rate - filter_.bias()).norm() <= p.restGyro;
  for (std::size_t foot = 0; foot < 2; ++foot)
  {
    // The sole's z axis in the torso frame (row-major rotation, sole → torso): the world's up if the sole lies flat.
    const std::array<float, 9>& r = soles[foot]->rotation;
    const Eigen::Vector3d soleUp(r[2], r[5], r[8]);
    // At rest the accelerometer measures gravity alone: its direction, not the filter's (which may still be settling
    // or be pulled by this very sole), is what the offset is learned against.
    if (resting) soles_[foot].learn(soleUp, accelerometer.normalized(), dt, p.footOffsetTime);
    if (!support[foot]) continue;
    // Without a trusted accelerometer the soles are the only up there is: they may pull the estimate from farther.
    const double gate = accelerometerTrusted ? p.footGate : p.blindFootGate;
    if (const auto up = soles_[foot].measure(soleUp, filter_.up(), p.footOffsetTime, gate))
    {
      filter_.correctUp(*up, p.footNoise, noise_);
      used[foot] = true;
    }
  }
  return used;
}

void InertialDataFilter::update(InertialData& data)
{
  if (!configured_)
  {
    const InertialDataFilterParameters& p = params();
    noise_ = {p.gyroNoise, p.gyroBiasDrift,     p.accNoise,          p.accMotionNoise, p.accGate,
              p.gravity,   p.initialTiltStdDev, p.initialBiasStdDev, p.maxBias};
    blindNoise_ = noise_;
    blindNoise_.gyroNoise = p.unseenTurnRate;
    blindNoise_.gyroBiasDrift = 0; // no gyroscope, no bias to drift
    configured_ = true;
  }
  const InertialSensorData& sensors = get<InertialSensorData>();
  const double time = get<FrameInfo>().time;
  const std::array<float, 6> readings = {sensors.gyro[0],          sensors.gyro[1],
                                         sensors.gyro[2],          sensors.accelerometer[0],
                                         sensors.accelerometer[1], sensors.accelerometer[2]};
  // Stale: the time did not advance, or the very same readings again (a noisy sensor never repeats all six).
  const bool stale = seen_ && (!(time > lastTime_) || readings == lastReadings_);
  // What SensorHealth distrusts is left out (its range and consistency checks); a value that is not finite never
  // reaches the filter, whatever the health says.
  const SensorHealth& health = get<SensorHealth>();
  const bool gyroTrusted = health[Sensor::gyroscope].trusted() && finite(sensors.gyro);
  const bool accelerometerUsable = health[Sensor::accelerometer].usable && finite(sensors.accelerometer);
  if (stale || (!gyroTrusted && !accelerometerUsable))
  {
    data.valid = false; // everything else keeps the last good frame's values
    return;
  }
  const Eigen::Vector3d gyro(sensors.gyro[0], sensors.gyro[1], sensors.gyro[2]);
  const Eigen::Vector3d accelerometer(sensors.accelerometer[0], sensors.accelerometer[1],
                                      sensors.accelerometer[2]);
  std::array<bool, 2> soles{};
  if (!filter_.initialised())
  {
    // Start only from a still torso: the accelerometer then gives the tilt.
    if (!accelerometerUsable || !(std::abs(accelerometer.norm() - noise_.gravity) <= noise_.accGate))
    {
      data.valid = false;
      return;
    }
    filter_.reset(accelerometer, noise_);
  }
  else
  {
    const double dt = std::clamp(time - lastTime_, 0.0, static_cast<double>(params().maxFrameGap));
    // A distrusted gyroscope is left out: no turn predicted, its uncertainty wide, the bias kept as it was.
    if (gyroTrusted)
      filter_.predict(gyro, dt, noise_);
    else
      filter_.predict(filter_.bias(), dt, blindNoise_);
    if (accelerometerUsable) filter_.correct(accelerometer, noise_);
    soles = useSoles(gyroTrusted ? gyro : filter_.bias(), accelerometer, dt);
  }
  seen_ = true;
  lastTime_ = time;
  lastReadings_ = readings;

  const Eigen::Quaterniond& q = filter_.orientation();
  data.orientation = {static_cast<float>(q.w()), static_cast<float>(q.x()), static_cast<float>(q.y()),
                      static_cast<float>(q.z())};
  const Eigen::Vector2d angles = filter_.angles();
  data.angles = {static_cast<float>(angles.x()), static_cast<float>(angles.y())};
  const Eigen::Vector3d rate = gyroTrusted ? Eigen::Vector3d(gyro - filter_.bias()) : Eigen::Vector3d::Zero();
  const Eigen::Vector3d acceleration = q * accelerometer - Eigen::Vector3d(0, 0, noise_.gravity);
  for (std::size_t axis = 0; axis < 3; ++axis)
  {
    data.gyro[axis] = static_cast<float>(rate[static_cast<Eigen::Index>(axis)]);
    data.acceleration[axis] = static_cast<float>(acceleration[static_cast<Eigen::Index>(axis)]);
    data.gyroBias[axis] = static_cast<float>(filter_.bias()[static_cast<Eigen::Index>(axis)]);
  }
  const Eigen::Vector2d deviations = filter_.angleStdDevs();
  data.angleStdDevs = {static_cast<float>(deviations.x()), static_cast<float>(deviations.y())};
  data.soles = soles;
  data.gyroUsed = gyroTrusted;
  data.valid = true;
}

MAKE_MODULE(InertialDataFilter);
} // namespace nao
