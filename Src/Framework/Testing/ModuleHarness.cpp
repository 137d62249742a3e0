#include "Framework/Testing/ModuleHarness.h"

namespace nao
{
ConfigFiles testConfigFiles(const std::string& robot, const std::string& scenario)
{
  ConfigFiles files;
  files.location.directory = NAO_CONFIG_DIR;
  files.location.robot = robot;
  if (!scenario.empty()) files.scenarioFile = files.location.directory / "Scenarios" / (scenario + ".toml");
  return files;
}

toml::table moduleParameterTable(const ConfigLocation& location, const std::string& module)
{
  toml::table table = streams::loadTomlFile(location.moduleFile(module));
  if (const auto overlay = location.robotOverlay(module); std::filesystem::exists(overlay))
    streams::overlayPerKey(table, streams::loadTomlFile(overlay));
  return table;
}
} // namespace nao
