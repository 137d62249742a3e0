// How the robot binary ends when LoLA ends: the served simulator finishing its run closes the connection after a
// complete frame, and the binary ends at once with status 0; a server that stops in the middle of a frame is a
// loss, retried for 5 s, status 3.
#include "Platform/LoLA/Tests/LolaTestSupport.h"
#include "Tools/Testing/RunCommand.h"
#include "Tools/Testing/TemporaryFolder.h"
#include <chrono>
#include <filesystem>
#include <gtest/gtest.h>
#include <memory>
#include <regex>
#include <thread>

namespace nao::test
{
namespace
{
/// The number after `name=` in `output`, or -1.
long long valueOf(const std::string& output, const std::string& name)
{
  std::smatch match;
  if (!std::regex_search(output, match, std::regex(name + "=(-?[0-9]+)"))) return -1;
  return std::stoll(match[1]);
}

TEST(LolaClose, TheServedSimulatorsEndEndsTheRobotBinaryAtOnceWithStatus0)
{
  const auto folder = freshTemporaryFolder("lola-close");
  // The README's pair (README.md, "The robot binary"), for 3 simulated seconds; each side prints when it ended.
  const CommandResult result =
      runCommand("(" + std::string(NAO_SIMULATOR_BINARY) +
                     " serve stand --socket sim.sock --lockstep --minutes 0.05 --no-plots --output out > "
                     "serve.txt 2>&1; "
                     "echo serve-status=$? serve-end=$(date +%s%N) >> serve.txt) & " +
                     NAO_ROBOT_BINARY +
                     " --scenario stand --lola-socket sim.sock --no-debug 2>&1; echo nao-status=$? "
                     "nao-end=$(date +%s%N); "
                     "wait; cat serve.txt",
                 folder.string());
  std::filesystem::remove_all(folder);
  EXPECT_EQ(valueOf(result.output, "nao-status"), 0) << result.output;
  EXPECT_EQ(valueOf(result.output, "serve-status"), 0) << result.output;
  EXPECT_NE(result.output.find("nao: the body closed the connection (LoLA at sim.sock ended after a complete "
                               "frame)"),
            std::string::npos)
      << result.output;
  EXPECT_EQ(result.output.find("was lost"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("LoLA: 250 packets, 0 bad"), std::string::npos) << "every frame:\n"
                                                                               << result.output;
  // At once: before, the binary retried the vanished socket for 5 s after the simulator had ended.
  const long long naoEnd = valueOf(result.output, "nao-end"), serveEnd = valueOf(result.output, "serve-end");
  ASSERT_GT(naoEnd, 0);
  ASSERT_GT(serveEnd, 0);
  EXPECT_LT(static_cast<double>(naoEnd - serveEnd) * 1e-9, 1.0) << result.output;
}

TEST(LolaClose, AServerThatStopsInTheMiddleOfAFrameIsALossAndEndsWithStatus3)
{
  TempDirectory directory;
  CommandResult result;
  auto server = std::make_unique<RawLolaServer>(directory.socketPath());
  std::thread robot(
      [&]
      {
        result = runCommand(std::string(NAO_ROBOT_BINARY) + " --scenario stand --no-debug --lola-socket " +
                            directory.socketPath());
      });
  const std::vector<std::uint8_t> frame = encoded(knownSensorFrame(0.1f));
  LolaActuatorFrame answer;
  try
  {
    server->acceptClient();
    for (int i = 0; i < 3; ++i)
    {
      server->send(frame);
      EXPECT_TRUE(server->readAnswer(answer));
    }
    server->send(std::span(frame.data(), frame.size() / 2));
  }
  catch (const std::exception& error)
  {
    ADD_FAILURE() << error.what();
  }
  server.reset(); // the server dies in the middle of a frame
  robot.join();
  EXPECT_EQ(result.status, 3) << result.output;
  EXPECT_NE(result.output.find("nao: LoLA at " + directory.socketPath() + " was lost (no LoLA server at"),
            std::string::npos)
      << result.output;
  EXPECT_EQ(result.output.find("the body closed the connection"), std::string::npos) << result.output;
}
} // namespace
} // namespace nao::test
