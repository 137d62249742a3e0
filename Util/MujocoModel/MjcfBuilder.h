#pragma once
// Generates the MuJoCo model as MJCF text from the URDF plus what only the simulator has: a floor, sole
// contact geometry (one sphere under each FSR, a raised outline box that only touches when the foot tilts),
// the hip coupling, a handle to pick the robot up and one motor per LoLA joint with its rotor's reflected
// inertia (armature). Friction is not written here: the simulator puts it into the model arrays and changes
// it at run time.
#include "Util/MujocoModel/MotorParameters.h"
#include "Util/MujocoModel/PhysicsParameters.h"

#include <cstddef>
#include <filesystem>
#include <string>

namespace nao::sim
{
/// Names inside the generated model.
namespace mjcf
{
inline constexpr const char* floorGeom = "floor";
inline constexpr const char* rootJoint = "root";
inline constexpr const char* liftHandle = "lift_handle";
inline constexpr const char* liftWeld = "lift";
inline constexpr const char* outlineSuffix = "_sole_outline";
/// "fsr0" .. "fsr7": the contact sphere of an FSR, LoLA order.
std::string fsrGeomName(std::size_t fsr);
} // namespace mjcf

/// What the model is made of: the URDF and the two files of Config/Sim it takes values from.
struct MjcfSource
{
  std::filesystem::path urdfFile; ///< the robot description the model is generated from
  PhysicsParameters physics;      ///< Sim/physics.toml: scene, solver, soles
  MotorParameters motors;         ///< Sim/motors.toml: rotor inertia and gear ratio of each drive (armature)
};

/// Reads <configDir>/Sim/physics.toml and motors.toml; urdfFile = configDir / physics.urdf. Throws
/// streams::ConfigError (file, line, column, key) for a bad file. The simulator reads these two files the same
/// way, with its others (Util/Simulator/Physics/SimConfig.h).
MjcfSource loadMjcfSource(const std::filesystem::path& configDir);

/// Throws std::runtime_error naming the URDF file and what it cannot represent (missing links, unsupported
/// joint types, a mimic joint without master).
std::string buildMjcf(const std::filesystem::path& urdfFile, const PhysicsParameters& physics,
                      const MotorParameters& motors);
} // namespace nao::sim
