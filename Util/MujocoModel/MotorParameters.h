#pragma once
// Config/Sim/motors.toml: the nominal motor boards, motors, gears and their heat. Every robot differs from
// these values as drawn from Config/Sim/robots.toml (Util/Simulator/Physics/RobotVariation.h). Code holds SI
// units (rad, A, s, N·m, W, °C); the file may use deg, mA and ms as stated per field. The values live only in
// the file, with their sources; every member here starts at zero (PlantValuesLiveOnlyInConfigSim).
#include "Representations/Infrastructure/Joints.h"
#include "Tools/Containers/EnumArray.h"
#include "Tools/Streams/Enum.h"
#include "Tools/Streams/Field.h"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace nao::sim
{
/// A joint without its side: every LoLA joint of one kind has the same drive (motors.md §2). Its names are the
/// LoLA joints' without the L or R.
NAO_ENUM(DriveKind, std::uint8_t, HeadYaw, HeadPitch, ShoulderPitch, ShoulderRoll, ElbowYaw, ElbowRoll,
         WristYaw, Hand, HipYawPitch, HipRoll, HipPitch, KneePitch, AnklePitch, AnkleRoll);
inline constexpr std::size_t numOfDriveKinds = streams::enumCount<DriveKind>;
/// The kind of a LoLA joint: its name without the L/R prefix.
DriveKind driveKindOf(Joint joint);
/// The kind with this name; -1 if there is none.
int findDriveKind(std::string_view name);

/// The motor types of the datasheet (motors.md §1); DriveParameters::motorType numbers them from 1.
NAO_ENUM(MotorType, std::uint8_t, type1, type2, type3, type4, type5);
inline constexpr std::size_t numOfMotorTypes = streams::enumCount<MotorType>;

/// One motor type of the NAO6 datasheet (motors.md §1) with the electrical, mechanical and thermal values the
/// simulation needs. Values the datasheet lacks are chosen and justified in motors.toml ([motorTypes]).
struct MotorTypeParameters
{
  std::string model;
  double torqueConstant = 0.0;     ///< N·m/A at the motor shaft; equals the back-EMF constant in V·s/rad
  double terminalResistance = 0.0; ///< Ω, winding resistance (heats with I²R)
  double rotorInertia = 0.0;       ///< kg·m² at the motor shaft; × ratio² at the joint
  double gearEfficiency = 0.0;     ///< output torque / (ratio × motor torque)
  double positionGain = 0.0;       ///< V/rad: board voltage per rad of joint position error
  double derivativeGain = 0.0;     ///< V·s/rad: board voltage per rad/s of the joint's speed (damping)
  double windingCapacity = 0.0;    ///< J/K, heat capacity of the winding
  double windingToCase = 0.0;      ///< K/W, thermal resistance winding -> case
  double caseCapacity = 0.0;       ///< J/K, heat capacity of case and gear housing
  double caseToAir = 0.0;          ///< K/W, thermal resistance case -> air inside the robot

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    ar& field("model", model);
    ar& field("torqueConstant", torqueConstant).range(1e-4, 1.0);
    ar& field("terminalResistance", terminalResistance).range(0.01, 1000.0);
    ar& field("rotorInertia", rotorInertia).range(1e-12, 1e-3);
    ar& field("gearEfficiency", gearEfficiency).range(0.05, 1.0);
    ar& field("positionGain", positionGain).range(0.0, 1e6);
    ar& field("derivativeGain", derivativeGain).range(0.0, 1e4);
    ar& field("windingCapacity", windingCapacity).range(0.01, 1e4);
    ar& field("windingToCase", windingToCase).range(0.01, 1e3);
    ar& field("caseCapacity", caseCapacity).range(0.01, 1e5);
    ar& field("caseToAir", caseToAir).range(0.01, 1e3);
  }
};

