#pragma once
// The self-collision body model of the robot as modules load it: the shapes of Tools/Collision/BodyShapes.h from
// Config/Robots/<robot>/selfCollision.toml (Default's file, the robot's file overlaid per key). Loaded once per robot
// process (Loads<SelfCollisionShapes>: SelfCollisionProvider, TaskSpaceMotionProvider); each resolves the link names
// against RobotDescription (Tools/Collision/BodyOnModel.h).
#include "Framework/ConfigFiles.h"
#include "Tools/Collision/BodyShapes.h"

namespace nao
{
struct SelfCollisionShapes : collision::BodyShapes
{
  /// Throws streams::ConfigError naming file, line, column and key.
  static SelfCollisionShapes load(const ConfigFiles& files);
};
} // namespace nao
