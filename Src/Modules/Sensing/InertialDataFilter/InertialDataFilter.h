#pragma once
// The torso's orientation and angular velocity (InertialData) from the IMU (InertialSensorData): an error-state
// Kalman filter on orientation and gyroscope bias (Tools/Inertial/OrientationFilter.h), the accelerometer a gravity
// measurement weighted down when its norm departs from g, and each support sole's tilt (the leg's kinematics, its
// offset learned while the robot rests) a second measurement a swaying torso does not disturb. A sensor that
// SensorHealth distrusts is left out: without the gyroscope the filter predicts no turn with a wide uncertainty and
// follows the accelerometer and the soles; without the accelerometer it integrates the gyroscope. A bad frame (an
// implausible reading, a frame time that does not advance, readings identical to the last frame's) changes nothing
// but `valid`. No allocation.
// README.md of this folder: the filter, where each noise figure comes from, the figures in the simulator.
#include "Framework/Module.h"
#include "Representations/Infrastructure/FrameInfo.h"
#include "Representations/Modeling/RobotModel.h"
#include "Representations/Sensing/FsrSensorData.h"
#include "Representations/Sensing/InertialData.h"
#include "Representations/Sensing/InertialSensorData.h"
#include "Representations/Sensing/SensorHealth.h"
#include "Tools/Inertial/OrientationFilter.h"
#include "Tools/Inertial/SoleTilt.h"
#include <array>

