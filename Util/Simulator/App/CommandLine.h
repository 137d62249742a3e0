#pragma once
// What the Simulator's commands share: the stop by Ctrl-C or SIGTERM, the progress bar, the help texts, quoting for
// the shell, the results files headed by their command, the check that a scenario exists and the seeds of robots.
#include <cstdint>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace nao::simcli
{
/// SIGINT or SIGTERM, once received: the run stops at its next frame and writes its outputs for the time simulated;
/// then the simulator ends by the same signal, so that a shell script or job runner that started it stops too.
void installStopHandlers();
/// A stop signal has been received.
bool stopRequested();
/// After the outputs are written: end by the signal that stopped the run (status 128 + signal in a shell).
int endAfterStop(int status);

/// The progress bar on stderr: "what [####....]  50%".
void drawProgress(const std::string& what, double fraction);

/// A command line argument as a POSIX shell reads it back.
std::string quoted(const std::string& argument);

/// The command as it was typed, each argument quoted() where the shell needs it (the line a table is headed by).
std::string commandLine(int argc, char** argv);

/// `table` headed by the command that wrote it, as every file of Docs/Results/ is: "Written by `command`.".
std::string headedByCommand(const std::string& command, const std::string& table);

/// `text` into `markdown` (when given; its folder created), and its name after ", " on the console; then the line's
/// end. Throws if it cannot be written.
void writeMarkdown(const std::string& text, const std::string& markdown);

/// Empty if Config/Scenarios/<scenario>.toml exists, else what is wrong, with the closest scenario's name.
std::string missingScenario(const std::filesystem::path& configDirectory, const std::string& scenario);

/// Empty if Config/Sim/variants.toml has the plant variant `variant` (or it is empty), else what is wrong, with the
/// closest variant's name: checked at once, not after every robot failed to start.
std::string unknownVariant(const std::filesystem::path& configDirectory, const std::string& variant);

/// The seeds first, first + 1, ..., first + count - 1.
std::vector<std::uint64_t> seedsFrom(std::uint64_t first, int count);

/// The help of --config and of --markdown, the same in every command that has them.
inline const std::string configHelp =
    "the Config/ folder (default: Config/ or share/nao-framework/Config/ in the "
    "executable's folder or a folder above it)";
inline const std::string markdownHelp =
    "also write the tables into this Markdown file (Docs/Results/), headed by the command";

/// "what (default value)": every option's help names its default, taken from the variable the option fills.
template<class T>
std::string withDefault(const std::string& what, const T& value)
{
  std::ostringstream text;
  text << value;
  return what + " (default " + (text.str().empty() ? std::string("none") : text.str()) + ")";
}
} // namespace nao::simcli
