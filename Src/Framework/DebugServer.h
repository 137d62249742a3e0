#pragma once
// The robot side of the debug channel, run on the Debug thread: answers list / get / set / provider / log /
// annotate requests and streams subscribed representations. Subscriptions are taps: the motion thread copies the
// representation into a preallocated ring at the requested rate; this thread serializes and sends. A bad
// message is answered with an error and counted; it never reaches the motion thread.
#include "Framework/Controller.h"
#include "Framework/DebugMessages.h"
#include "Framework/Logger.h"
#include "Tools/Network/Server.h"
#include <atomic>
#include <filesystem>
#include <map>

namespace nao
{
struct DebugSettings
{
  std::string bind = "127.0.0.1"; ///< address to listen on; anything but loopback requires `token`
  std::uint16_t port = 7070;      ///< TCP port; 0 picks a free one
  std::string token;              ///< clients present it first; required when `bind` is not loopback
  /// `log start NAME` writes NAME inside this folder only (relative: to the working directory), never over an
  /// existing file; a name leaving the folder is refused. An empty NAME gets <scenario>-<UTC time>.log.
  std::filesystem::path logDirectory = "Logs";
};

/// Where `log start name` writes: logDirectory/name, or an error saying why not (absolute, leaves the folder,
/// exists).
struct LogPathChoice
{
  std::filesystem::path path;
  std::string error; ///< empty: path is usable
};
LogPathChoice chooseLogPath(const std::filesystem::path& logDirectory, const std::string& name,
                            const std::string& scenario);

class DebugServer
{
public:
  static constexpr double frameRateHz = 1.0 / 0.012;  ///< LoLA packets per second
  static constexpr std::size_t subscriptionRing = 64; ///< records buffered per subscription
  /// Subscriptions of all clients together: the motion thread's taps, less one kept for a log and one for the
  /// sensor health report (SensorHealthReporter).
  static constexpr std::size_t maxSubscriptions = MotionLoop::maxTaps - 2;
  /// Subscriptions of one client, so that one client cannot take every tap from the others; enough for the debug
  /// GUI's 3D view (5) and its plots and table beside it.
  static constexpr std::size_t maxSubscriptionsPerClient = 12;

  DebugServer(const DebugSettings& settings, Controller& controller, Logger& logger);
  ~DebugServer();

  /// One round of network I/O and streaming (the Debug thread calls it in a loop).
  void poll(int timeoutMs);
  void wake() { server_.wake(); }

  std::uint16_t port() const { return server_.port(); }
  std::uint64_t badMessages() const { return badMessages_; }
  /// Subscriptions granted since start (a tap was added); any thread may read it while the server runs.
  std::uint64_t subscriptionsGranted() const { return subscriptionsGranted_.load(std::memory_order_relaxed); }
  const network::ServerStats& networkStats() const { return server_.stats(); }

private:
  friend struct DebugServerFuzzAccess; ///< Fuzz/DebugChannelFuzzer.cpp hands it frames without a socket
  void onFrame(network::ConnectionId client, std::uint16_t type, std::span<const char> payload);
  void onDisconnected(network::ConnectionId client);
  // onFrame's handlers, one per request type; each answers the client (a reply, or the data asked for). The
  // payload's parse errors propagate to onFrame, which counts and answers them.
  void answerList(network::ConnectionId client);
  void subscribe(network::ConnectionId client, std::span<const char> payload);
  void unsubscribe(network::ConnectionId client, std::span<const char> payload);
  void answerParameters(network::ConnectionId client, std::span<const char> payload);
  void setParameter(network::ConnectionId client, std::span<const char> payload);
  void setProvider(network::ConnectionId client, std::span<const char> payload);
  void startLog(network::ConnectionId client, std::span<const char> payload);
  void stopLog(network::ConnectionId client);
  void annotateLog(network::ConnectionId client, std::span<const char> payload);
  template<class T>
  void send(network::ConnectionId client, debug::MessageType type, const T& message);
  void reply(network::ConnectionId client, bool ok, std::string message);
  debug::ListReply list() const;
  void streamSubscriptions();

  struct Subscription
  {
    network::ConnectionId client;
    std::shared_ptr<Tap> tap;
  };

  Controller& controller_;
  std::filesystem::path logDirectory_; ///< where `log start` may write
  Logger& logger_;
  network::FrameServer server_;
  std::vector<Subscription> subscriptions_;
  std::uint64_t badMessages_ = 0;
  std::atomic<std::uint64_t> subscriptionsGranted_{0};
  std::vector<char> buffer_;
  std::vector<char> listReply_;     ///< the serialized list reply for the plan of listReplyPlan_
  std::uint64_t listReplyPlan_ = 0; ///< Controller::planVersion() listReply_ was made for
};
} // namespace nao
