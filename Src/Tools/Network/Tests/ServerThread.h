#pragma once
// Test harness: a FrameServer polled on its own thread, as on the robot's Debug thread. It echoes every
// frame of type echoType, records all events, and runs test code between poll rounds (the server is not
// thread-safe, so the test thread never touches it directly).
#include "Tools/Network/Client.h"
#include "Tools/Network/Server.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace nao::network::test
{
inline constexpr std::uint16_t helloType = 1;
inline constexpr std::uint16_t echoType = 2;
/// Generous: a deadline only ends a wait for something that is not going to happen.
inline constexpr std::chrono::milliseconds patience{10000};

struct ServerEvent
{
  enum class Kind
  {
    Connected,
    Frame,
    Disconnected
  };
  Kind kind = Kind::Connected;
  ConnectionId id = 0;
  std::uint16_t messageType = 0;
  std::vector<char> payload;
  DisconnectReason reason = DisconnectReason::PeerClosed;
};

class ServerThread
{
public:
  explicit ServerThread(ServerConfig config = {});
  ~ServerThread();

  std::uint16_t port() const { return port_; }

  /// Runs `task` on the server thread between two poll rounds and returns its result.
  template<class Task>
  auto run(Task task) -> decltype(task(std::declval<FrameServer&>()))
  {
    using Result = decltype(task(std::declval<FrameServer&>()));
    auto promise = std::make_shared<std::promise<Result>>();
    std::future<Result> future = promise->get_future();
    post(
        [promise, task = std::move(task)](FrameServer& server) mutable
        {
          if constexpr (std::is_void_v<Result>)
          {
            task(server);
            promise->set_value();
          }
          else
            promise->set_value(task(server));
        });
    return future.get();
  }

  /// Polls `condition` on the server thread until it holds; false if it did not within `patience`.
  bool waitUntil(const std::function<bool(FrameServer&)>& condition);
  ServerStats stats();
  std::vector<ServerEvent> events();
  /// Waits for the n-th (1-based) Connected event and returns its connection id, 0 if none came.
  ConnectionId waitForConnection(std::size_t n);
  /// Waits for the Disconnected event of `id`.
  std::optional<DisconnectReason> waitForDisconnect(ConnectionId id);

private:
  void post(std::function<void(FrameServer&)> task);
  void loop();
  void record(ServerEvent event);

  std::unique_ptr<FrameServer> server_;
  std::uint16_t port_ = 0;
  std::mutex mutex_;
  std::condition_variable eventsChanged_;
  std::deque<std::function<void(FrameServer&)>> tasks_;
  std::vector<ServerEvent> events_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

/// Connects a client to the local server.
FrameClient connectClient(std::uint16_t port);
/// Sends an echo request and checks that the same payload comes back.
::testing::AssertionResult echoWorks(FrameClient& client, const std::string& text);
std::vector<char> bytesOf(const std::string& text);
/// Waits until the server has closed the client's connection (the client sees the end of the stream); false when
/// nothing arrived for `patience` yet the connection stayed open.
bool serverClosed(FrameClient& client);
} // namespace nao::network::test
