#include "Tools/Testing/RunCommand.h"
#include <array>
#include <cstdio>
#include <fstream>
#include <sys/wait.h>

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

CommandResult runScript(const std::filesystem::path& directory, const std::string& file,
                        const std::string& script)
{
  std::ofstream(directory / file) << script;
  return runCommand("bash " + file, directory.string());
}
} // namespace nao::test
