#include "Tools/Network/Frame.h"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>
#include <zlib.h>

namespace nao::network
{
namespace
{
// Header layout (byte offsets): magic 0, messageType 4, flags 6, payloadLength 8, payloadCrc 12.
constexpr std::size_t magicOffset = 0;
constexpr std::size_t messageTypeOffset = 4;
constexpr std::size_t flagsOffset = 6;
constexpr std::size_t lengthOffset = 8;
constexpr std::size_t crcOffset = 12;

template<class Unsigned>
void putLittleEndian(Unsigned value, char* out)
{
  for (std::size_t i = 0; i < sizeof(Unsigned); ++i)
    out[i] = static_cast<char>(static_cast<unsigned char>((value >> (8 * i)) & 0xFFu));
}

template<class Unsigned>
Unsigned getLittleEndian(const char* in)
{
  Unsigned value = 0;
  for (std::size_t i = 0; i < sizeof(Unsigned); ++i)
    value =
        static_cast<Unsigned>(value | (static_cast<Unsigned>(static_cast<unsigned char>(in[i])) << (8 * i)));
  return value;
}

constexpr std::array<char, 4> magicBytes{
    static_cast<char>(frameMagic & 0xFF), static_cast<char>((frameMagic >> 8) & 0xFF),
    static_cast<char>((frameMagic >> 16) & 0xFF), static_cast<char>((frameMagic >> 24) & 0xFF)};
} // namespace

std::uint32_t payloadCrc32(std::span<const char> payload)
{
  // zlib's CRC-32 (same polynomial and check value as boost::crc_32_type, several bytes per step).
  uLong crc = ::crc32(0L, Z_NULL, 0);
  crc = ::crc32(crc, reinterpret_cast<const Bytef*>(payload.data()), static_cast<uInt>(payload.size()));
  return static_cast<std::uint32_t>(crc);
}

void encodeFrame(std::uint16_t messageType, std::span<const char> payload, std::vector<char>& out)
{
  if (payload.size() > maxFramePayloadBytes)
    throw std::length_error("frame payload of " + std::to_string(payload.size()) +
                            " bytes exceeds the limit of " + std::to_string(maxFramePayloadBytes) + " bytes");
  std::array<char, frameHeaderBytes> header{};
  putLittleEndian(frameMagic, header.data() + magicOffset);
  putLittleEndian(messageType, header.data() + messageTypeOffset);
  putLittleEndian(std::uint16_t{0}, header.data() + flagsOffset);
  putLittleEndian(static_cast<std::uint32_t>(payload.size()), header.data() + lengthOffset);
  putLittleEndian(payloadCrc32(payload), header.data() + crcOffset);
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), payload.begin(), payload.end());
}

std::string_view toString(FrameError error)
{
  switch (error)
  {
  case FrameError::BadMagic:
    return "bad magic";
  case FrameError::Oversize:
    return "oversize";
  case FrameError::CrcMismatch:
    return "CRC mismatch";
  case FrameError::Truncated:
    return "truncated";
  }
  return "unknown frame error";
}

FrameDecoder::FrameDecoder(std::uint32_t maxPayloadBytes)
{
  setMaxPayloadBytes(maxPayloadBytes);
}

void FrameDecoder::setMaxPayloadBytes(std::uint32_t maxPayloadBytes)
{
  maxPayloadBytes_ = std::min(maxPayloadBytes, maxFramePayloadBytes);
}

void FrameDecoder::feed(std::span<const char> bytes)
{
  if (failed_ || bytes.empty()) return;
  // Dropping the consumed prefix here (not in next()) keeps the views that next() returned valid
  // until the caller feeds again; what remains is at most one partial frame.
  if (readOffset_ > 0)
  {
    buffer_.erase(buffer_.begin(), buffer_.begin() + static_cast<std::ptrdiff_t>(readOffset_));
    readOffset_ = 0;
  }
  buffer_.insert(buffer_.end(), bytes.begin(), bytes.end());
}

DecodeResult FrameDecoder::next()
{
  if (failed_) return {};
  const std::size_t available = bufferedBytes();
  const char* const start = buffer_.data() + readOffset_;
  // Checking the magic as soon as its first byte arrives reports a desync without waiting for a header.
  if (!std::equal(start, start + std::min(available, magicBytes.size()), magicBytes.begin()))
    return fail(FrameError::BadMagic);
  if (available < frameHeaderBytes) return {};
  const auto payloadLength = getLittleEndian<std::uint32_t>(start + lengthOffset);
  if (payloadLength > maxPayloadBytes_)
  {
    const auto messageType =
        getLittleEndian<std::uint16_t>(start + messageTypeOffset); // before fail() frees it
    DecodeResult oversize = fail(FrameError::Oversize);
    oversize.frame.messageType = messageType; // says who sent so much
    return oversize;
  }
  if (available - frameHeaderBytes < payloadLength) return {};

  DecodeResult result;
  result.frame.messageType = getLittleEndian<std::uint16_t>(start + messageTypeOffset);
  result.frame.flags = getLittleEndian<std::uint16_t>(start + flagsOffset);
  result.frame.payload = std::span<const char>(start + frameHeaderBytes, payloadLength);
  readOffset_ += frameHeaderBytes + payloadLength;
  if (payloadCrc32(result.frame.payload) != getLittleEndian<std::uint32_t>(start + crcOffset))
  {
    result.kind = DecodeResult::Kind::Error;
    result.error = FrameError::CrcMismatch;
    result.frame = {};
    return result;
  }
  result.kind = DecodeResult::Kind::Frame;
  return result;
}

DecodeResult FrameDecoder::finish()
{
  if (failed_ || bufferedBytes() == 0) return {};
  return fail(FrameError::Truncated);
}

DecodeResult FrameDecoder::fail(FrameError error)
{
  failed_ = true;
  std::vector<char>().swap(buffer_); // a failed stream's bytes are worthless: give the memory back
  readOffset_ = 0;
  DecodeResult result;
  result.kind = DecodeResult::Kind::Error;
  result.error = error;
  return result;
}
} // namespace nao::network
