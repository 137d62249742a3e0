#pragma once
// Reading a configuration file (TOML, URDF, scenario) whole, safely: only a regular file (a FIFO would block
// start-up forever, a link to /dev/zero would grow without end) of bounded size, with an error that names the path
// and says what is wrong in words (not "no such file" for a permission problem or a link loop).
#include <filesystem>
#include <stdexcept>
#include <string>

namespace nao::files
{
/// 16 MiB: far above any file of Config/ (the NAO's URDF is about 100 KB), far below what hurts the robot.
inline constexpr std::uintmax_t maxConfigFileBytes = 16u << 20;

struct FileError : std::runtime_error
{
  using std::runtime_error::runtime_error;
};

/// The whole text of `path`, or FileError "<path>:1:1: cannot read: <why>" (the position is the file as a whole, so
/// that every configuration error has the same file:line:column form).
std::string readBoundedFile(const std::filesystem::path& path, std::uintmax_t maxBytes = maxConfigFileBytes);

/// Whether `path` exists (links followed): false when it or a folder on the way does not. When that cannot be told
/// — a loop of symbolic links, a folder that may not be searched — or `path` is a link to nothing, FileError
/// "<path>:1:1: cannot read: <why>" (std::filesystem::exists would throw a raw filesystem error, or say "no").
bool fileExists(const std::filesystem::path& path);
} // namespace nao::files
