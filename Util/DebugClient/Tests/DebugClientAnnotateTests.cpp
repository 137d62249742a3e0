// `DebugClient annotate` (issue 46): the block of Util/DebugClient/README.md's "annotate" run as written (the robot
// binary on a free port, a log started, a note, the log stopped, LogTool info), and the refusal without a log. ~2 s.
#include "Tools/Testing/Files.h"
#include "Tools/Testing/Markdown.h"
#include "Tools/Testing/RunCommand.h"
#include "Tools/Testing/SourceTree.h"
#include "Tools/Testing/TemporaryFolder.h"
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

TEST(DebugClientAnnotate, TheReadmeBlockPutsTheNoteIntoTheLog)
{
  const auto blocks = fencedBlocks(readFile(sourceDirectory() / "Util/DebugClient/README.md"), "sh");
  ASSERT_EQ(blocks.size(), 2u);
  std::vector<std::string> run = lines(blocks[1]);
  ASSERT_EQ(run.size(), 5u) << blocks[1];
  ASSERT_NE(run[0].find("nao --body standin --scenario stand"), std::string::npos) << run[0];
  ASSERT_NE(run[2].find("DebugClient annotate \"pushed by hand\""), std::string::npos) << run[2];
  ASSERT_NE(run[4].find("LogTool info Logs/note.log"), std::string::npos) << run[4];
  // As written, but this build's binaries and the robot on a free port.
  const TemporaryFolder folder("debug-client-annotate");
  const std::string robotBinary = NAO_ROBOT_BINARY;
  const std::string buildRoot =
      robotBinary.substr(0, robotBinary.size() - std::string("Src/Apps/Nao/nao").size());
  for (std::string& command : run)
    replace(command, "Build/Release/", buildRoot);
  replace(run[0], " &   # debug channel on port 7070", " --debug-port 0 > robot.txt 2>&1 & echo robot=$!;");
  const CommandResult started =
      runCommand(run[0] + " for i in $(seq 150); do grep -q 'debug channel on port' "
                          "robot.txt && break; sleep 0.1; done; cat robot.txt",
                 folder.path.string());
  std::smatch match;
  std::string robot, port;
  if (std::regex_search(started.output, match, std::regex("robot=([0-9]+)"))) robot = match[1];
  if (std::regex_search(started.output, match, std::regex("debug channel on port ([0-9]+)"))) port = match[1];
  std::vector<CommandResult> results;
  if (!port.empty())
  {
    const std::string client = "DebugClient --port " + port;
    results.push_back(
        runCommand(buildRoot + "Util/DebugClient/" + client + " annotate early", folder.path.string()));
    for (std::size_t i = 1; i < 4; ++i)
    {
      replace(run[i], "DebugClient ", client + " ");
      results.push_back(runCommand(run[i], folder.path.string()));
    }
  }
  if (!robot.empty())
    runCommand("kill -TERM " + robot + " 2>/dev/null; while kill -0 " + robot +
               " 2>/dev/null; do sleep 0.05; done");
  ASSERT_FALSE(port.empty()) << started.output;
  ASSERT_EQ(results.size(), 4u);
  EXPECT_EQ(results[0].status, 1) << results[0].output;
  EXPECT_NE(results[0].output.find("no log is being written"), std::string::npos) << results[0].output;
  for (std::size_t i = 1; i < 4; ++i)
    EXPECT_EQ(results[i].status, 0) << run[i] << "\n" << results[i].output;
  const CommandResult info = runCommand(run[4], folder.path.string());
  EXPECT_EQ(info.status, 0) << info.output;
  EXPECT_TRUE(std::regex_search(info.output, std::regex("\nnote at frame [0-9]+: pushed by hand\n")))
      << info.output;
}
} // namespace nao::test
