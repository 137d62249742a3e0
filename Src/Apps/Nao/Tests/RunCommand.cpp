#include "Apps/Nao/Tests/RunCommand.h"
#include <array>
#include <cstdio>
#include <sys/wait.h>
#include <unistd.h>

namespace nao::test
{
CommandResult runCommand(const std::string& command, const std::string& directory)
{
  // The newline ends a `# comment` the command may carry before the subshell closes.
  const std::string line =
      (directory.empty() ? "" : "cd '" + directory + "' && ") + "(" + command + "\n) 2>&1";
  CommandResult result;
  FILE* pipe = popen(line.c_str(), "r");
  if (!pipe) return result;
  std::array<char, 4096> buffer;
  while (const std::size_t count = std::fread(buffer.data(), 1, buffer.size(), pipe))
    result.output.append(buffer.data(), count);
  const int status = pclose(pipe);
  if (WIFEXITED(status)) result.status = WEXITSTATUS(status);
  return result;
}

std::filesystem::path freshTemporaryFolder(const std::string& name)
{
  const auto folder =
      std::filesystem::temp_directory_path() / ("nao-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  return folder;
}
} // namespace nao::test
