#include "Modules/Sensing/SensorHealthProvider/SensorHealthProvider.h"
#include <algorithm>

namespace nao
{
void SensorHealthProvider::judge(SensorHealth& health, SensorCheck& check, SensorJudge& judge,
                                 const Finding& finding, double now)
{
  if (judge.judge(check, finding, now, params().failAfter, params().recoverAfter)) ++health.changes;
}

void SensorHealthProvider::update(SensorHealth& health)
{
  const SensorHealthParameters& p = params();
  const double now = get<FrameInfo>().time;
  const float dt = seen_ ? static_cast<float>(std::clamp(now - lastTime_, 0.0, 0.1)) : 0.f;
  seen_ = true;
  lastTime_ = now;
  const UnreadableReadings& unreadable = get<UnreadableReadings>();
  const InertialSensorData& imu = get<InertialSensorData>();

  // The floor the soles stand on, if last frame's health trusted both feet's FSRs (this frame's are judged below).
  const FsrSensorData& fsr = get<FsrSensorData>();
  const SoleFloor floor = soleFloor(
      get<RobotModel>(), fsr, health[Sensor::leftFsr].trusted() && health[Sensor::rightFsr].trusted(), p);
  const InertialFindings inertial =
      inertial_.check(imu, unreadable, dt, health[Sensor::gyroscope].trusted(), floor, p);
  judge(health, health[Sensor::gyroscope], sensorJudges_[Sensor::gyroscope], inertial.gyroscope, now);
  judge(health, health[Sensor::accelerometer], sensorJudges_[Sensor::accelerometer], inertial.accelerometer,
        now);
  judge(health, health[Sensor::imuAngles], sensorJudges_[Sensor::imuAngles], inertial.angles, now);

  const std::array<Finding, 2> feet = feet_.check(fsr, unreadable, p);
  judge(health, health[Sensor::leftFsr], sensorJudges_[Sensor::leftFsr], feet[0], now);
  judge(health, health[Sensor::rightFsr], sensorJudges_[Sensor::rightFsr], feet[1], now);

  judge(health, health[Sensor::battery], sensorJudges_[Sensor::battery],
        battery_.check(get<BatteryData>(), unreadable, dt, p), now);
  health.batteryCharge = battery_.believed();
  judge(health, health[Sensor::chestButton], sensorJudges_[Sensor::chestButton],
        button_.check(get<TouchData>(), now, p), now);

  const JointArray<Finding> joints =
      joints_.check(get<JointSensorData>(), unreadable, get<JointRequest>(), now, p);
  for (std::size_t j = 0; j < numOfJoints; ++j)
    judge(health, health.joints[j], jointJudges_[j], joints[j], now);
}

MAKE_MODULE(SensorHealthProvider);
} // namespace nao
