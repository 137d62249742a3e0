#pragma once
// Every tunable number of the simulated NAO: Config/Sim/physics.toml (scene, solver, sole and sensor
// geometry, events) and Config/Sim/motors.toml (motor types, drives, position controller, thermal model,
// firmware protection, battery). Code holds SI units (rad, m, s, N·m, A, °C); files may use deg, mm, ms, mA
// as stated.
#include "Representations/Infrastructure/Joints.h"
#include "Tools/Streams/Field.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace nao::sim
{
/// A table keyed by names: the TOML archive reads it as `[table] name = value` (or `[table.name]`).
template<class T, std::size_t N, const std::array<std::string_view, N>& Names>
struct NamedTable
{
  std::array<T, N> values{};

  static constexpr std::size_t size() { return N; }
  static std::span<const std::string_view> names() { return Names; }
  T& operator[](std::size_t index) { return values[index]; }
  const T& operator[](std::size_t index) const { return values[index]; }

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& boost::serialization::make_nvp("values", values);
  }
};

// ---------------------------------------------------------------------------------------------- physics.toml

/// Sole contact and FSR geometry, per foot in the frame of the foot link (x forward, y left; right foot
/// mirrored).
struct SoleParameters
{
  std::array<std::string, 2> footLinks{"l_ankle",
                                       "r_ankle"}; ///< their URDF collision boxes do not touch the floor
  double soleHeight = 0.04519;                     ///< m below the foot link origin (file: mm)
  /// URDF links of the 8 FSRs in LoLA order (lola.md §5); their x, y place the contact spheres.
  std::array<std::string, 8> fsrLinks{};
  double fsrRadius = 0.004; ///< m, contact sphere under each FSR (file: mm)
  double front = 0.1;       ///< m, sole outline from the point below the ankle (file: mm)
  double back = 0.05;       ///< m
  double outer = 0.05002;   ///< m, towards the robot's outside (+y on the left foot)
  double inner = 0.03877;   ///< m
  double clearance = 0.001; ///< m, the outline box floats this far above the sole plane (file: mm)
  double thickness = 0.01;  ///< m, of the outline box (file: mm)

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    using streams::Unit;
    ar& field("footLinks", footLinks);
    ar& field("soleHeight", soleHeight).unit(Unit::millimeters).range(0.0, 100.0);
    ar& field("fsrLinks", fsrLinks);
    ar& field("fsrRadius", fsrRadius).unit(Unit::millimeters).range(0.5, 20.0);
    ar& field("front", front).unit(Unit::millimeters).range(10.0, 300.0);
    ar& field("back", back).unit(Unit::millimeters).range(10.0, 300.0);
    ar& field("outer", outer).unit(Unit::millimeters).range(10.0, 200.0);
    ar& field("inner", inner).unit(Unit::millimeters).range(10.0, 200.0);
    ar& field("clearance", clearance).unit(Unit::millimeters).range(0.0, 10.0);
    ar& field("thickness", thickness).unit(Unit::millimeters).range(1.0, 50.0);
  }
};