/// The drive of one joint kind (motors.md §2): motor, gear train and its friction and play. Values: motors.toml
/// [drives].
struct DriveParameters
{
  int motorType = 0;            ///< 1..5
  double gearRatio = 0.0;       ///< motor turns per joint turn
  double maxTorque = 0.0;       ///< N·m at the joint for stiffness 1
  double staticFriction = 0.0;  ///< N·m at the joint: a stuck gear train holds loads up to this
  double slidingFriction = 0.0; ///< N·m at the joint while the gear train slides (below static: stick-slip)
  double backlash = 0.0;        ///< rad of play between the gear train and the joint (file: deg)
  double bearingFriction = 0.0; ///< N·m on the joint while the play is open (no gear tooth touches)

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    using streams::Unit;
    ar& field("motorType", motorType).range(1, 5);
    ar& field("gearRatio", gearRatio).range(1.0, 10000.0);
    ar& field("maxTorque", maxTorque).range(0.0, 100.0);
    ar& field("staticFriction", staticFriction).range(0.0, 100.0);
    ar& field("slidingFriction", slidingFriction).range(0.0, 100.0);
    ar& field("backlash", backlash).unit(Unit::degrees).range(0.0, 10.0);
    ar& field("bearingFriction", bearingFriction).range(0.0, 10.0);
  }
};

/// The motor board: its own angle sensor and position loop (shared by all joints). Values: motors.toml [board].
struct BoardParameters
{
  int positionBits = 0;            ///< the board's joint angle: 2^bits counts per turn
  double positionNoise = 0.0;      ///< counts, standard deviation of the board's angle per sample
  double positionHysteresis = 0.0; ///< counts: the board's count switches back only after this much motion
  double speedWindow = 0.0;        ///< s: the board's speed is its angle's change over this time (file: ms)
  double stictionSpeed =
      0.0; ///< rad/s: a slower gear train is stuck and holds the static friction (file: deg/s)
  double electronicsPower = 0.0; ///< W dissipated by each motor board, into its motor's housing

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    using streams::Unit;
    ar& field("positionBits", positionBits).range(8, 24);
    ar& field("positionNoise", positionNoise).range(0.0, 100.0);
    ar& field("positionHysteresis", positionHysteresis).range(0.0, 10.0);
    ar& field("speedWindow", speedWindow).unit(Unit::milliseconds).range(1.0, 100.0);
    ar& field("stictionSpeed", stictionSpeed).unit(Unit::degrees).range(0.0, 100.0);
    ar& field("electronicsPower", electronicsPower).range(0.0, 10.0);
  }
};

/// Temperature status as LoLA reports it (motors.md §5): 0 normal, 1 hot, 2 very hot, 3 critical. A status is
/// entered at its "From" temperature and left below its "Below" temperature (hysteresis). Values: motors.toml
/// [temperatureStatus].
struct TemperatureStatusParameters
{
  double hotFrom = 0.0;       ///< °C
  double hotBelow = 0.0;      ///< °C, status 1 -> 0
  double veryHotFrom = 0.0;   ///< °C
  double veryHotBelow = 0.0;  ///< °C, status 2 -> 1
  double criticalFrom = 0.0;  ///< °C
  double criticalBelow = 0.0; ///< °C, status 3 -> 2

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    ar& field("hotFrom", hotFrom).range(0.0, 200.0);
    ar& field("hotBelow", hotBelow).range(0.0, 200.0);
    ar& field("veryHotFrom", veryHotFrom).range(0.0, 200.0);
    ar& field("veryHotBelow", veryHotBelow).range(0.0, 200.0);
    ar& field("criticalFrom", criticalFrom).range(0.0, 200.0);
    ar& field("criticalBelow", criticalBelow).range(0.0, 200.0);
  }
};

