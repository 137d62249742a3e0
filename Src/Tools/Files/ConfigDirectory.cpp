#include "Tools/Files/ConfigDirectory.h"

#include <system_error>

namespace nao::files
{
std::filesystem::path thisExecutable()
{
  std::error_code error;
  const std::filesystem::path executable = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error)
    throw ConfigNotFound("cannot find this program's executable (/proc/self/exe): " + error.message());
  return executable;
}

std::vector<std::filesystem::path> configCandidates(const std::filesystem::path& executable)
{
  std::error_code error;
  std::filesystem::path folder = std::filesystem::weakly_canonical(executable, error);
  if (error) folder = std::filesystem::absolute(executable);
  folder = folder.parent_path();
  std::vector<std::filesystem::path> candidates;
  for (;;)
  {
    candidates.push_back(folder / "Config");
    candidates.push_back(folder / installedConfigFolder);
    if (folder == folder.root_path() || folder.parent_path() == folder) break;
    folder = folder.parent_path();
  }
  return candidates;
}

std::filesystem::path findConfigDirectory(const std::filesystem::path& executable)
{
  const std::vector<std::filesystem::path> candidates = configCandidates(executable);
  std::string looked;
  for (const std::filesystem::path& candidate : candidates)
  {
    std::error_code error;
    if (std::filesystem::is_regular_file(candidate / "settings.toml", error)) return candidate;
    looked += "\n  " + candidate.string();
  }
  throw ConfigNotFound(
      "no Config/ folder (one holding settings.toml) found for " + executable.string() + "; looked in:" +
      looked + "\npass --config <folder>, or install with `cmake --install <build> --prefix <prefix>`");
}
} // namespace nao::files
