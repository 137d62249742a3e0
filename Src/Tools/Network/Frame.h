#pragma once
// Wire format of the debug channel. Every message travels as one frame: a fixed 16-byte little-endian
// header (magic, message type, flags, payload length, CRC-32 of the payload) followed by the payload.
// The magic lets a receiver notice a desynchronised stream at once; the length bound lets it refuse a
// frame before allocating anything; the CRC lets it drop a damaged payload and keep the stream.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace nao::network
{
/// 'NAOD' when the four little-endian bytes are read as text: "DOAN".
inline constexpr std::uint32_t frameMagic = 0x4E414F44;
inline constexpr std::size_t frameHeaderBytes = 16;
/// The protocol's hard limit; receivers may configure a lower one.
inline constexpr std::uint32_t maxFramePayloadBytes = 1u << 20;

/// CRC-32 (IEEE 802.3, zlib polynomial) of a payload.
std::uint32_t payloadCrc32(std::span<const char> payload);

/// Appends one frame (header, then payload) to `out`; what `out` already holds is kept.
/// Throws std::length_error if the payload exceeds maxFramePayloadBytes.
void encodeFrame(std::uint16_t messageType, std::span<const char> payload, std::vector<char>& out);

/// A decoded frame. `payload` points into the decoder's buffer and is valid until its next feed().
struct FrameView
{
  std::uint16_t messageType = 0;
  std::uint16_t flags = 0;
  std::span<const char> payload;
};

enum class FrameError : std::uint8_t
{
  BadMagic,    ///< the stream lost its frame boundaries: the connection must be closed
  Oversize,    ///< the header announces more than the bound: close without allocating the payload
  CrcMismatch, ///< the payload was damaged: the frame is dropped, the stream continues
  Truncated,   ///< the peer closed the connection in the middle of a frame
};

std::string_view toString(FrameError error);
/// A fatal error ends the connection; only CrcMismatch lets the stream continue.
constexpr bool isFatal(FrameError error)
{
  return error != FrameError::CrcMismatch;
}

/// What FrameDecoder::next() found.
struct DecodeResult
{
  enum class Kind : std::uint8_t
  {
    NeedMoreData, ///< no complete frame is buffered (or the decoder has failed)
    Frame,        ///< `frame` holds a complete, CRC-checked frame
    Error,        ///< `error` says why a frame was rejected
  };
  Kind kind = Kind::NeedMoreData;
  FrameView frame; ///< Frame: the frame; Oversize: only its messageType
  FrameError error = FrameError::BadMagic;
};

/// Turns a byte stream, fed in pieces of any size (TCP splits and merges writes), back into frames.
/// Usage: feed() what arrived, then call next() until it returns NeedMoreData.
/// After a fatal error the decoder has failed: it ignores further input and next() returns NeedMoreData.
class FrameDecoder
{
public:
  explicit FrameDecoder(std::uint32_t maxPayloadBytes = maxFramePayloadBytes);

  /// Buffers the bytes. Invalidates the payload views returned by earlier next() calls.
  void feed(std::span<const char> bytes);
  /// Extracts the next frame or error from the buffered bytes.
  DecodeResult next();
  /// Call when the peer closed the stream: returns Truncated if part of a frame is still buffered.
  /// The decoder has failed afterwards if it returned an error.
  DecodeResult finish();

  /// Applies to headers not yet decoded; at most maxFramePayloadBytes.
  void setMaxPayloadBytes(std::uint32_t maxPayloadBytes);
  std::uint32_t maxPayloadBytes() const { return maxPayloadBytes_; }
  bool failed() const { return failed_; }
  std::size_t bufferedBytes() const { return buffer_.size() - readOffset_; }

private:
  DecodeResult fail(FrameError error);

  std::vector<char> buffer_;
  std::size_t readOffset_ = 0; ///< bytes before it belong to frames already returned by next()
  std::uint32_t maxPayloadBytes_;
  bool failed_ = false;
};
} // namespace nao::network
