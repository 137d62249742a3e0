#include "Framework/Testing/TestRobot.h"

namespace nao
{
RobotOptions testRobotOptions(const std::string& scenario, bool debugServer)
{
  RobotOptions options;
  options.config = {NAO_CONFIG_DIR, "Default"};
  options.scenario = scenario;
  if (debugServer) options.debug = DebugSettings{"127.0.0.1", 0, ""};
  return options;
}
} // namespace nao
