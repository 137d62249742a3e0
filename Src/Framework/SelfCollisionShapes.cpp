#include "Framework/SelfCollisionShapes.h"

namespace nao
{
SelfCollisionShapes SelfCollisionShapes::load(const ConfigFiles& files)
{
  return {collision::BodyShapes::load(files.location.directory, files.location.robot)};
}
} // namespace nao
