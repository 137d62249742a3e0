#pragma once
// Where a robot process finds its files: Config/, the robot's overlays in Config/Robots/<robot>/, and the
// scenario it runs. One value, handed to whatever loads from these files (the Controller for parameters,
// ModuleContext for what modules declare in Loads<>); no global holds it.
#include <filesystem>
#include <string>
#include <vector>

namespace nao
{
struct ConfigLocation
{
  std::filesystem::path directory; ///< Config/
  std::string robot = "Default";   ///< Config/Robots/<robot>/ overlays
  std::filesystem::path moduleFile(const std::string& module) const;
  std::filesystem::path robotOverlay(const std::string& module) const;
};

/// The names in `folder`: files ending in `extension` without it, or with an empty extension the subfolders.
/// Sorted; empty if the folder does not exist.
std::vector<std::string> namesInFolder(const std::filesystem::path& folder, const std::string& extension);
/// "a, b, c".
std::string joined(const std::vector<std::string>& names);

/// Throws StartupError unless Config/Robots/<robot>/ exists: a mistyped robot name must never run with the
/// defaults (its calibration would silently vanish). The message lists the robots and the closest name.
void checkRobotExists(const ConfigLocation& location);

struct ConfigFiles
{
  ConfigLocation location;
  /// Config/Scenarios/<name>.toml; empty for a module graph made in code (tests), which then has no scenario
  /// tables to load from.
  std::filesystem::path scenarioFile;

  /// Config/Robots/<robot>/<relative> if it exists, else Config/Robots/Default/<relative>. Throws
  /// StartupError naming both paths when neither exists.
  std::filesystem::path robotFile(const std::filesystem::path& relative) const;
};
} // namespace nao
