#pragma once
// Where modules find their non-parameter files (robot description, calibrations): the robot's own folder
// first, then Default. Set by the Controller before any module is created.
#include <filesystem>
#include <string>

namespace nao
{
struct ConfigLocation;

/// Config/Robots/<robot>/<relative> if it exists, else Config/Robots/Default/<relative>. Throws StartupError
/// naming both paths when neither exists.
std::filesystem::path findRobotFile(const std::filesystem::path& relative);
/// Config/Robots/<robot>/<relative> if the robot has its own, else an empty path.
std::filesystem::path findRobotOverlay(const std::filesystem::path& relative);
const ConfigLocation& currentConfigLocation();
/// The scenario file the process runs (Config/Scenarios/<name>.toml); modules may read their own table from
/// it.
const std::filesystem::path& currentScenarioFile();
void setCurrentScenarioFile(const std::filesystem::path& file);
void setCurrentConfigLocation(const ConfigLocation& location);
} // namespace nao
