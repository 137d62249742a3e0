#pragma once
// How far each sensor can be trusted (SensorHealthProvider): valid, suspect or failed, why, and since when. A
// decision that moves the robot rests only on trusted sensors and needs an independent witness; a value that cannot
// be trusted costs only itself. Also the battery's charge as the robot believes it: the reading while it agrees
// with the battery's current, else counted from that current since the last reading that did.
#include "Representations/Infrastructure/Joints.h"
#include "Tools/Containers/EnumArray.h"
#include "Tools/Streams/Enum.h"
#include "Tools/Streams/Field.h"
#include <cstdint>

namespace nao
{
NAO_ENUM(SensorState, std::uint8_t,
         valid,   ///< its readings agree with physics and with the other sensors
         suspect, ///< a check failed lately: no decision rests on it
         failed,  ///< wrong for longer than a glitch: left out until it agrees again for a while
);

/// Why a sensor is not valid: the check that failed last.
NAO_ENUM(
    SensorFault, std::uint8_t, none,
    notFinite,   ///< NaN or infinite (the body repeats the last good value)
    outOfRange,  ///< beyond what the sensor can measure (a gyroscope above its range, a negative FSR)
    stuck,       ///< the very same reading for longer than its noise allows
    jump,        ///< changed faster than physics allows (a charge that fell by more than its current drew)
    disagrees,   ///< contradicts an independent sensor (the gyroscope the accelerometer's direction)
    heldTooLong, ///< a button pressed longer than any press: stuck, or held down by the ground
    flapping, ///< changes more often than the quantity can (a temperature status 0 ↔ 3, a bouncing button)
    notFollowing ///< a joint's reading stays put while its stiff motor's request moved (a stuck encoder)
);

/// The sensors judged as one unit each (the joints' readings are judged per joint).
NAO_ENUM(Sensor, std::uint8_t,
         gyroscope,     ///< LoLA Gyroscope
         accelerometer, ///< LoLA Accelerometer
         imuAngles,     ///< LoLA Angles: the IMU board's own roll and pitch
         leftFsr,       ///< the left sole's four FSRs
         rightFsr,      ///< the right sole's four FSRs
         battery,       ///< LoLA Battery: charge and current
         chestButton,   ///< LoLA Touch 0
);
inline constexpr std::size_t numOfSensors = streams::enumCount<Sensor>;

struct SensorCheck
{
  SensorState state = SensorState::valid;
  SensorFault fault = SensorFault::none; ///< why, while not valid
  float since = 0.f;                     ///< s, FrameInfo time when `state` or `fault` last changed
  bool usable = true; ///< this frame's value may be used: readable, within range, and the sensor not failed

  /// Valid and usable this frame: a decision that moves the robot may rest on it.
  bool trusted() const { return state == SensorState::valid && usable; }
  /// No fault confirmed or suspected over time; this frame's value may still be a glitch (kept at its last good
  /// value where it was unreadable). What holds over frames (a contact model, a sensor's trust flag) rests on this:
  /// a one-frame glitch (an impact beyond the FSRs' range) costs only that value.
  bool valid() const { return state == SensorState::valid; }

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& BOOST_SERIALIZATION_NVP(state) & BOOST_SERIALIZATION_NVP(fault) &
        streams::field("since", since).unit(streams::Unit::seconds) & BOOST_SERIALIZATION_NVP(usable);
  }
};

struct SensorHealth
{
  EnumArray<Sensor, SensorCheck, numOfSensors> sensors; ///< per sensor
  JointArray<SensorCheck> joints; ///< each joint's readings (angle, current, temperature, status)
  /// 0..1, the charge the robot believes: the reading while it agrees with the battery's current, else the last
  /// reading that did, less what the current drew since.
  float batteryCharge = 1.f;
  std::uint32_t changes = 0; ///< how often a state or fault changed since the start

  SensorCheck& operator[](Sensor sensor) { return sensors[sensor]; }
  const SensorCheck& operator[](Sensor sensor) const { return sensors[sensor]; }

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& BOOST_SERIALIZATION_NVP(sensors) & BOOST_SERIALIZATION_NVP(joints) &
        BOOST_SERIALIZATION_NVP(batteryCharge) & BOOST_SERIALIZATION_NVP(changes);
  }
};
} // namespace nao
