#pragma once
// How far each sensor can be trusted (SensorHealth): every frame each input is checked against its range, its own
// history (stuck, jumps, flapping) and an independent sensor (the gyroscope against the accelerometer's direction,
// LoLA's Angles against the accelerometer's tilt at rest, the FSRs' total against the accelerometer, the battery's
// charge against its current, the chest button against what a press is, a joint's reading against its request).
// A glitch costs only its own value; a contradiction makes the sensor suspect, a lasting one failed. Runs before
// every reader of the sensors. README.md of this folder: each check, its numbers and what the readers do.
#include "Framework/Module.h"
#include "Modules/Sensing/SensorHealthProvider/BatteryCheck.h"
#include "Modules/Sensing/SensorHealthProvider/ButtonCheck.h"
#include "Modules/Sensing/SensorHealthProvider/FootChecks.h"
#include "Modules/Sensing/SensorHealthProvider/InertialChecks.h"
#include "Modules/Sensing/SensorHealthProvider/JointChecks.h"
#include "Modules/Sensing/SensorHealthProvider/SensorHealthParameters.h"
#include "Representations/Infrastructure/BatteryData.h"
#include "Representations/Infrastructure/FrameInfo.h"
#include "Representations/Modeling/RobotModel.h"
#include "Representations/MotionControl/JointRequest.h"
#include "Representations/Sensing/FsrSensorData.h"
#include "Representations/Sensing/InertialSensorData.h"
#include "Representations/Sensing/JointSensorData.h"
#include "Representations/Sensing/SensorHealth.h"
#include "Representations/Sensing/TouchData.h"
#include "Representations/Sensing/UnreadableReadings.h"

namespace nao
{
class SensorHealthProvider
    : public Module<SensorHealthProvider,
                    Requires<FrameInfo, JointSensorData, FsrSensorData, InertialSensorData, BatteryData,
                             TouchData, UnreadableReadings, RobotModel>,
                    Uses<JointRequest>, // last frame's: where the motors were driven (a reading must follow)
                    Provides<SensorHealth>, Parameters<SensorHealthParameters>>
{
public:
  using Module::Module;
  void update(SensorHealth& health);

private:
  void judge(SensorHealth& health, SensorCheck& check, SensorJudge& judge, const Finding& finding,
             double now);

  InertialChecks inertial_;
  FootChecks feet_;
  BatteryCheck battery_;
  ButtonCheck button_;
  JointChecks joints_;
  EnumArray<Sensor, SensorJudge, numOfSensors> sensorJudges_{};
  JointArray<SensorJudge> jointJudges_{};
  double lastTime_ = 0; ///< s, last frame's FrameInfo time
  bool seen_ = false;
};
} // namespace nao
