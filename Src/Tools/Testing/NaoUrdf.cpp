#include "Tools/Testing/NaoUrdf.h"

#include "Tools/Testing/Files.h"
#include "Tools/Testing/SourceTree.h"

namespace nao::test
{
std::filesystem::path naoUrdfPath()
{
  return configDirectory() / "Robots/Default/nao-v6.urdf";
}

std::string naoUrdfText()
{
  return readFile(naoUrdfPath());
}
} // namespace nao::test
