#pragma once
// Every number of SensorHealthProvider: how far each sensor can be trusted. The defaults are declared here;
// Config/Modules/SensorHealthProvider.toml holds only values that differ. Code holds SI units; the file holds degrees
// where people think in them. Every number is a physical bound or a time a glitch cannot last; none is fitted to a
// plant. README.md of this folder says where each number comes from.
#include "Tools/Streams/Field.h"
#include <numbers>

namespace nao
{
struct SensorHealthParameters
{
  static constexpr float degree = std::numbers::pi_v<float> / 180.f;

  // Every sensor: how long a fault must last to count as failed, how long clean to count as valid again.
  float failAfter = 1.f;
  float recoverAfter = 2.f;
  int stuckFrames = 10; // 120 ms of 12 ms frames
  float gravity = 9.81f;
  // Inertial unit.
  float maxGyro = 8.7f; // about 500 deg/s, the gyroscope's range (InertialDataFilter's README)
  float gyroWindow = 0.5f;
  float gyroMismatch = 0.1f;
  float stillAccelerationOff = 0.3f;
  float maxAcceleration = 100.f;
  float accelerationOff = 5.f;
  float accelerationOffTime = 1.f;
  float soleMismatch = 0.15f; // about 9 deg
  float levelSoles = 2.f * degree;
  float supportWeight = 1.f;
  float standingShare = 0.7f;
  float restAccelerationOff = 0.3f;
  float restGyro = 0.1f;
  float restTime = 1.f;
  // Feet.
  float minFsrReading = -0.1f; // as StaticTorqueProvider's minimumReading
  float maxFsrReading = 10.f;  // the sensor's range: 0-25 N per sensor (NaoFacts.md)
  // Battery.
  float batteryCapacity = 2.9f;  // NAO6 datasheet: Li-ion, 21.6 V / 2.9 Ah
  float chargeTolerance = 0.02f; // the gauge's step (1 %) and its rounding
  float largeChargeJump = 0.1f;
  float chargeSettleTime = 60.f;
  // Chest button.
  float maxPressTime = 3.f;
  int buttonFlaps = 6;
  // Joints.
  int statusFlaps = 4;
  float statusFlapTime = 2.f;
  float temperatureJump = 10.f;
  float followAngle = 6.f * degree;
  float followTime = 0.5f;
  float followStiffness = 0.3f;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    serializeTiming(ar);
    serializeInertialUnit(ar);
    serializeFeet(ar);
    serializeBatteryAndButton(ar);
    serializeJoints(ar);
  }

  /// When a fault counts as failed and when a sensor counts as valid again.
  template<class Archive>
  void serializeTiming(Archive& ar)
  {
    using streams::field;
    using streams::Unit;
    ar& field("failAfter", failAfter)
        .unit(Unit::seconds)
        .range(0.0, 60.0)
        .doc("a sensor whose check keeps failing this long (or that is unreadable this long) has failed");
    ar& field("recoverAfter", recoverAfter)
        .unit(Unit::seconds)
        .range(0.0, 600.0)
        .doc("a suspect or failed sensor is valid again after this long without a failed check");
    ar& field("stuckFrames", stuckFrames)
        .range(2, 1000)
        .doc("frames of the very same reading of a noisy sensor (gyroscope, accelerometer, Angles, a foot's "
             "FSRs) that mean stuck");
  }

  /// The inertial unit.
  template<class Archive>
  void serializeInertialUnit(Archive& ar)
  {
    using streams::field;
    using streams::Unit;
    ar& field("gravity", gravity).unit(Unit::metersPerSecondSquared).range(9.7, 9.9).doc("g");
    ar& field("maxGyro", maxGyro)
        .unit(Unit::radiansPerSecond)
        .range(1.0, 100.0)
        .doc("a larger gyroscope reading is beyond its range (about 500 deg/s)");
    ar& field("gyroWindow", gyroWindow)
        .unit(Unit::seconds)
        .range(0.05, 10.0)
        .doc("the gyroscope is compared with the accelerometer's direction over windows this long");
    ar& field("gyroMismatch", gyroMismatch)
        .unit(Unit::radians)
        .range(0.001, 1.0)
        .doc("over a window in which the accelerometer stays steady, the gyroscope may integrate a turn "
             "about horizontal axes of this much (0.2 rad/s over 0.5 s: twice the bias the orientation "
             "filter estimates)");
    ar& field("stillAccelerationOff", stillAccelerationOff)
        .unit(Unit::metersPerSecondSquared)
        .range(0.01, 10.0)
        .doc("a window counts for the gyroscope's check when every accelerometer reading stays within this "
             "of the window's first and its norm within this of g (a steady torso)");
    ar& field("maxAcceleration", maxAcceleration)
        .unit(Unit::metersPerSecondSquared)
        .range(10.0, 1000.0)
        .doc("a larger accelerometer component is beyond its range");
    ar& field("accelerationOff", accelerationOff)
        .unit(Unit::metersPerSecondSquared)
        .range(0.1, 100.0)
        .doc("an accelerometer norm farther than this from g ...");
    ar& field("accelerationOffTime", accelerationOffTime)
        .unit(Unit::seconds)
        .range(0.0, 60.0)
        .doc("... for this long is no robot's motion (a fall's free flight lasts less)");
  }

