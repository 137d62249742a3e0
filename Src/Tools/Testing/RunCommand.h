#pragma once
// Runs a shell command and collects what it printed, for tests of command lines.
#include <filesystem>
#include <string>

namespace nao::test
{
struct CommandResult
{
  int status = -1;    ///< exit status, -1 if it did not exit normally
  std::string output; ///< stdout and stderr
};

/// `command` through /bin/sh, in `directory` when given.
CommandResult runCommand(const std::string& command, const std::string& directory = "");

/// `script` written to `directory`/`file` and run there by bash.
CommandResult runScript(const std::filesystem::path& directory, const std::string& file,
                        const std::string& script);
} // namespace nao::test
