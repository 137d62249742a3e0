#pragma once
// A body's self-collision shapes as a file states them (for the NAO: Config/Robots/<robot>/selfCollision.toml,
// Default's file with the robot's file overlaid per key): spheres and capsules by link name, and the link pairs
// left out, each with the file position it came from. The user resolves the link names against its robot model and
// builds a BodyModel from them (SelfCollisionProvider; the DebugGui's 3D view draws the same shapes).
#include "Tools/Collision/BodyModel.h"

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace toml
{
inline namespace v3
{
class table;
}
} // namespace toml

namespace nao::collision
{
struct BodyShapes
{
  struct Shape
  {
    std::string name; ///< the key of [shapes.<name>]
    std::string link; ///< URDF link name
    ShapeKind kind = ShapeKind::sphere;
    Eigen::Vector3d start = Eigen::Vector3d::Zero(); ///< m, link frame: centre (sphere) or axis start
    Eigen::Vector3d end = Eigen::Vector3d::Zero();   ///< m, link frame: axis end (capsule)
    double radius = 0.0;                             ///< m
    std::string where;                               ///< "file:line:column" of its table, for messages
  };
  struct ExcludedPair
  {
    std::string linkA, linkB;
    std::string where; ///< "file:line:column"
  };

  std::vector<Shape> shapes;
  std::vector<ExcludedPair> excludedLinkPairs;

  /// <configDirectory>/Robots/Default/selfCollision.toml with Robots/<robot>/selfCollision.toml (if any) overlaid
  /// per key. Throws streams::ConfigError naming file, line, column and key.
  static BodyShapes load(const std::filesystem::path& configDirectory, const std::string& robot);
  /// From a parsed table (positions taken from its nodes).
  static BodyShapes fromTable(const toml::table& table);
};
} // namespace nao::collision
