#pragma once
// A fake robot for the debug GUI's hostile tests: a debug-channel server on a free loopback port, on a thread of
// its own, that answers the GUI as configured: a list reply of any size and with any names, a `refused` reply
// with any text, and a flood of Data frames of a representation the GUI does not know. It counts what it got.
#include "Framework/DebugMessages.h"
#include <array>
#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

namespace nao::gui::test
{
class FakeRobot
{
public:
  struct Behaviour
  {
    debug::ListReply list;
    /// Not empty: the first message is answered with a `refused` frame of this text, then the connection closed.
    std::string refusal;
    /// Not empty: once the list was sent, Data frames of this representation as fast as the socket takes them.
    std::string flood;
    std::vector<char> floodPayload =
        std::vector<char>(48, 'x'); ///< the flooded frames' representation archive
    /// Replies (not the list) are held back this long while the flood goes on (a robot that answers late).
    double replyDelaySeconds = 0;
    /// The parameters of any module asked for (getParameters): this TOML text.
    std::string parametersToml = "answered = true\n";
  };

  explicit FakeRobot(Behaviour behaviour);
  ~FakeRobot();
  FakeRobot(const FakeRobot&) = delete;
  FakeRobot& operator=(const FakeRobot&) = delete;

  std::uint16_t port() const { return port_; }
  /// Messages received of a type (debug::MessageType).
  std::uint64_t received(debug::MessageType type) const
  {
    return received_[static_cast<std::size_t>(type) % received_.size()];
  }
  std::uint64_t dataSent() const { return dataSent_; }
  std::uint64_t connections() const { return connections_; }
  /// Closes the connection and ends the thread.
  void stop();

private:
  void run();

  Behaviour behaviour_;
  int listener_ = -1;
  std::uint16_t port_ = 0;
  std::atomic<bool> stop_{false};
  std::array<std::atomic<std::uint64_t>, 16> received_{};
  std::atomic<std::uint64_t> dataSent_{0}, connections_{0};
  std::thread thread_;
};

/// A list reply with `count` representations named `prefix<i>`, provided by modules of ten each that require the
/// ten of the module before (a chain of modules, as wide as a real scenario's graph is per module).
debug::ListReply largeGraph(int count, const std::string& prefix = "Representation");

/// The list entry of a representation this binary knows (its field list from the representation table).
debug::RepresentationEntry knownRepresentation(const std::string& name);
/// The binary archive of a default object of a representation this binary knows.
std::vector<char> defaultPayload(const std::string& name);

/// This process's resident memory (VmRSS of /proc/self/status), MB.
double residentMegabytes();
} // namespace nao::gui::test
