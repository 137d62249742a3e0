#pragma once
// Config/Sim/sensors.toml: how the simulated NAO's readings differ from the simulated truth — resolution,
// noise and hysteresis of what LoLA sends. Per-robot calibration offsets are drawn from robots.toml. Code
// holds SI units; the file may use mA and degrees as stated per field. The values live only in the file, with
// their sources; every member here starts at zero (PlantValuesLiveOnlyInConfigSim).
#include "Tools/Streams/Field.h"

namespace nao::sim
{
/// LoLA's Position: the joint's magnetic encoder as the robot reads it. Values: sensors.toml [position].
struct PositionReadingParameters
{
  int bits = 0;            ///< 2^bits counts per turn
  double noise = 0.0;      ///< counts, standard deviation per reading
  double hysteresis = 0.0; ///< counts: a reading switches back only after this much motion

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    ar& field("bits", bits).range(4, 24);
    ar& field("noise", noise).range(0.0, 100.0);
    ar& field("hysteresis", hysteresis).range(0.0, 10.0);
  }
};

/// LoLA's Current: the board's measurement of the motor current, averaged over a LoLA frame. Values:
/// sensors.toml [current].
struct CurrentReadingParameters
{
  double noise = 0.0;      ///< A, standard deviation per reading (file: mA)
  double resolution = 0.0; ///< A per step of the reading; 0: continuous (file: mA)

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    using streams::Unit;
    ar& field("noise", noise).unit(Unit::milliamperes).range(0.0, 1000.0);
    ar& field("resolution", resolution).unit(Unit::milliamperes).range(0.0, 1000.0);
  }
};

/// LoLA's Temperature. Values: sensors.toml [temperature].
struct TemperatureReadingParameters
{
  double resolution = 0.0; ///< °C per step of the reading; 0: continuous

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& streams::field("resolution", resolution).range(0.0, 10.0);
  }
};

/// Inertial unit and force sensitive resistors. Values: sensors.toml [body].
struct BodySensorParameters
{
  double accelerometerNoise = 0.0; ///< m/s², standard deviation per reading and axis
  double gyroscopeNoise = 0.0;     ///< rad/s, standard deviation per reading and axis (file: deg/s)
  double angleNoise = 0.0;         ///< rad, standard deviation of the IMU's roll and pitch (file: deg)
  double fsrNoise = 0.0;           ///< kg, standard deviation per FSR reading

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    using streams::Unit;
    ar& field("accelerometerNoise", accelerometerNoise).range(0.0, 10.0);
    ar& field("gyroscopeNoise", gyroscopeNoise).unit(Unit::degrees).range(0.0, 100.0);
    ar& field("angleNoise", angleNoise).unit(Unit::degrees).range(0.0, 10.0);
    ar& field("fsrNoise", fsrNoise).range(0.0, 1.0);
  }
};

/// All of sensors.toml.
struct SensorParameters
{
  PositionReadingParameters position;
  CurrentReadingParameters current;
  TemperatureReadingParameters temperature;
  BodySensorParameters body;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    ar& field("position", position);
    ar& field("current", current);
    ar& field("temperature", temperature);
    ar& field("body", body);
  }
};
} // namespace nao::sim
