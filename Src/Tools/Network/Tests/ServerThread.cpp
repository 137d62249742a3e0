#include "ServerThread.h"

#include <gtest/gtest.h>

namespace nao::network::test
{
ServerThread::ServerThread(ServerConfig config)
{
  ServerCallbacks callbacks;
  callbacks.connected = [this](ConnectionId id) { record({ServerEvent::Kind::Connected, id, 0, {}, {}}); };
  callbacks.frame = [this](ConnectionId id, std::uint16_t type, std::span<const char> payload)
  {
    record({ServerEvent::Kind::Frame, id, type, {payload.begin(), payload.end()}, {}});
    if (type == echoType) server_->send(id, echoType, payload);
  };
  callbacks.disconnected = [this](ConnectionId id, DisconnectReason reason) {
    record({ServerEvent::Kind::Disconnected, id, 0, {}, reason});
  };
  server_ = std::make_unique<FrameServer>(std::move(config), std::move(callbacks));
  port_ = server_->port();
  thread_ = std::thread([this] { loop(); });
}

ServerThread::~ServerThread()
{
  stop_ = true;
  server_->wake();
  thread_.join();
}

void ServerThread::post(std::function<void(FrameServer&)> task)
{
  {
    std::lock_guard lock(mutex_);
    tasks_.push_back(std::move(task));
  }
  server_->wake();
}

void ServerThread::loop()
{
  while (!stop_)
  {
    server_->poll(50);
    std::deque<std::function<void(FrameServer&)>> tasks;
    {
      std::lock_guard lock(mutex_);
      tasks.swap(tasks_);
    }
    for (auto& task : tasks)
      task(*server_);
  }
}

void ServerThread::record(ServerEvent event)
{
  {
    std::lock_guard lock(mutex_);
    events_.push_back(std::move(event));
  }
  eventsChanged_.notify_all();
}

bool ServerThread::waitUntil(const std::function<bool(FrameServer&)>& condition)
{
  const auto deadline = std::chrono::steady_clock::now() + patience;
  while (std::chrono::steady_clock::now() < deadline)
  {
    if (run([&condition](FrameServer& server) { return condition(server); })) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return false;
}

ServerStats ServerThread::stats()
{
  return run([](FrameServer& server) { return server.stats(); });
}

std::vector<ServerEvent> ServerThread::events()
{
  std::lock_guard lock(mutex_);
  return events_;
}

ConnectionId ServerThread::waitForConnection(std::size_t n)
{
  std::unique_lock lock(mutex_);
  ConnectionId found = 0;
  eventsChanged_.wait_for(lock, patience,
                          [&]
                          {
                            std::size_t seen = 0;
                            for (const ServerEvent& event : events_)
                              if (event.kind == ServerEvent::Kind::Connected && ++seen == n) found = event.id;
                            return found != 0;
                          });
  return found;
}

std::optional<DisconnectReason> ServerThread::waitForDisconnect(ConnectionId id)
{
  std::unique_lock lock(mutex_);
  std::optional<DisconnectReason> reason;
  eventsChanged_.wait_for(lock, patience,
                          [&]
                          {
                            for (const ServerEvent& event : events_)
                              if (event.kind == ServerEvent::Kind::Disconnected && event.id == id)
                                reason = event.reason;
                            return reason.has_value();
                          });
  return reason;
}

FrameClient connectClient(std::uint16_t port)
{
  return FrameClient("127.0.0.1", port, patience);
}

bool serverClosed(FrameClient& client)
{
  try
  {
    while (client.receiveFrame(patience).has_value())
    {
    }
    return false;
  }
  catch (const ConnectionClosedError&)
  {
    return true;
  }
}

std::vector<char> bytesOf(const std::string& text)
{
  return {text.begin(), text.end()};
}

::testing::AssertionResult echoWorks(FrameClient& client, const std::string& text)
{
  try
  {
    client.sendFrame(echoType, bytesOf(text));
    const std::optional<Frame> answer = client.receiveFrame(patience);
    if (!answer) return ::testing::AssertionFailure() << "no echo of '" << text << "'";
    if (answer->messageType != echoType || answer->payload != bytesOf(text))
      return ::testing::AssertionFailure() << "wrong echo of '" << text << "'";
    return ::testing::AssertionSuccess();
  }
  catch (const std::exception& error)
  {
    return ::testing::AssertionFailure() << "echo of '" << text << "' failed: " << error.what();
  }
}
} // namespace nao::network::test
