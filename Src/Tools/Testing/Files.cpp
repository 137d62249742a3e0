#include "Tools/Testing/Files.h"

#include <fstream>
#include <sstream>

namespace nao::test
{
std::string readFile(const std::filesystem::path& file)
{
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}
} // namespace nao::test
