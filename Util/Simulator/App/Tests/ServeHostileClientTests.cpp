// Simulator serve against a hostile LoLA client (found by probing from outside): absurd Positions are clamped by
// the plant and counted in the summary, a client that leaves is named as why the run ended, and a second serve
// on a served socket is refused without taking the first one's robot.
#include "Platform/LoLA/LolaProtocol.h"
#include "Tools/Testing/RunCommand.h"
#include "Tools/Testing/TemporaryFolder.h"
#include <array>
#include <cstring>
#include <filesystem>
#include <gtest/gtest.h>
#include <string>
#include <sys/socket.h>
#include <sys/un.h>
#include <thread>
#include <unistd.h>

namespace nao::test
{
namespace
{
const std::string simulator = NAO_SIMULATOR_BINARY;

/// Connects to `path` (waiting up to 30 s for the server), answers `frames` sensor frames with `answer`, then
/// leaves. Returns the frames answered.
int hostileClient(const std::string& path, int frames, const LolaActuatorFrame& answer)
{
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
  int fd = -1;
  for (int attempt = 0; attempt < 300 && fd < 0; ++attempt)
  {
    fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0)
    {
      ::close(fd);
      fd = -1;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  if (fd < 0) return 0;
  std::array<std::uint8_t, lolaActuatorFrameMaxBytes> bytes{};
  const std::size_t size = encodeActuatorFrame(answer, bytes);
  std::array<std::uint8_t, lolaSensorFrameBytes> sensors{};
  int answered = 0;
  while (answered < frames &&
         ::recv(fd, sensors.data(), sensors.size(), MSG_WAITALL) == static_cast<ssize_t>(sensors.size()))
  {
    if (::send(fd, bytes.data(), size, MSG_NOSIGNAL) != static_cast<ssize_t>(size)) break;
    ++answered;
  }
  ::close(fd);
  return answered;
}

TEST(ServeHostileClient, AbsurdPositionsAreClampedCountedAndTheClientLeavingIsNamed)
{
  const auto folder = freshTemporaryFolder("serve-absurd");
  const std::string socket = (folder / "lola").string();
  LolaActuatorFrame answer;
  answer.setAllPresent();
  answer.position.fill(1e30f);
  answer.stiffness.fill(std::numeric_limits<float>::quiet_NaN());
  int answered = 0;
  std::thread client([&] { answered = hostileClient(socket, 100, answer); });
  const CommandResult result = runCommand(simulator + " serve stand --socket " + socket +
                                              " --lockstep --minutes 1 --wait 30 --no-plots --output out",
                                          folder.string());
  client.join();
  std::filesystem::remove_all(folder);
  EXPECT_EQ(answered, 100);
  EXPECT_NE(result.output.find("run ended early: the LoLA client left ("), std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("2500 Positions outside the joints' ranges or not finite (clamped"),
            std::string::npos)
      << "100 answers of 25 joints:\n"
      << result.output;
}

TEST(ServeHostileClient, ASecondServeOnAServedSocketIsRefusedAndTheFirstRunGoesOn)
{
  const auto folder = freshTemporaryFolder("serve-twice");
  const std::string socket = (folder / "lola").string();
  LolaActuatorFrame answer; // a client that sends empty answers: the posture is kept
  int answered = 0;
  CommandResult first, second;
  std::thread firstServe(
      [&]
      {
        first = runCommand(simulator + " serve stand --socket " + socket +
                               " --lockstep --minutes 1 --wait 30 --no-plots --output first",
                           folder.string());
      });
  std::thread client([&] { answered = hostileClient(socket, 3000, answer); });
  // The first run is well under way (its client connected) when the second serve starts.
  for (int i = 0; i < 300 && !std::filesystem::exists(socket); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  second = runCommand(simulator + " serve stand --socket " + socket +
                          " --lockstep --minutes 1 --wait 2 --no-plots "
                          "--output second",
                      folder.string());
  client.join();
  firstServe.join();
  std::filesystem::remove_all(folder);
  EXPECT_NE(second.status, 0) << second.output;
  EXPECT_NE(second.output.find("is served by another running Simulator serve"), std::string::npos)
      << second.output;
  EXPECT_EQ(answered, 3000) << "the first run kept its client:\n" << first.output;
}
} // namespace
} // namespace nao::test
