#pragma once
// Generates the MuJoCo model as MJCF text from the URDF plus what only the simulator has: a floor, sole
// contact geometry (one sphere under each FSR, a raised outline box that only touches when the foot tilts),
// the hip coupling, a handle to pick the robot up and one motor per LoLA joint with its rotor's reflected
// inertia (armature). Friction is not written here: JointActuator puts it into the model arrays and changes
// it at run time.
#include "Util/Simulator/Physics/SimConfig.h"

#include <cstddef>
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

/// Throws std::runtime_error naming the URDF file and what it cannot represent (missing links, unsupported
/// joint types, a mimic joint without master).
std::string buildMjcf(const SimConfig& config);
} // namespace nao::sim