namespace nao
{
// The defaults; Config/Modules/InertialDataFilter.toml holds only values that differ. The NAO V6's IMU noise is not
// public: the numbers are assumptions of a typical MEMS IMU and of the torso's own motion (README.md).
struct InertialDataFilterParameters
{
  // rad/s: a MEMS gyroscope's 0.1-0.3 deg/s of noise per 12 ms reading (83 Hz), with margin.
  float gyroNoise = 0.005f;
  float gyroBiasDrift = 1e-4f;
  // m/s²: the sensor's own noise (0.01-0.05 m/s²) and the standing torso's small accelerations.
  float accNoise = 0.1f;
  // More than 1 per m/s²: the norm's departure from g shows only the part of the torso's acceleration along g.
  float accMotionNoise = 5.f;
  float accGate = 3.f; // about a third of g: a norm this far off is a push's, a step's or an impact's peak
  float gravity = 9.81f;
  float initialTiltStdDev = 0.05f;
  float initialBiasStdDev = 0.02f; // about 1 deg/s: a MEMS gyroscope's turn-on bias
  float maxBias = 0.1f;
  float maxFrameGap = 0.1f;
  // The support soles' tilt (README.md, "The soles"): a second measurement of the tilt while a foot stands flat.
  float supportWeight = 1.f;
  float footNoise = 0.01f;    // about 0.6 deg
  float footGate = 0.05f;     // about 3 deg
  float blindFootGate = 0.5f; // about 29 deg
  float footOffsetTime = 10.f;
  float restGyro = 0.05f;
  float restAccelerationOff = 0.2f;
  float unseenTurnRate = 1.f;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::Unit;
    ar& streams::field("gyroNoise", gyroNoise)
        .unit(Unit::radiansPerSecond)
        .range(1e-5, 1.0)
        .doc("standard deviation of one gyroscope reading (not public for the NAO V6: README)");
    ar& streams::field("gyroBiasDrift", gyroBiasDrift)
        .range(0.0, 0.1)
        .doc("rad/s/sqrt(s), random walk of the gyroscope's bias");
    ar& streams::field("accNoise", accNoise)
        .unit(Unit::metersPerSecondSquared)
        .range(0.001, 20.0)
        .doc("standard deviation of the gravity measurement at rest, the torso's sway included");
    ar& streams::field("accMotionNoise", accMotionNoise)
        .range(0.0, 100.0)
        .doc("m/s² of deviation added per m/s² the accelerometer's norm is off g (motion, impacts)");
    ar& streams::field("accGate", accGate)
        .unit(Unit::metersPerSecondSquared)
        .range(0.01, 100.0)
        .doc("an accelerometer norm farther than this from g is no gravity measurement");
    ar& streams::field("gravity", gravity).unit(Unit::metersPerSecondSquared).range(9.7, 9.9).doc("g");
    ar& streams::field("initialTiltStdDev", initialTiltStdDev)
        .unit(Unit::radians)
        .range(0.001, 1.0)
        .doc("of roll and pitch at the start (from the accelerometer)");
    ar& streams::field("initialBiasStdDev", initialBiasStdDev)
        .unit(Unit::radiansPerSecond)
        .range(0.0001, 1.0)
        .doc("of each gyroscope bias component at the start");
    ar& streams::field("maxBias", maxBias)
        .unit(Unit::radiansPerSecond)
        .range(0.001, 1.0)
        .doc("the bias estimate is kept within ±this per axis");
    ar& streams::field("maxFrameGap", maxFrameGap)
        .unit(Unit::seconds)
        .range(0.012, 10.0)
        .doc("the gyroscope is integrated over this much at most (a stalled process)");
    ar& streams::field("supportWeight", supportWeight)
        .unit(Unit::kilograms)
        .range(0.1, 10.0)
        .doc("a foot whose FSRs read more stands flat on the floor: its sole's tilt is a measurement");
    ar& streams::field("footNoise", footNoise)
        .unit(Unit::radians)
        .range(0.001, 1.0)
        .doc("standard deviation of the up direction a support sole gives, its offset learned (an "
             "assumption)");
    ar& streams::field("footGate", footGate)
        .unit(Unit::radians)
        .range(0.001, 1.0)
        .doc("a sole's up direction farther than this from the filter's is no measurement (a rocking foot, a "
             "fall)");
    ar& streams::field("blindFootGate", blindFootGate)
        .unit(Unit::radians)
        .range(0.001, 1.5)
        .doc("... and this while the accelerometer is distrusted: the soles are then the only up there is, "
             "and may "
             "pull an estimate the accelerometer's fault had turned back");
    ar& streams::field("footOffsetTime", footOffsetTime)
        .unit(Unit::seconds)
        .range(0.1, 600.0)
        .doc("each sole's offset from the filter is learned with this time constant while the robot rests on "
             "both "
             "feet, and used once it has been learned this long");
    ar& streams::field("restGyro", restGyro)
        .unit(Unit::radiansPerSecond)
        .range(0.0, 10.0)
        .doc("the robot rests: both feet support, the angular speed is below this ...");
    ar& streams::field("restAccelerationOff", restAccelerationOff)
        .unit(Unit::metersPerSecondSquared)
        .range(0.0, 10.0)
        .doc("... and the accelerometer's norm is within this of g");
    ar& streams::field("unseenTurnRate", unseenTurnRate)
        .unit(Unit::radiansPerSecond)
        .range(0.01, 100.0)
        .doc("while the gyroscope is distrusted: the standard deviation of the torso's turn the filter "
             "cannot see "
             "(the accelerometer and the soles then carry the tilt)");
  }
};

class InertialDataFilter
    : public Module<InertialDataFilter,
                    Requires<FrameInfo, InertialSensorData, RobotModel, FsrSensorData, SensorHealth>,
                    Provides<InertialData>, Parameters<InertialDataFilterParameters>>
{
public:
  using Module::Module;
  void update(InertialData& data);

private:
  void onParametersChanged() override { configured_ = false; }
  /// The support soles' tilt as measurements (learning their offsets while the robot rests); which soles were used.
  std::array<bool, 2> useSoles(const Eigen::Vector3d& rate, const Eigen::Vector3d& accelerometer, double dt);

  bool configured_ = false;
  inertial::ImuNoise noise_;
  inertial::ImuNoise blindNoise_; ///< noise_ with unseenTurnRate for the gyroscope: predicting without it
  inertial::OrientationFilter filter_;
  std::array<inertial::SoleTilt, 2> soles_; ///< left, right
  bool seen_ = false;                       ///< a frame was read before (lastTime_, lastReadings_ hold it)
  double lastTime_ = 0;                     ///< s, FrameInfo time of the last good frame
  std::array<float, 6> lastReadings_{};     ///< gyroscope and accelerometer of the last good frame
};
} // namespace nao
