// A robot must stand even when its disk is full: a log that cannot be written is said at once, frees what it held,
// and the robot runs on. The full disk is injected with a file size limit (ulimit -f, SIGXFSZ ignored, so writes
// fail with EFBIG as they would with ENOSPC) or with /dev/full.
#include "Tools/Testing/RunCommand.h"
#include "Tools/Testing/TemporaryFolder.h"
#include <filesystem>
#include <gtest/gtest.h>
#include <regex>
#include <string>
#include <unistd.h>

namespace nao::test
{
namespace
{
TEST(FullDisk, TheRobotStartsAndRunsWhenItsLogCannotBeWritten)
{
  const CommandResult result =
      runCommand(std::string(NAO_ROBOT_BINARY) + " --body standin --frames 50 --no-debug --log /dev/full");
  EXPECT_EQ(result.status, 0) << result.output;
  EXPECT_NE(result.output.find("nao: warning: cannot write log /dev/full"), std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("(of 50)"), std::string::npos) << "every frame ran:\n" << result.output;
}

TEST(FullDisk, ALogThatFillsTheDiskIsSaidAtOnceAndItsFramesAreCounted)
{
  const auto folder = freshTemporaryFolder("full-log");
  const CommandResult result = runCommand(
      "sh -c \"trap '' XFSZ; ulimit -f 300; exec " + std::string(NAO_ROBOT_BINARY) +
          " --body standin --realtime --frames 250 --no-debug --log run.log\" 2>&1; echo nao-status=$?; " +
          NAO_LOG_TOOL_BINARY + " info run.log",
      folder.string());
  std::filesystem::remove_all(folder);
  EXPECT_NE(result.output.find("nao-status=0"), std::string::npos) << result.output;
  const auto warning = result.output.find("nao: warning: log run.log failed after ");
  ASSERT_NE(warning, std::string::npos) << result.output;
  EXPECT_LT(warning, result.output.find("Per-module timing")) << "said while running, not at exit";
  std::smatch written, readable;
  const std::regex writtenLine("log run.log: (\\d+) frames written, 0 dropped, error: "),
      readableLine("frames: (\\d+) ");
  ASSERT_TRUE(std::regex_search(result.output, written, writtenLine)) << result.output;
  ASSERT_TRUE(std::regex_search(result.output, readable, readableLine)) << result.output;
  EXPECT_GT(std::stoi(readable[1]), 0);
  EXPECT_LE(std::stoi(readable[1]), std::stoi(written[1])) << "the summary counts every frame the file holds";
}

TEST(FullDisk, FailedLogsGiveTheirTapBackSoLogsAndSubscriptionsGoOn)
{
  // 40 logs that each fail a few kB after their header (the module graph and every module's parameters, about 76 kB:
  // more than the writer's 64 kB stream buffer, so the limit leaves room for it): more than the 32 taps the motion
  // thread feeds. Then a subscription and a log that fails again must still be taken.
  const auto folder = freshTemporaryFolder("failed-logs");
  const std::string client = std::string(NAO_DEBUG_CLIENT_BINARY) + " --port $port ";
  const CommandResult result = runCommand(
      "sh -c \"trap '' XFSZ; ulimit -f 200; exec " + std::string(NAO_ROBOT_BINARY) +
          " --body standin --realtime --frames 3000 --debug-port 0\" > out.txt 2>&1 & pid=$!; "
          "for i in $(seq 100); do grep -q 'debug channel on port' out.txt && break; sleep 0.1; done; "
          "port=$(sed -n 's/.*debug channel on port \\([0-9]*\\).*/\\1/p' out.txt); "
          "for i in $(seq 40); do " +
          client + "log start log$i.log > /dev/null 2>&1; sleep 0.05; done; " + client +
          "subscribe JointRequest --count 1 > subscribe.txt 2>&1; echo subscribe-status=$?; " + client +
          "log start last.log; echo log-status=$?; kill -TERM $pid; wait $pid; echo nao-status=$?; "
          "cat subscribe.txt; grep -c 'failed after' out.txt",
      folder.string());
  std::filesystem::remove_all(folder);
  EXPECT_NE(result.output.find("subscribe-status=0"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("log-status=0"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("logging to Logs/last.log"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("nao-status=0"), std::string::npos) << result.output;
}
} // namespace
} // namespace nao::test
