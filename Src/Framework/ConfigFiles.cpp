#include "Framework/ConfigFiles.h"
#include "Framework/Scenario.h"
#include "Tools/Files/BoundedFile.h"
#include "Tools/Streams/ClosestName.h"
#include <algorithm>

namespace nao
{
std::vector<std::string> namesInFolder(const std::filesystem::path& folder, const std::string& extension)
{
  std::vector<std::string> names;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(folder, error))
    if (extension.empty() ? entry.is_directory() : entry.path().extension() == extension)
      names.push_back(extension.empty() ? entry.path().filename().string() : entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string joined(const std::vector<std::string>& names)
{
  std::string text;
  for (const std::string& name : names)
    text += (text.empty() ? "" : ", ") + name;
  return text;
}

void checkRobotExists(const ConfigLocation& location)
{
  const auto robots = location.directory / "Robots";
  std::error_code error;
  if (std::filesystem::is_directory(robots / location.robot, error)) return;
  if (error && error != std::errc::no_such_file_or_directory && error != std::errc::not_a_directory)
    throw StartupError((robots / location.robot).string() + ":1:1: cannot read: " +
                       (error == std::errc::permission_denied ? "permission denied" : error.message()));
  const auto known = namesInFolder(robots, "");
  throw StartupError("robot '" + location.robot + "': no folder " + (robots / location.robot).string() +
                     streams::didYouMean(location.robot, known) + "; robots: " + joined(known));
}

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
  const auto fallback = location.directory / "Robots" / "Default" / relative;
  try
  {
    if (files::fileExists(own)) return own;
    if (own == fallback) throw StartupError(own.string() + ":1:1: cannot read: no such file");
    if (files::fileExists(fallback)) return fallback;
  }
  catch (const files::FileError& error)
  {
    throw StartupError(error.what());
  }
  throw StartupError(own.string() + ":1:1: cannot read: no such file (nor is there " + fallback.string() +
                     ")");
}
} // namespace nao
