#pragma once
// A per-robot correction of the URDF's link masses (Config/Robots/<robot>/massCalibration.toml): each entry
// adds mass to a link and moves its centre of mass; the rotational inertia about the centre of mass is kept.
#include <Eigen/Core>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace nao::kinematics
{
struct LinkMassCalibration
{
  std::string link;       ///< URDF link name
  double extraMass = 0.0; ///< kg, added to the link mass (may be negative)
  Eigen::Vector3d centerOfMassOffset = Eigen::Vector3d::Zero(); ///< m, added to the CoM, link frame
  std::string origin; ///< "file:line:column", for errors found later
};

struct MassCalibration
{
  std::vector<LinkMassCalibration> links;
};

/// Reads the TOML table `links`: `<link> = { extraMassKg = <kg>, comOffsetMm = [x, y, z] }` (mm in the file,
/// m in the struct). Throws ModelError naming file:line:column and key on bad syntax, types or unknown keys.
MassCalibration loadMassCalibration(const std::filesystem::path& file);
MassCalibration parseMassCalibration(std::string_view toml, std::string_view sourceName);
} // namespace nao::kinematics
