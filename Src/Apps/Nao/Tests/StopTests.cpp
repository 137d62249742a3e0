// The robot binary stops when asked, whatever its body is doing: SIGTERM (systemd's stop, a closed terminal's
// SIGHUP is not ours to take) must end it within a second also while LoLA sends nothing.
#include "Tools/Testing/RunCommand.h"
#include "Tools/Testing/TemporaryFolder.h"
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
/// A LoLA server that accepts the robot, sends `prefix` (nothing, or the start of a packet) and then nothing more
/// until the test ends; runs the binary against it and sends SIGTERM once it has started.
CommandResult stopAgainstSilentLola(const std::string& prefix, const std::string& name)
{
  const auto folder = freshTemporaryFolder(name);
  const auto socketPath = folder / "lola";
  const int server = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, socketPath.c_str(), sizeof address.sun_path - 1);
  EXPECT_EQ(::bind(server, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  EXPECT_EQ(::listen(server, 1), 0);
  int client = -1;
  std::thread lola(
      [&]
      {
        client = ::accept(server, nullptr, nullptr);
        if (client >= 0 && !prefix.empty()) ::send(client, prefix.data(), prefix.size(), MSG_NOSIGNAL);
      });
  // Up to 10 s for SIGTERM to work (it takes ~50 ms); a binary still running then is killed and reported.
  const CommandResult result = runCommand(
      std::string(NAO_ROBOT_BINARY) + " --scenario stand --no-debug --lola-socket " + socketPath.string() +
          " > out.txt 2>&1 & pid=$!; for i in $(seq 300); do grep -q \"^robot '\" out.txt && break; sleep "
          "0.1; "
          "done; sleep 0.3; kill -TERM $pid; for i in $(seq 100); do kill -0 $pid 2> /dev/null || break; "
          "sleep 0.1; done; if kill -0 $pid 2> /dev/null; then echo still-running; kill -KILL $pid; fi; "
          "wait $pid; echo nao-status=$?; cat out.txt",
      folder.string());
  lola.join();
  if (client >= 0) ::close(client);
  ::close(server);
  std::filesystem::remove_all(folder);
  return result;
}

TEST(StopSignal, SigtermEndsTheBinaryWhileLolaSendsNothing)
{
  const CommandResult result = stopAgainstSilentLola("", "silent-lola");
  EXPECT_EQ(result.output.find("still-running"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("nao: stopped by signal 15"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("nao-status=0"), std::string::npos) << result.output;
}

TEST(StopSignal, SigtermEndsTheBinaryWhileLolaStopsInTheMiddleOfAPacket)
{
  // A msgpack map of 15 entries and the first key's header: a packet begun and never finished.
  const CommandResult result = stopAgainstSilentLola(std::string("\x8f\xa5Joint", 7), "half-packet");
  EXPECT_EQ(result.output.find("still-running"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("nao: stopped by signal 15"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("nao-status=0"), std::string::npos) << result.output;
}
} // namespace
} // namespace nao::test
