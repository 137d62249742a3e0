#pragma once
// Both ends of the LoLA Unix stream socket: a move-only socket handle with connect/listen/accept, bounded
// writes, and a fixed-capacity receive buffer that cuts the byte stream into frames (partial reads, several
// frames per read, garbage between frames). Nothing allocates after construction, except listen(), which runs
// at start-up.
#include "Platform/LoLA/LolaProtocol.h"
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace nao
{
class UnixSocket
{
public:
  UnixSocket() = default;
  explicit UnixSocket(int fd) : fd_(fd) {}
  UnixSocket(UnixSocket&& other) noexcept : fd_(other.release()) {}
  UnixSocket& operator=(UnixSocket&& other) noexcept;
  UnixSocket(const UnixSocket&) = delete;
  UnixSocket& operator=(const UnixSocket&) = delete;
  ~UnixSocket() { close(); }

  /// One connection attempt to a listening socket at `path`; invalid on failure, errno tells why.
  static UnixSocket connectTo(const char* path);
  /// A listening socket at `path`. A stale socket file (nobody accepts on it) is removed first; a live server
  /// or a file that is not a socket is an error. Throws std::runtime_error naming the path and the reason.
  static UnixSocket listenAt(const std::string& path, int backlog = 4);
  /// A pending connection of a listening socket, or invalid if none is waiting (never blocks).
  UnixSocket acceptPending() const;

  int fd() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  int release();
  void close();

private:
  int fd_ = -1;
};

/// Waits until `fd` is readable or hung up. timeoutSeconds < 0: no limit. False on timeout.
bool waitReadable(int fd, double timeoutSeconds);
/// Writes all bytes (MSG_NOSIGNAL), waiting at most timeoutSeconds (< 0: no limit) for room in the socket
/// buffer. False if the peer is gone, an error occurred or the time ran out (errno ETIMEDOUT); then the
/// stream may hold a partial frame and the connection must be closed.
bool writeAll(int fd, std::span<const std::uint8_t> bytes, double timeoutSeconds);
/// "<what>: <strerror(error)>" into `out` without allocating.
void describeSystemError(const char* what, int error, FixedString<159>& out);

enum class LolaReadResult : std::uint8_t
{
  data,       ///< at least one byte arrived
  wouldBlock, ///< nothing available (non-blocking read)
  closed,     ///< the peer closed the connection
  failed,     ///< a socket error (errno)
};

enum class LolaExtractStatus : std::uint8_t
{
  frame,    ///< one frame was decoded into the caller's struct
  needMore, ///< no complete frame buffered
  /// Bytes that cannot be a frame were dropped; `decode.error` says why (reported once per bad frame).
  malformed,
};

struct LolaExtractResult
{
  LolaExtractStatus status = LolaExtractStatus::needMore;
  LolaDecodeResult decode;
};

/// Receive side of a LoLA stream. Frames are found by decoding: a complete map ends a frame. After a
/// malformed frame the buffer skips to the next byte that could start a non-empty map and tries again;
/// failures while resynchronising are not reported again, and the resynchronisation ends with the next good
/// frame or when the buffer runs empty (the next bytes that arrive are taken as a new frame).
class LolaStreamBuffer
{
public:
  static constexpr std::size_t capacity = 8192; ///< bytes; a frame that does not fit is malformed

  /// One read(2) into the free space. `block` false: returns wouldBlock instead of waiting.
  LolaReadResult readFrom(int fd, bool block);

  /// The next frame from the buffered bytes; `decode` is decodeSensorFrame or decodeActuatorFrame.
  template<class Frame>
  LolaExtractResult extract(Frame& frame, LolaDecodeResult (*decode)(std::span<const std::uint8_t>, Frame&))
  {
    LolaExtractResult result;
    while (!handle(decode(pending(), frame), result))
    {
    }
    return result;
  }

  void clear();
  std::size_t buffered() const { return end_ - begin_; }
  /// Bytes dropped while resynchronising since construction.
  std::uint64_t droppedBytes() const { return droppedBytes_; }

private:
  std::span<const std::uint8_t> pending() const { return {bytes_.data() + begin_, end_ - begin_}; }
  /// Acts on one decode attempt of pending(); true when `result` is final, false to decode again.
  bool handle(const LolaDecodeResult& decoded, LolaExtractResult& result);
  void skipToNextMapHeader();

  std::array<std::uint8_t, capacity> bytes_{};
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  bool resynchronising_ = false;
  std::uint64_t droppedBytes_ = 0;
};
} // namespace nao
