#pragma once
// A whole robot in a test: the options of a Robot on this checkout's Config/ (robot Default) in a scenario, with or
// without the debug server (on a free port of the loopback interface, no token). Link NaoModuleHarness.
#include "Framework/Robot.h"

#include <string>

namespace nao
{
RobotOptions testRobotOptions(const std::string& scenario = "standin", bool debugServer = false);
} // namespace nao
