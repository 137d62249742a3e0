#include "Tools/Testing/TemporaryFolder.h"

#include <unistd.h>

namespace nao::test
{
std::filesystem::path freshTemporaryFolder(const std::string& name)
{
  const auto folder =
      std::filesystem::temp_directory_path() / ("nao-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  return folder;
}

TemporaryFolder::~TemporaryFolder()
{
  std::error_code ignored; // a destructor must not throw; what is left is in the temporary folder
  std::filesystem::remove_all(path, ignored);
}
} // namespace nao::test
