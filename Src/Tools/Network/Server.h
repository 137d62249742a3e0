#pragma once
// FrameServer: the transport of the debug channel. Runs on its own thread (the Debug thread, never the
// motion thread): each poll() call runs one round of accept / read / write over all connections with
// poll(2), decodes frames and reports them through callbacks. Hostile or broken input never blocks or
// crashes it: a damaged frame is dropped and counted, a desynchronised or oversize stream is closed,
// and a slow reader loses frames (counted) instead of stalling the others.
//
// Not thread-safe: construct, poll(), send() and read the counters from one thread. Only wake() may be
// called from any thread.
#include "Tools/Network/Frame.h"
#include "Tools/Network/ServerTypes.h"
#include "Tools/Network/Socket.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <poll.h>
#include <span>
#include <string>
#include <vector>

namespace nao::network
{
/// Called from poll(). They may call send(), broadcast() and disconnect().
/// With a token, a connection is reported (and may be sent to) only once it has authenticated;
/// rejected connections produce no callbacks, only counters.
struct ServerCallbacks
{
  std::function<void(ConnectionId)> connected;
  std::function<void(ConnectionId, std::uint16_t messageType, std::span<const char> payload)> frame;
  std::function<void(ConnectionId, DisconnectReason)> disconnected;
};

class FrameServer
{
public:
  /// Binds and listens. Throws std::runtime_error naming the address if it cannot bind, or if the address
  /// is not loopback and no token is configured.
  FrameServer(ServerConfig config, ServerCallbacks callbacks);
  ~FrameServer();
  FrameServer(const FrameServer&) = delete;
  FrameServer& operator=(const FrameServer&) = delete;

  /// One round: waits up to timeoutMs (-1: forever) for activity, then accepts, reads, dispatches
  /// callbacks and writes. Returns early on wake().
  void poll(int timeoutMs);
  /// Makes a poll() that is waiting return at once. Thread-safe.
  void wake();

  /// Queues one frame. Returns false (and counts a sendDrop) if the queue bound would be exceeded;
  /// false without counting if the connection is unknown, closing or not yet authenticated.
  /// Throws std::length_error if the payload exceeds maxFramePayloadBytes.
  bool send(ConnectionId id, std::uint16_t messageType, std::span<const char> payload);
  /// Queues the frame to every authenticated connection; returns how many accepted it.
  std::size_t broadcast(std::uint16_t messageType, std::span<const char> payload);
  /// Closes the connection at the end of the current or next round (pending output is discarded).
  void disconnect(ConnectionId id);

  std::uint16_t port() const { return port_; }
  const ServerStats& stats() const { return stats_; }
  std::optional<ConnectionStats> connectionStats(ConnectionId id) const;
  /// Authenticated, open connections.
  std::vector<ConnectionId> connectionIds() const;
  std::size_t queuedOutputBytes(ConnectionId id) const;

private:
  struct Connection;

  void acceptPending();
  void readFrom(Connection& connection);
  void handleDecoded(Connection& connection, const DecodeResult& result);
  void handleFrame(Connection& connection, const FrameView& frame);
  void authenticate(Connection& connection, const FrameView& frame);
  void writeTo(Connection& connection);
  void expireUnauthenticated();
  /// Closes an unauthenticated connection, telling it why first (ServerConfig::refusedMessageType).
  void refuse(Connection& connection, std::string_view reason);
  void expireIdle();
  std::size_t openConnections() const;
  /// Closes a connection to make room for a newcomer (ServerConfig::idleEvictMs); false if none may go.
  bool evictForNewcomer();
  void removeClosed();
  void close(Connection& connection, DisconnectReason reason);
  bool enqueue(Connection& connection, std::uint16_t messageType, std::span<const char> payload);

  ServerConfig config_;
  ServerCallbacks callbacks_;
  detail::FileDescriptor listenSocket_;
  detail::FileDescriptor wakeReadEnd_;
  detail::FileDescriptor wakeWriteEnd_;
  std::uint16_t port_ = 0;
  ConnectionId nextId_ = 1;
  std::map<ConnectionId, std::unique_ptr<Connection>> connections_;
  std::vector<char> readBuffer_;
  std::vector<pollfd> pollFds_;                ///< reused every round
  std::vector<Connection*> polledConnections_; ///< the connection of each pollFds_ entry after the first two
  ServerStats stats_;
};
} // namespace nao::network