/// What the motor board does to the torque limit per status (fractions of stiffness × maximum torque). Values:
/// motors.toml [firmwareProtection].
struct FirmwareProtectionParameters
{
  double hotLimitStart = 0.0; ///< status 1 at hotFrom; falls linearly to hotLimitEnd at veryHotFrom
  double hotLimitEnd = 0.0;   ///< status 1 at veryHotFrom
  double veryHotLimit = 0.0;  ///< status 2 ("reduced by more than 30 %")
  double criticalLimit = 0.0; ///< status 3 ("set to 0")

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    ar& field("hotLimitStart", hotLimitStart).range(0.0, 1.0);
    ar& field("hotLimitEnd", hotLimitEnd).range(0.0, 1.0);
    ar& field("veryHotLimit", veryHotLimit).range(0.0, 1.0);
    ar& field("criticalLimit", criticalLimit).range(0.0, 1.0);
  }
};

/// The air and shells inside the robot: warmed by the motors and the electronics, cooled by the room. Values:
/// motors.toml [bodyAir].
struct BodyAirParameters
{
  double heatCapacity = 0.0; ///< J/K
  double toRoom = 0.0;       ///< K/W, thermal resistance to the room
  double basePower = 0.0;    ///< W from electronics in the body other than the motor boards

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    ar& field("heatCapacity", heatCapacity).range(1.0, 1e6);
    ar& field("toRoom", toRoom).range(0.001, 1e3);
    ar& field("basePower", basePower).range(0.0, 1000.0);
  }
};

/// The battery pack. Values: motors.toml [battery].
struct BatteryParameters
{
  double capacity = 0.0;           ///< A·h
  double initialCharge = 0.0;      ///< 0..1
  double baseLoad = 0.0;           ///< A drawn by head, boards and sensors besides the motors (file: mA)
  double internalResistance = 0.0; ///< Ω, heats the pack with I²R
  double heatCapacity = 0.0;       ///< J/K
  double thermalResistance = 0.0;  ///< K/W, pack -> room

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    using streams::Unit;
    ar& field("capacity", capacity).range(0.01, 100.0);
    ar& field("initialCharge", initialCharge).range(0.0, 1.0);
    ar& field("baseLoad", baseLoad).unit(Unit::milliamperes).range(0.0, 100000.0);
    ar& field("internalResistance", internalResistance).range(0.0, 10.0);
    ar& field("heatCapacity", heatCapacity).range(1.0, 1e6);
    ar& field("thermalResistance", thermalResistance).range(0.01, 1e3);
  }
};

/// Tables keyed by names: the TOML archive reads them as `[table] name = value` (or `[table.name]`).
using MotorTypeTable = EnumArray<MotorType, MotorTypeParameters, numOfMotorTypes>;
using DriveTable = EnumArray<DriveKind, DriveParameters, numOfDriveKinds>;

/// All of motors.toml.
struct MotorParameters
{
  double roomTemperature = 0.0; ///< °C, around the robot; also the start temperature of everything inside
  BoardParameters board;
  TemperatureStatusParameters temperatureStatus;
  FirmwareProtectionParameters firmwareProtection;
  BodyAirParameters bodyAir;
  BatteryParameters battery;
  MotorTypeTable motorTypes;
  DriveTable drives;

  /// The motor of `drive`. Throws std::logic_error for a motor type outside 1..5: parameters that were never loaded
  /// (every field starts at 0; the file's range check refuses such a type).
  const MotorTypeParameters& motorOf(const DriveParameters& drive) const
  {
    if (drive.motorType < 1 || drive.motorType > static_cast<int>(numOfMotorTypes))
      throw std::logic_error("motor type " + std::to_string(drive.motorType) +
                             " is not 1..5: MotorParameters not loaded from Config/Sim/motors.toml");
    return motorTypes[static_cast<std::size_t>(drive.motorType - 1)];
  }

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    ar& field("roomTemperature", roomTemperature).range(-20.0, 80.0);
    ar& field("board", board);
    ar& field("temperatureStatus", temperatureStatus);
    ar& field("firmwareProtection", firmwareProtection);
    ar& field("bodyAir", bodyAir);
    ar& field("battery", battery);
    ar& field("motorTypes", motorTypes);
    ar& field("drives", drives);
  }
};
} // namespace nao::sim
