#pragma once
// The self-collision body model of the robot, as written in Config/Robots/<robot>/selfCollision.toml (Default's
// file, the robot's file overlaid per key): shapes by link name and the link pairs left out. Loaded once per
// robot process (Loads<SelfCollisionShapes>); the module resolves the link names against RobotDescription.
#include "Framework/ConfigFiles.h"
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

namespace nao
{
struct SelfCollisionShapes
{
  struct Shape
  {
    std::string name; ///< the key of [shapes.<name>]
    std::string link; ///< URDF link name
    collision::ShapeKind kind = collision::ShapeKind::sphere;
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

  /// Default's selfCollision.toml with the robot's file (if any) overlaid per key. Throws streams::ConfigError
  /// naming file, line, column and key.
  static SelfCollisionShapes load(const ConfigFiles& files);
  /// From a parsed table (positions taken from its nodes).
  static SelfCollisionShapes fromTable(const toml::table& table);
};
} // namespace nao
