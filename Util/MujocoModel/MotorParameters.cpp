#include "Util/MujocoModel/MotorParameters.h"

namespace nao::sim
{
DriveKind driveKindOf(Joint joint)
{
  std::string_view name = jointNames[index(joint)];
  if (name != "HeadYaw" && name != "HeadPitch") name.remove_prefix(1); // the L or R of a limb joint
  const int kind = findDriveKind(name);
  return kind >= 0 ? static_cast<DriveKind>(kind) : DriveKind::HeadYaw; // every LoLA joint has a kind
}

int findDriveKind(std::string_view name)
{
  for (std::size_t kind = 0; kind < numOfDriveKinds; ++kind)
    if (streams::enumNamesOf<DriveKind>[kind] == name) return static_cast<int>(kind);
  return -1;
}
} // namespace nao::sim
