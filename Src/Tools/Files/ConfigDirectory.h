#pragma once
// Where a program finds Config/ when the command line does not say: relative to its own executable, never
// through a path baked in at build time, so that a moved checkout, an installed copy (`cmake --install`) and a
// deployed version folder all find the Config/ that belongs to them.
//
// From the executable's folder upwards, each folder F is asked for
//   F/Config/settings.toml                      the source tree (Build/<type>/... lies inside it) and a deployed
//                                               version folder (bin/nao next to Config/)
//   F/share/nao-framework/Config/settings.toml  an installed prefix (<prefix>/bin/nao)
// and the first that exists wins.
#include <filesystem>
#include <stdexcept>
#include <vector>

namespace nao::files
{
/// Config/ below an installed prefix.
inline constexpr const char* installedConfigFolder = "share/nao-framework/Config";

struct ConfigNotFound : std::runtime_error
{
  using std::runtime_error::runtime_error;
};

/// The running program's executable (/proc/self/exe), with links resolved.
std::filesystem::path thisExecutable();

/// The folders searched for `executable`, in order (each would hold settings.toml).
std::vector<std::filesystem::path> configCandidates(const std::filesystem::path& executable);

/// The first candidate holding settings.toml. Throws ConfigNotFound naming every folder it looked in and how to
/// say where Config/ is (`--config`).
std::filesystem::path findConfigDirectory(const std::filesystem::path& executable = thisExecutable());
} // namespace nao::files
