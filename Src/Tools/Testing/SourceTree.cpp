#include "Tools/Testing/SourceTree.h"

namespace nao::test
{
std::filesystem::path sourceDirectory()
{
  return NAO_SOURCE_DIR;
}

std::filesystem::path configDirectory()
{
  return NAO_CONFIG_DIR;
}
} // namespace nao::test
