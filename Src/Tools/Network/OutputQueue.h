#pragma once
// Bytes waiting to be written to one non-blocking socket, with a bound: a frame that would exceed it is
// refused whole (never cut), so a slow reader loses frames instead of stalling the writer or growing
// without limit.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace nao::network
{
class OutputQueue
{
public:
  explicit OutputQueue(std::size_t maxQueuedBytes) : maxQueuedBytes_(maxQueuedBytes) {}

  /// Encodes and queues one frame; false if it would exceed the bound (nothing is queued then).
  bool push(std::uint16_t messageType, std::span<const char> payload);

  enum class WriteStatus : std::uint8_t
  {
    Drained,    ///< everything was written
    WouldBlock, ///< the socket buffer is full; the rest waits for the next round
    Failed,     ///< the socket is broken (peer gone); errno tells why
  };
  /// Writes as much as the socket takes without blocking; adds the bytes written to `bytesWritten`.
  WriteStatus writeTo(int socket, std::uint64_t& bytesWritten);

  std::size_t queuedBytes() const { return bytes_.size() - writeOffset_; }
  std::size_t maxQueuedBytes() const { return maxQueuedBytes_; }

private:
  std::vector<char> bytes_;
  std::size_t writeOffset_ = 0; ///< bytes before it have been written
  std::size_t maxQueuedBytes_;
};
} // namespace nao::network
