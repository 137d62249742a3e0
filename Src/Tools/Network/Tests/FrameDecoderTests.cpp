#include "Tools/Network/Frame.h"
#include "Tools/Testing/AllocationCounter.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

namespace nao::network
{
namespace
{
struct DecodedFrame
{
  std::uint16_t messageType;
  std::vector<char> payload;
  bool operator==(const DecodedFrame&) const = default;
};

std::vector<char> patternPayload(std::size_t size, unsigned seed)
{
  std::vector<char> payload(size);
  std::mt19937 random(seed);
  for (char& byte : payload)
    byte = static_cast<char>(random() & 0xFF);
  return payload;
}

/// Three frames of different sizes, the empty payload included.
std::vector<DecodedFrame> sampleFrames()
{
  return {
      {7, {}}, {42, patternPayload(1, 1)}, {3, patternPayload(1000, 2)}, {65535, patternPayload(70000, 3)}};
}

std::vector<char> encodeAll(const std::vector<DecodedFrame>& frames)
{
  std::vector<char> stream;
  for (const DecodedFrame& frame : frames)
    encodeFrame(frame.messageType, frame.payload, stream);
  return stream;
}

/// A header written byte by byte from the specification, independent of encodeFrame.
std::vector<char> handMadeHeader(std::uint32_t magic, std::uint16_t type, std::uint16_t flags,
                                 std::uint32_t length, std::uint32_t crc)
{
  std::vector<char> header;
  const auto put = [&header](std::uint64_t value, int bytes)
  {
    for (int i = 0; i < bytes; ++i)
      header.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
  };
  put(magic, 4);
  put(type, 2);
  put(flags, 2);
  put(length, 4);
  put(crc, 4);
  return header;
}

/// Feeds `stream` in pieces of the given sizes (cycled) and collects what the decoder reports.
struct Collected
{
  std::vector<DecodedFrame> frames;
  std::vector<FrameError> errors;
};

Collected decodeInPieces(FrameDecoder& decoder, const std::vector<char>& stream,
                         const std::vector<std::size_t>& pieces)
{
  Collected collected;
  std::size_t offset = 0;
  for (std::size_t i = 0; offset < stream.size(); ++i)
  {
    const std::size_t size = std::min(pieces[i % pieces.size()], stream.size() - offset);
    decoder.feed(std::span<const char>(stream.data() + offset, size));
    offset += size;
    for (DecodeResult result = decoder.next(); result.kind != DecodeResult::Kind::NeedMoreData;
         result = decoder.next())
    {
      if (result.kind == DecodeResult::Kind::Frame)
        collected.frames.push_back(
            {result.frame.messageType, {result.frame.payload.begin(), result.frame.payload.end()}});
      else
        collected.errors.push_back(result.error);
    }
  }
  return collected;
}
} // namespace

TEST(FrameEncoding, HeaderMatchesTheSpecification)
{
  const std::string payload = "123456789";
  std::vector<char> out{'x'};
  encodeFrame(0x0102, payload, out);
  // 0xCBF43926 is the published CRC-32 check value of "123456789".
  std::vector<char> expected{'x'};
  const std::vector<char> header = handMadeHeader(0x4E414F44, 0x0102, 0, 9, 0xCBF43926);
  expected.insert(expected.end(), header.begin(), header.end());
  expected.insert(expected.end(), payload.begin(), payload.end());
  EXPECT_EQ(out, expected);
  EXPECT_EQ(std::string(out.begin() + 1, out.begin() + 5), "DOAN"); // 'NAOD' little-endian
}

TEST(FrameEncoding, RefusesPayloadsOverTheProtocolLimit)
{
  std::vector<char> out;
  const std::vector<char> limit(maxFramePayloadBytes);
  EXPECT_NO_THROW(encodeFrame(1, limit, out));
  const std::vector<char> tooLarge(maxFramePayloadBytes + 1);
  EXPECT_THROW(encodeFrame(1, tooLarge, out), std::length_error);
}

TEST(FrameDecoder, ByteByByteFeedingYieldsEveryFrameExactlyWhenComplete)
{
  const std::vector<DecodedFrame> frames = sampleFrames();
  const std::vector<char> stream = encodeAll(frames);
  FrameDecoder decoder;
  std::vector<DecodedFrame> decoded;
  std::size_t nextFrameEnd = frameHeaderBytes + frames[0].payload.size();
  for (std::size_t i = 0; i < stream.size(); ++i)
  {
    decoder.feed(std::span<const char>(&stream[i], 1));
    const DecodeResult result = decoder.next();
    if (i + 1 < nextFrameEnd)
    {
      ASSERT_EQ(result.kind, DecodeResult::Kind::NeedMoreData) << "byte " << i;
      continue;
    }
    ASSERT_EQ(result.kind, DecodeResult::Kind::Frame) << "byte " << i;
    decoded.push_back({result.frame.messageType, {result.frame.payload.begin(), result.frame.payload.end()}});
    EXPECT_EQ(decoder.next().kind, DecodeResult::Kind::NeedMoreData);
    if (decoded.size() < frames.size())
      nextFrameEnd += frameHeaderBytes + frames[decoded.size()].payload.size();
  }
  EXPECT_EQ(decoded, frames);
  EXPECT_EQ(decoder.bufferedBytes(), 0u);
  EXPECT_EQ(decoder.finish().kind, DecodeResult::Kind::NeedMoreData);
}

TEST(FrameDecoder, ArbitraryPieceSizesAndMergedFramesGiveTheSameFrames)
{
  const std::vector<DecodedFrame> frames = sampleFrames();
  const std::vector<char> stream = encodeAll(frames);
  std::mt19937 random(1234);
  std::uniform_int_distribution<std::size_t> pieceSize(1, 9000);
  for (int trial = 0; trial < 20; ++trial)
  {
    std::vector<std::size_t> pieces(50);
    for (std::size_t& size : pieces)
      size = pieceSize(random);
    FrameDecoder decoder;
    const Collected collected = decodeInPieces(decoder, stream, pieces);
    EXPECT_EQ(collected.frames, frames) << "trial " << trial;
    EXPECT_TRUE(collected.errors.empty());
  }
  FrameDecoder wholeStream;
  EXPECT_EQ(decodeInPieces(wholeStream, stream, {stream.size()}).frames, frames);
}

TEST(FrameDecoder, DamagedPayloadIsDroppedAndTheStreamContinues)
{
  std::vector<DecodedFrame> frames = sampleFrames();
  std::vector<char> stream = encodeAll(frames);
  // Flip one bit in the payload of the third frame (1000 bytes, starts after two frames).
  const std::size_t thirdPayload = 3 * frameHeaderBytes + frames[0].payload.size() + frames[1].payload.size();
  stream[thirdPayload + 500] = static_cast<char>(stream[thirdPayload + 500] ^ 0x10);
  FrameDecoder decoder;
  const Collected collected = decodeInPieces(decoder, stream, {1});
  frames.erase(frames.begin() + 2);
  EXPECT_EQ(collected.frames, frames);
  EXPECT_EQ(collected.errors, std::vector<FrameError>{FrameError::CrcMismatch});
  EXPECT_FALSE(decoder.failed());
}

TEST(FrameDecoder, DamagedCrcFieldIsDroppedToo)
{
  const std::vector<char> payload = patternPayload(10, 5);
  std::vector<char> stream = handMadeHeader(frameMagic, 9, 0, 10, payloadCrc32(payload) ^ 1u);
  stream.insert(stream.end(), payload.begin(), payload.end());
  encodeFrame(9, payload, stream);
  FrameDecoder decoder;
  const Collected collected = decodeInPieces(decoder, stream, {3});
  EXPECT_EQ(collected.errors, std::vector<FrameError>{FrameError::CrcMismatch});
  EXPECT_EQ(collected.frames, (std::vector<DecodedFrame>{{9, payload}}));
}

TEST(FrameDecoder, BadMagicIsReportedOnTheFirstWrongByteAndEndsTheStream)
{
  FrameDecoder decoder;
  const std::string http = "GET / HTTP/1.1\r\n";
  decoder.feed(std::span<const char>(http.data(), 1));
  const DecodeResult result = decoder.next();
  ASSERT_EQ(result.kind, DecodeResult::Kind::Error);
  EXPECT_EQ(result.error, FrameError::BadMagic);
  EXPECT_TRUE(decoder.failed());
  // A failed decoder stays silent and holds nothing.
  const std::vector<char> valid = encodeAll(sampleFrames());
  decoder.feed(valid);
  EXPECT_EQ(decoder.next().kind, DecodeResult::Kind::NeedMoreData);
  EXPECT_EQ(decoder.bufferedBytes(), 0u);
  EXPECT_EQ(decoder.finish().kind, DecodeResult::Kind::NeedMoreData);
}

TEST(FrameDecoder, GarbageAfterValidFramesDeliversTheFramesThenBadMagic)
{
  const std::vector<DecodedFrame> frames = sampleFrames();
  std::vector<char> stream = encodeAll(frames);
  const std::vector<char> partialMagic{'D', 'O', 'A', 'X'}; // three right bytes, then a wrong one
  stream.insert(stream.end(), partialMagic.begin(), partialMagic.end());
  FrameDecoder decoder;
  const Collected collected = decodeInPieces(decoder, stream, {1});
  EXPECT_EQ(collected.frames, frames);
  EXPECT_EQ(collected.errors, std::vector<FrameError>{FrameError::BadMagic});
}

TEST(FrameDecoder, LengthAboveTheBoundIsRefusedFromTheHeaderAlone)
{
  constexpr std::uint32_t bound = 4096;
  FrameDecoder accepting(bound);
  const std::vector<char> atBound(bound, 'a');
  std::vector<char> stream;
  encodeFrame(5, atBound, stream);
  const Collected collected = decodeInPieces(accepting, stream, {777});
  ASSERT_EQ(collected.frames.size(), 1u);
  EXPECT_EQ(collected.frames[0].payload, atBound);

  FrameDecoder refusing(bound);
  const std::vector<char> header = handMadeHeader(frameMagic, 5, 0, bound + 1, 0);
  for (std::size_t i = 0; i + 1 < header.size(); ++i)
  {
    refusing.feed(std::span<const char>(&header[i], 1));
    ASSERT_EQ(refusing.next().kind, DecodeResult::Kind::NeedMoreData);
  }
  refusing.feed(std::span<const char>(&header.back(), 1));
  const DecodeResult result = refusing.next();
  ASSERT_EQ(result.kind, DecodeResult::Kind::Error);
  EXPECT_EQ(result.error, FrameError::Oversize);
  EXPECT_TRUE(refusing.failed());
}

TEST(FrameDecoder, HugeAnnouncedLengthAllocatesNothingLarge)
{
  FrameDecoder decoder; // protocol bound: 1 MiB
  const std::vector<char> header = handMadeHeader(frameMagic, 5, 0, 0xFFFFFFF0u, 0);
  const std::vector<char> somePayload(4096, 'z');
  const nao::test::ProcessAllocationCount allocations;
  decoder.feed(header);
  decoder.feed(somePayload);
  const DecodeResult result = decoder.next();
  const std::size_t largest = allocations.largestBytes();
  ASSERT_EQ(result.kind, DecodeResult::Kind::Error);
  EXPECT_EQ(result.error, FrameError::Oversize);
  EXPECT_LT(largest, 64u * 1024u);
}

TEST(FrameDecoder, ProtocolLimitCapsAConfiguredBound)
{
  FrameDecoder decoder(0xFFFFFFFFu);
  EXPECT_EQ(decoder.maxPayloadBytes(), maxFramePayloadBytes);
  decoder.setMaxPayloadBytes(100);
  EXPECT_EQ(decoder.maxPayloadBytes(), 100u);
}

TEST(FrameDecoder, PeerClosingMidFrameIsTruncated)
{
  const std::vector<char> stream = encodeAll(sampleFrames());
  // The first sample frame is empty, so it ends at frameHeaderBytes; the second has one payload byte.
  for (const std::size_t cut :
       {std::size_t{3}, frameHeaderBytes - 1, frameHeaderBytes + 1, 2 * frameHeaderBytes, stream.size() - 1})
  {
    FrameDecoder decoder;
    decoder.feed(std::span<const char>(stream.data(), cut));
    while (decoder.next().kind != DecodeResult::Kind::NeedMoreData)
    {
    }
    const DecodeResult result = decoder.finish();
    ASSERT_EQ(result.kind, DecodeResult::Kind::Error) << "cut at " << cut;
    EXPECT_EQ(result.error, FrameError::Truncated);
  }
  FrameDecoder atBoundary;
  atBoundary.feed(std::span<const char>(stream.data(), frameHeaderBytes));
  EXPECT_EQ(atBoundary.next().kind, DecodeResult::Kind::Frame);
  EXPECT_EQ(atBoundary.finish().kind, DecodeResult::Kind::NeedMoreData);
}

TEST(FrameDecoder, FlagsArePassedThrough)
{
  std::vector<char> stream =
      handMadeHeader(frameMagic, 8, 0x0005, 2, payloadCrc32(std::vector<char>{'o', 'k'}));
  stream.push_back('o');
  stream.push_back('k');
  FrameDecoder decoder;
  decoder.feed(stream);
  const DecodeResult result = decoder.next();
  ASSERT_EQ(result.kind, DecodeResult::Kind::Frame);
  EXPECT_EQ(result.frame.flags, 5);
  EXPECT_EQ(result.frame.messageType, 8);
}
} // namespace nao::network