struct PhysicsParameters
{
  std::string urdf = "Robots/Default/nao-v6.urdf"; ///< relative to the Config folder
  std::string torsoLink = "torso";                 ///< the floating base
  std::string accelerometerLink = "ImuTorsoAccelerometer_frame";
  std::string gyroscopeLink = "ImuTorsoGyrometer_frame";
  double timestep = 0.001;             ///< s, physics step (file: ms)
  double frameTime = 0.012;            ///< s, one LoLA frame (file: ms)
  double gravity = 9.81;               ///< m/s²; FSR kg = N / gravity
  std::string solver = "Newton";       ///< MuJoCo constraint solver: Newton, CG or PGS
  std::string cone = "elliptic";       ///< MuJoCo friction cone: elliptic or pyramidal
  std::string jacobian = "sparse";     ///< MuJoCo constraint Jacobian: sparse, dense or auto
  int solverIterations = 30;           ///< iterations per step (upper bound)
  double solverTolerance = 1e-8;       ///< relative cost improvement that ends the iterations
  double floorFriction = 1.0;          ///< sliding friction coefficient sole/floor
  double contactTimeConstant = 0.005;  ///< s, MuJoCo solref of floor contacts (file: ms)
  double couplingTimeConstant = 0.002; ///< s, solref of the RHipYawPitch = LHipYawPitch constraint (file: ms)
  double frictionImpedance = 0.9999; ///< MuJoCo solimp of joint friction and limits: closer to 1 creeps less
  double frictionTimeConstant = 0.002; ///< s, MuJoCo solref of joint friction (file: ms)
  /// Divides MuJoCo's regularisation of joint friction and limit constraints (the dofs' invweight0): a stuck
  /// joint under load creeps at a speed proportional to it.
  double frictionHardness = 1000.0;
  /// Sleep: after sleepSteps steps in which every dof is slower than sleepVelocity (rad/s, m/s), accelerates
  /// less than sleepAcceleration and no motor torque changes by more than sleepTorque, the robot is at rest
  /// and MuJoCo is not stepped until a torque, the command or an event changes something. 0 disables
  /// sleeping.
  double sleepVelocity = 1e-5;
  double sleepAcceleration = 1e-3;
  double sleepTorque = 1e-4; ///< N·m
  int sleepSteps = 20;
  double liftHeight = 0.1;        ///< m, "pick up" raises the torso this much (file: mm)
  double liftDuration = 0.5;      ///< s, time to lift or to put down (file: ms)
  double liftTimeConstant = 0.02; ///< s, solref of the weld that holds a lifted robot (file: ms)
  SoleParameters sole;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    using streams::Unit;
    ar& field("urdf", urdf);
    ar& field("torsoLink", torsoLink);
    ar& field("accelerometerLink", accelerometerLink);
    ar& field("gyroscopeLink", gyroscopeLink);
    ar& field("timestep", timestep).unit(Unit::milliseconds).range(0.05, 5.0);
    ar& field("frameTime", frameTime).unit(Unit::milliseconds).range(1.0, 100.0);
    ar& field("gravity", gravity).range(0.0, 20.0);
    ar& field("solver", solver);
    ar& field("cone", cone);
    ar& field("jacobian", jacobian);
    ar& field("solverIterations", solverIterations).range(1, 1000);
    ar& field("solverTolerance", solverTolerance).range(0.0, 1e-2);
    ar& field("floorFriction", floorFriction).range(0.0, 5.0);
    ar& field("contactTimeConstant", contactTimeConstant).unit(Unit::milliseconds).range(0.1, 100.0);
    ar& field("couplingTimeConstant", couplingTimeConstant).unit(Unit::milliseconds).range(0.1, 100.0);
    ar& field("frictionImpedance", frictionImpedance).range(0.5, 0.9999);
    ar& field("frictionTimeConstant", frictionTimeConstant).unit(Unit::milliseconds).range(0.1, 100.0);
    ar& field("frictionHardness", frictionHardness).range(1.0, 1e6);
    ar& field("sleepVelocity", sleepVelocity).range(0.0, 1.0);
    ar& field("sleepAcceleration", sleepAcceleration).range(0.0, 100.0);
    ar& field("sleepTorque", sleepTorque).range(0.0, 1.0);
    ar& field("sleepSteps", sleepSteps).range(1, 100000);
    ar& field("liftHeight", liftHeight).unit(Unit::millimeters).range(0.0, 1000.0);
    ar& field("liftDuration", liftDuration).unit(Unit::milliseconds).range(1.0, 10000.0);
    ar& field("liftTimeConstant", liftTimeConstant).unit(Unit::milliseconds).range(0.1, 1000.0);
    ar& field("sole", sole);
  }
};

// ----------------------------------------------------------------------------------------------- motors.toml

/// A joint without its side: every LoLA joint of one kind has the same drive (motors.md §2).
enum class DriveKind : std::uint8_t
{
  HeadYaw,
  HeadPitch,
  ShoulderPitch,
  ShoulderRoll,
  ElbowYaw,
  ElbowRoll,
  WristYaw,
  Hand,
  HipYawPitch,
  HipRoll,
  HipPitch,
  KneePitch,
  AnklePitch,
  AnkleRoll,
};
inline constexpr std::size_t numOfDriveKinds = 14;
inline constexpr std::array<std::string_view, numOfDriveKinds> driveKindNames{
    "HeadYaw", "HeadPitch",   "ShoulderPitch", "ShoulderRoll", "ElbowYaw",  "ElbowRoll",  "WristYaw",
    "Hand",    "HipYawPitch", "HipRoll",       "HipPitch",     "KneePitch", "AnklePitch", "AnkleRoll"};
/// The kind of a LoLA joint: its name without the L/R prefix.
DriveKind driveKindOf(Joint joint);

inline constexpr std::size_t numOfMotorTypes = 5;
inline constexpr std::array<std::string_view, numOfMotorTypes> motorTypeNames{"type1", "type2", "type3",
                                                                              "type4", "type5"};

/// One motor type of the NAO6 datasheet (motors.md §1) with the electrical, mechanical and thermal values the
/// simulation needs. Values the datasheet lacks are chosen and justified in motors.toml.
struct MotorTypeParameters
{
  std::string model;
  double torqueConstant = 0.0;     ///< N·m/A at the motor shaft; equals the back-EMF constant in V·s/rad
  double terminalResistance = 0.0; ///< Ω, winding resistance (heats with I²R)
  double noLoadCurrent = 0.0;      ///< A, drawn whenever the bridge drives the motor (file: mA)
  double rotorInertia = 0.0;       ///< kg·m² at the motor shaft; × ratio² at the joint
  double gearEfficiency = 0.7;     ///< output torque / (ratio × motor torque)
  double positionGain = 0.0;       ///< V/rad: board voltage per rad of joint position error
  double stictionRatio = 1.0;      ///< static friction / Coulomb friction of its gear trains
  double windingCapacity = 1.0;    ///< J/K, heat capacity of the winding
  double windingToCase = 1.0;      ///< K/W, thermal resistance winding -> case
  double caseCapacity = 1.0;       ///< J/K, heat capacity of case and gear housing
  double caseToAmbient = 1.0;      ///< K/W, thermal resistance case -> air inside the robot

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    using streams::Unit;
    ar& field("model", model);
    ar& field("torqueConstant", torqueConstant).range(1e-4, 1.0);
    ar& field("terminalResistance", terminalResistance).range(0.01, 1000.0);
    ar& field("noLoadCurrent", noLoadCurrent).unit(Unit::milliamperes).range(0.0, 1000.0);
    ar& field("rotorInertia", rotorInertia).range(1e-12, 1e-3);
    ar& field("gearEfficiency", gearEfficiency).range(0.05, 1.0);
    ar& field("positionGain", positionGain).range(0.0, 1e6);
    ar& field("stictionRatio", stictionRatio).range(1.0, 5.0);
    ar& field("windingCapacity", windingCapacity).range(0.01, 1e4);
    ar& field("windingToCase", windingToCase).range(0.01, 1e3);
    ar& field("caseCapacity", caseCapacity).range(0.01, 1e5);
    ar& field("caseToAmbient", caseToAmbient).range(0.01, 1e3);
  }
};

