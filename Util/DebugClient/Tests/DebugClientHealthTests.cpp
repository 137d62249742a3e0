// `DebugClient health` (issue 43): the text of a SensorHealth with a failed sensor and a suspect joint, and the
// block of Util/DebugClient/README.md run as written (the simulator's stuck gyroscope, the robot binary against it,
// the client), on a free debug port. ~3 s.
#include "Tools/Testing/Files.h"
#include "Tools/Testing/Markdown.h"
#include "Tools/Testing/RunCommand.h"
#include "Tools/Testing/SourceTree.h"
#include "Tools/Testing/TemporaryFolder.h"
#include "Util/DebugClient/HealthReport.h"
#include <gtest/gtest.h>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace nao::test
{
namespace
{
std::vector<std::string> lines(const std::string& text)
{
  std::vector<std::string> result;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);)
    result.push_back(line);
  return result;
}

void replace(std::string& text, const std::string& from, const std::string& to)
{
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}
} // namespace

TEST(DebugClientHealthReport, NamesEachSensorAndJointThatIsNotValid)
{
  SensorHealth health;
  health[Sensor::gyroscope] = {SensorState::failed, SensorFault::stuck, 12.34f, false};
  health.joints[Joint::LKneePitch] = {SensorState::suspect, SensorFault::flapping, 3.5f, true};
  health[Sensor::battery] = {SensorState::valid, SensorFault::none, 7.f, false}; // a glitch: valid, unnamed
  health.batteryCharge = 0.873f;
  EXPECT_EQ(healthReport(health), "gyroscope       failed   stuck         since 12.34 s\n"
                                  "LKneePitch      suspect  flapping      since 3.50 s\n"
                                  "battery charge 87.3 % (what the robot believes)\n");
  EXPECT_EQ(healthReport(SensorHealth{}),
            "every sensor valid\nbattery charge 100.0 % (what the robot believes)\n");
}

TEST(DebugClientHealth, TheReadmeBlockNamesTheStuckGyroscope)
{
  const auto blocks = fencedBlocks(readFile(sourceDirectory() / "Util/DebugClient/README.md"), "sh");
  ASSERT_EQ(blocks.size(), 2u); // health's, then annotate's (DebugClientAnnotateTests)
  const std::vector<std::string> commands = lines(blocks.front());
  ASSERT_EQ(commands.size(), 3u) << blocks.front();
  ASSERT_NE(commands[0].find("Simulator serve stand"), std::string::npos) << commands[0];
  ASSERT_NE(commands[1].find("nao --scenario stand"), std::string::npos) << commands[1];
  ASSERT_NE(commands[2].find("DebugClient --wait 10 health"), std::string::npos) << commands[2];

  // As written, but this build's binaries, a socket in a scratch folder, no plots, the robot on a free port.
  const TemporaryFolder folder("debug-client-health");
  const std::string robotBinary = NAO_ROBOT_BINARY;
  const std::string buildRoot =
      robotBinary.substr(0, robotBinary.size() - std::string("Src/Apps/Nao/nao").size());
  std::vector<std::string> run = commands;
  for (std::string& command : run)
  {
    replace(command, "Build/Release/", buildRoot);
    replace(command, "/tmp/sim.sock", (folder.path / "lola.sock").string());
  }
  replace(run[0], " &", " --no-plots > sim.txt 2>&1 & echo sim=$!;");
  replace(run[1], " &   # debug channel on port 7070", " --debug-port 0 > robot.txt 2>&1 & echo robot=$!;");
  const CommandResult started =
      runCommand(run[0] + " " + run[1] +
                     " for i in $(seq 150); do grep -q 'debug channel on port' robot.txt "
                     "&& break; sleep 0.1; done; cat robot.txt",
                 folder.path.string());
  std::smatch match;
  std::string simulator, robot, port;
  if (std::regex_search(started.output, match, std::regex("sim=([0-9]+)"))) simulator = match[1];
  if (std::regex_search(started.output, match, std::regex("robot=([0-9]+)"))) robot = match[1];
  if (std::regex_search(started.output, match, std::regex("debug channel on port ([0-9]+)"))) port = match[1];
  CommandResult health;
  if (!port.empty())
  {
    replace(run[2], "DebugClient --wait 10", "DebugClient --port " + port + " --wait 10");
    health = runCommand(run[2], folder.path.string());
  }
  for (const std::string& pid : {robot, simulator})
    if (!pid.empty())
      runCommand("kill -TERM " + pid + " 2>/dev/null; while kill -0 " + pid +
                 " 2>/dev/null; do sleep 0.05; done");
  ASSERT_FALSE(port.empty()) << started.output;
  EXPECT_EQ(health.status, 0) << health.output;
  // Two samples a second apart; the gyroscope is failed after stuckFrames (120 ms), so at least the second names it.
  const std::vector<std::string> printed = lines(health.output);
  ASSERT_GE(printed.size(), 6u) << health.output;
  EXPECT_TRUE(
      std::regex_match(printed[0], std::regex("SensorHealth frame [0-9]+ t=[0-9.]+ s, [0-9]+ changes? "
                                              "since the start")))
      << health.output;
  const std::string second = health.output.substr(health.output.rfind("SensorHealth frame"));
  EXPECT_TRUE(
      std::regex_search(second, std::regex("\ngyroscope +failed +stuck +since [0-9]+\\.[0-9]{2} s\n")))
      << health.output;
  EXPECT_EQ(second.find("every sensor valid"), std::string::npos) << health.output;
  EXPECT_TRUE(
      std::regex_search(second, std::regex("\nbattery charge [0-9.]+ % \\(what the robot believes\\)\n$")))
      << health.output;
}
} // namespace nao::test