  /// The feet.
  template<class Archive>
  void serializeFeet(Archive& ar)
  {
    using streams::field;
    using streams::Unit;
    ar& field("soleMismatch", soleMismatch)
        .unit(Unit::radians)
        .range(0.001, 1.0)
        .doc("at rest on both feet, the accelerometer's mean and LoLA's Angles may differ from the floor the "
             "soles stand on (the legs' kinematics) by this (joint calibration, a floor that is not level)");
    ar& field("levelSoles", levelSoles)
        .unit(Unit::degrees)
        .range(0.1, 45.0)
        .doc("the soles stand on one floor when their up directions differ by less than this");
    ar& field("supportWeight", supportWeight)
        .unit(Unit::kilograms)
        .range(0.1, 10.0)
        .doc("a foot whose trusted FSRs read more stands on the floor ...");
    ar& field("standingShare", standingShare)
        .range(0.0, 2.0)
        .doc("... and the robot on its feet when both together carry this share of its weight");
    ar& field("restAccelerationOff", restAccelerationOff)
        .unit(Unit::metersPerSecondSquared)
        .range(0.0, 10.0)
        .doc("at rest: the accelerometer's norm, and each reading's distance from their mean, within this of "
             "g ...");
    ar& field("restGyro", restGyro)
        .unit(Unit::radiansPerSecond)
        .range(0.0, 10.0)
        .doc("... and a trusted gyroscope slower than this ...");
    ar& field("restTime", restTime)
        .unit(Unit::seconds)
        .range(0.05, 60.0)
        .doc("... for this long; then the accelerometer's mean over it and LoLA's Angles are compared with "
             "the soles' floor");
    ar& field("minFsrReading", minFsrReading)
        .unit(Unit::kilograms)
        .range(-10.0, 0.0)
        .doc("an FSR reading below this is no load (a sensor cannot pull the sole)");
    ar& field("maxFsrReading", maxFsrReading)
        .unit(Unit::kilograms)
        .range(0.1, 100.0)
        .doc("an FSR reading above this is beyond its range (0-25 N per sensor)");
  }

  /// The battery and the chest button.
  template<class Archive>
  void serializeBatteryAndButton(Archive& ar)
  {
    using streams::field;
    using streams::Unit;
    ar& field("batteryCapacity", batteryCapacity)
        .range(0.1, 100.0)
        .doc("A·h: what the battery's current draws from the charge (NAO6 datasheet: 2.9 Ah)");
    ar& field("chargeTolerance", chargeTolerance)
        .range(0.0, 1.0)
        .doc("0..1: a charge reading this close to the charge counted from the current agrees with it");
    ar& field("largeChargeJump", largeChargeJump)
        .range(0.0, 1.0)
        .doc("0..1: a reading that jumped by more than this from the counted charge is never believed again "
             "until it comes back");
    ar& field("chargeSettleTime", chargeSettleTime)
        .unit(Unit::seconds)
        .range(0.0, 3600.0)
        .doc("a smaller jump is taken as the gauge's new level once the reading has changed only as its "
             "current allows for this long");
    ar& field("maxPressTime", maxPressTime)
        .unit(Unit::seconds)
        .range(0.1, 60.0)
        .doc("the chest button held longer is no press but stuck or held down (a 3 s hold asks for a "
             "shutdown: Nao Devils' ndevilsbase)");
    ar& field("buttonFlaps", buttonFlaps)
        .range(2, 32)
        .doc("the chest button changing this often within one second bounces");
  }

  /// The joints.
  template<class Archive>
  void serializeJoints(Archive& ar)
  {
    using streams::field;
    using streams::Unit;
    ar& field("statusFlaps", statusFlaps)
        .range(2, 16)
        .doc("a joint's temperature status changing this often ...");
    ar& field("statusFlapTime", statusFlapTime)
        .unit(Unit::seconds)
        .range(0.01, 600.0)
        .doc("... within this long flaps (a winding's temperature cannot)");
    ar& field("temperatureJump", temperatureJump)
        .unit(Unit::kelvins)
        .range(0.1, 200.0)
        .doc("a joint's temperature changing by more than this in one frame jumps (a winding cannot)");
    ar& field("followAngle", followAngle)
        .unit(Unit::degrees)
        .range(0.1, 90.0)
        .doc("a stiff joint's request that moved this far while its reading did not change at all ...");
    ar& field("followTime", followTime)
        .unit(Unit::seconds)
        .range(0.01, 60.0)
        .doc("... for this long: the reading does not follow (a stuck encoder)");
    ar& field("followStiffness", followStiffness)
        .range(0.0, 1.0)
        .doc("a joint is stiff for the follow check from this requested stiffness on");
  }
};
} // namespace nao