/// The drive of one joint kind (motors.md §2).
struct DriveParameters
{
  int motorType = 1;      ///< 1..5
  double gearRatio = 1.0; ///< motor turns per joint turn
  double maxTorque = 1.0; ///< N·m at the joint for stiffness 1
  double friction = 0.0; ///< N·m, Coulomb friction of the gear train at the joint (static: × stictionRatio)

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    ar& field("motorType", motorType).range(1, 5);
    ar& field("gearRatio", gearRatio).range(1.0, 10000.0);
    ar& field("maxTorque", maxTorque).range(0.0, 100.0);
    ar& field("friction", friction).range(0.0, 100.0);
  }
};

/// The motor board's position loop (shared by all joints).
struct ControllerParameters
{
  int encoderBits = 12;           ///< magnetic joint encoder: 2^bits steps per turn (motors.md §1)
  double encoderHysteresis = 0.5; ///< counts: a reading switches back only after the angle moved this far
  double deadBand = 0.0003835;    ///< rad: errors up to this leave the bridge off (file: deg)
  double stictionSpeed = 0.002;   ///< rad/s: slower joints are stuck and see static friction (file: deg/s)

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    using streams::Unit;
    ar& field("encoderBits", encoderBits).range(4, 24);
    ar& field("encoderHysteresis", encoderHysteresis).range(0.0, 2.0);
    ar& field("deadBand", deadBand).unit(Unit::degrees).range(0.0, 5.0);
    ar& field("stictionSpeed", stictionSpeed).unit(Unit::degrees).range(0.0, 100.0);
  }
};

/// Temperature status as LoLA reports it (motors.md §5): 0 normal, 1 hot, 2 very hot, 3 critical. A status is
/// entered at its "From" temperature and left below its "Below" temperature (hysteresis).
struct TemperatureStatusParameters
{
  double hotFrom = 76.0;       ///< °C
  double hotBelow = 70.0;      ///< °C, status 1 -> 0
  double veryHotFrom = 80.0;   ///< °C
  double veryHotBelow = 78.0;  ///< °C, status 2 -> 1
  double criticalFrom = 90.0;  ///< °C
  double criticalBelow = 88.0; ///< °C, status 3 -> 2

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

/// What the motor board does to the torque limit per status (fractions of stiffness × maximum torque).
struct FirmwareProtectionParameters
{
  double hotLimitStart = 1.0; ///< status 1 at hotFrom; falls linearly to hotLimitEnd at veryHotFrom
  double hotLimitEnd = 0.8;
  double veryHotLimit = 0.6;  ///< status 2 ("reduced by more than 30 %")
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

struct BatteryParameters
{
  double capacity = 2.9;           ///< A·h (datasheet)
  double initialCharge = 1.0;      ///< 0..1
  double baseLoad = 1.0;           ///< A drawn by head, boards and sensors besides the motors (file: mA)
  double internalResistance = 0.1; ///< Ω, heats the pack with I²R
  double heatCapacity = 200.0;     ///< J/K
  double thermalResistance = 5.0;  ///< K/W, pack -> ambient

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

using MotorTypeTable = NamedTable<MotorTypeParameters, numOfMotorTypes, motorTypeNames>;
using DriveTable = NamedTable<DriveParameters, numOfDriveKinds, driveKindNames>;

struct MotorParameters
{
  double ambientTemperature = 25.0; ///< °C, air inside the robot; also the start temperature of every motor
  ControllerParameters controller;
  TemperatureStatusParameters temperatureStatus;
  FirmwareProtectionParameters firmwareProtection;
  BatteryParameters battery;
  MotorTypeTable motorTypes;
  DriveTable drives;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    ar& field("ambientTemperature", ambientTemperature).range(-20.0, 80.0);
    ar& field("controller", controller);
    ar& field("temperatureStatus", temperatureStatus);
    ar& field("firmwareProtection", firmwareProtection);
    ar& field("battery", battery);
    ar& field("motorTypes", motorTypes);
    ar& field("drives", drives);
  }
};
} // namespace nao::sim
