#pragma once
// Config/Sim/robots.toml: how simulated robots differ. Each run draws one robot from these distributions with
// its seed; presets (e.g. "worn") change the draw for some joints. The values live only in the file, with their
// sources; every member here starts at zero or empty (PlantValuesLiveOnlyInConfigSim).
#include "Tools/Streams/Enum.h"
#include "Tools/Streams/Field.h"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nao::sim
{
NAO_ENUM(
    Law, std::uint8_t,
    fixed,     ///< always `center`
    normal,    ///< mean `center`, standard deviation `spread`
    uniform,   ///< between center − spread and center + spread
    lognormal, ///< median `center`, standard deviation of the logarithm `spread`: factors that stay positive
);

/// One random quantity; its unit is stated where it is used.
struct Distribution
{
  Law law = Law::fixed;
  double center = 0.0;
  double spread = 0.0;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    ar& field("law", law);
    ar& field("center", center).range(-1e6, 1e6);
    ar& field("spread", spread).range(0.0, 1e6);
  }
};

/// Changes a preset makes for some joint kinds: factors on what was drawn.
struct RobotPreset
{
  std::string name;
  std::vector<std::string> driveKinds; ///< e.g. "KneePitch": both sides
  double staticFriction = 0.0;         ///< factor
  double slidingFriction = 0.0;        ///< factor
  double backlash = 0.0;               ///< factor

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    ar& field("name", name);
    ar& field("driveKinds", driveKinds);
    ar& field("staticFriction", staticFriction).range(0.0, 10.0);
    ar& field("slidingFriction", slidingFriction).range(0.0, 10.0);
    ar& field("backlash", backlash).range(0.0, 100.0);
  }
};

/// Per joint unless stated. Factors multiply the nominal value of motors.toml.
struct RobotDistributions
{
  Distribution positionOffset;     ///< counts of the LoLA position reading: its calibration against the board
  Distribution currentOffset;      ///< mA: the offset of the board's current measurement
  Distribution staticFriction;     ///< factor
  Distribution slidingFriction;    ///< factor
  Distribution backlash;           ///< factor
  Distribution torqueConstant;     ///< factor, per motor
  Distribution terminalResistance; ///< factor, per motor
  Distribution thermalResistance;  ///< factor on winding-to-case and case-to-air, per motor
  Distribution heatCapacity;       ///< factor on winding and case capacity, per motor
  /// Per robot: °C of the room around it (motors.toml roomTemperature is the nominal robot's).
  Distribution roomTemperature;
  /// Per robot: K above its room that everything inside starts at (a robot started warm, after a previous half);
  /// a draw below 0 starts it at the room.
  Distribution startRise;
  std::vector<RobotPreset> presets;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    ar& field("positionOffset", positionOffset);
    ar& field("currentOffset", currentOffset);
    ar& field("staticFriction", staticFriction);
    ar& field("slidingFriction", slidingFriction);
    ar& field("backlash", backlash);
    ar& field("torqueConstant", torqueConstant);
    ar& field("terminalResistance", terminalResistance);
    ar& field("thermalResistance", thermalResistance);
    ar& field("heatCapacity", heatCapacity);
    ar& field("roomTemperature", roomTemperature);
    ar& field("startRise", startRise);
    ar& field("presets", presets);
  }
};
} // namespace nao::sim
