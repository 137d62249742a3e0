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
} // namespace nao
