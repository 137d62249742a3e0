#include "Framework/ConfigFiles.h"
#include "Framework/Scenario.h"

namespace nao
{
std::filesystem::path ConfigLocation::moduleFile(const std::string& module) const
{
  return directory / "Modules" / (module + ".toml");
}

std::filesystem::path ConfigLocation::robotOverlay(const std::string& module) const
{
  return directory / "Robots" / robot / "Modules" / (module + ".toml");
}

std::filesystem::path ConfigFiles::robotFile(const std::filesystem::path& relative) const
{
  const auto own = location.directory / "Robots" / location.robot / relative;
  if (std::filesystem::exists(own)) return own;
  const auto fallback = location.directory / "Robots" / "Default" / relative;
  if (std::filesystem::exists(fallback)) return fallback;
  throw StartupError("neither " + own.string() + " nor " + fallback.string() + " exists");
}
} // namespace nao
