#pragma once
// FrameClient: a blocking client of FrameServer for the command-line client and tests. Every blocking
// call takes a timeout, so a dead server never hangs the caller.
#include "Tools/Network/Frame.h"
#include "Tools/Network/Socket.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace nao::network
{
/// The server closed or reset the connection; the client is disconnected afterwards.
class ConnectionClosedError : public std::runtime_error
{
public:
  using std::runtime_error::runtime_error;
};

/// A received frame that owns its payload.
struct Frame
{
  std::uint16_t messageType = 0;
  std::vector<char> payload;
};

class FrameClient
{
public:
  FrameClient() = default;
  /// Connects at once; see connect().
  FrameClient(const std::string& host, std::uint16_t port, std::chrono::milliseconds timeout);

  /// Throws std::runtime_error naming host and port if the connection fails or takes longer than timeout.
  void connect(const std::string& host, std::uint16_t port, std::chrono::milliseconds timeout);
  void close();
  bool connected() const { return socket_.valid(); }

  /// Sends one frame; throws ConnectionClosedError if the peer is gone, std::runtime_error on timeout.
  void sendFrame(std::uint16_t messageType, std::span<const char> payload,
                 std::chrono::milliseconds timeout = std::chrono::seconds(5));
  /// Sends bytes as they are, for tests and tools that need split, merged or damaged frames.
  void sendRaw(std::span<const char> bytes, std::chrono::milliseconds timeout = std::chrono::seconds(5));
  /// Half-closes: the server sees the end of the stream, the client can still receive.
  void shutdownSending();

  /// Waits up to timeout for a frame; std::nullopt on timeout. Frames with a damaged payload are skipped
  /// and counted (crcDrops()). Throws ConnectionClosedError when the server closes, std::runtime_error
  /// (and disconnects) on a desynchronised or oversize stream.
  std::optional<Frame> receiveFrame(std::chrono::milliseconds timeout);

  std::uint64_t crcDrops() const { return crcDrops_; }
  void setMaxPayloadBytes(std::uint32_t maxPayloadBytes) { decoder_.setMaxPayloadBytes(maxPayloadBytes); }
  int nativeHandle() const { return socket_.get(); }

private:
  /// Waits until the socket is ready for `events` or the deadline passes; false on timeout.
  bool waitFor(short events, std::chrono::steady_clock::time_point deadline) const;
  [[noreturn]] void failClosed(const std::string& what);

  detail::FileDescriptor socket_;
  FrameDecoder decoder_;
  std::vector<char> sendBuffer_;
  std::vector<char> receiveBuffer_;
  std::uint64_t crcDrops_ = 0;
};
} // namespace nao::network
