#include "TestFiles.h"
#include "Tools/BinaryIO/BoundedArchive.h"
#include "Tools/BinaryIO/Crc32.h"
#include "Tools/Testing/AllocationCounter.h"

#include <array>
#include <boost/archive/binary_iarchive.hpp>
#include <boost/serialization/array.hpp>
#include <boost/serialization/deque.hpp>
#include <boost/serialization/list.hpp>
#include <boost/serialization/map.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#include <cstring>
#include <deque>
#include <gtest/gtest.h>
#include <list>
#include <map>
#include <string>
#include <vector>

namespace nao::binaryio::test
{
namespace
{
struct Sample
{
  std::vector<float> values;
  std::string label;
  std::int32_t count = 0;
  double scale = 0.0;
  std::array<float, 3> position{};
  bool enabled = false;
  std::map<int, std::string> names;
  std::vector<std::string> tags;

  template<class Archive>
  void serialize(Archive& archive, unsigned int /*version*/)
  {
    archive& values& label& count& scale& position& enabled& names& tags;
  }
  bool operator==(const Sample&) const = default;
};

/// Eight bytes on the wire, 64 in memory: a forged count would cost eight times the payload if resized up
/// front.
struct WideInMemory
{
  std::uint64_t value = 0;
  std::array<char, 56> scratch{}; ///< not serialized

  template<class Archive>
  void serialize(Archive& archive, unsigned int /*version*/)
  {
    archive& value;
  }
  bool operator==(const WideInMemory& other) const { return value == other.value; }
};

struct Sequences
{
  std::vector<WideInMemory> wide;
  std::deque<std::string> words;
  std::list<std::int16_t> numbers;
  std::vector<bool> flags;

  template<class Archive>
  void serialize(Archive& archive, unsigned int /*version*/)
  {
    archive& wide& words& numbers& flags;
  }
  bool operator==(const Sequences&) const = default;
};

// Nine floats and a 13-character label: their size fields (u64 9 and u64 13) occur once in the bytes.
Sample makeSample()
{
  Sample sample;
  sample.values = {0.5f, -1.25f, 2.0f, 3.5f, -4.0f, 5.75f, 6.0f, 7.125f, -8.5f};
  sample.label = "hello, robot!";
  sample.count = -42;
  sample.scale = 0.001;
  sample.position = {0.1f, 0.2f, 0.3f};
  sample.enabled = true;
  sample.names = {{1, "one"}, {2, "two"}};
  sample.tags = {"alpha", "beta"};
  return sample;
}

std::size_t uniquePosition(const std::vector<char>& bytes, const std::vector<char>& pattern)
{
  const std::vector<std::size_t> positions = findAll(bytes, pattern);
  EXPECT_EQ(positions.size(), 1u) << "the size field pattern must occur exactly once";
  return positions.empty() ? 0 : positions.front();
}

/// Runs `action`, returns the FormatError's message ("" if none) and the largest allocation made meanwhile.
template<class Action>
std::pair<std::string, std::size_t> messageAndLargestAllocation(Action action)
{
  std::string message;
  const nao::test::ProcessAllocationCount probe;
  try
  {
    action();
  }
  catch (const FormatError& error)
  {
    message = error.what();
  }
  return {message, probe.largestBytes()};
}
} // namespace

TEST(Crc32, MatchesTheStandardCheckValue)
{
  // The CRC-32/ISO-HDLC catalogue check value of the ASCII digits 1..9.
  const std::string digits = "123456789";
  EXPECT_EQ(crc32(digits), 0xCBF43926u);
  EXPECT_EQ(crc32(std::span<const char>()), 0u);
}

TEST(BoundedArchive, RoundTripsEveryFieldAndConsumesAllBytes)
{
  const Sample original = makeSample();
  std::vector<char> bytes;
  serializeInto(bytes, original);
  Sample decoded;
  deserialize(bytes, decoded);
  EXPECT_EQ(decoded, original);
}

TEST(BoundedArchive, SerializeIntoKeepsCapacityAndReplacesContents)
{
  std::vector<char> bytes;
  bytes.reserve(4096);
  serializeInto(bytes, makeSample());
  const std::size_t firstSize = bytes.size();
  serializeInto(bytes, makeSample());
  EXPECT_EQ(bytes.size(), firstSize);
  EXPECT_EQ(bytes.capacity(), 4096u);
}

TEST(BoundedArchive, ForgedVectorSizeIsRefusedBeforeAllocating)
{
  std::vector<char> bytes;
  serializeInto(bytes, makeSample());
  const std::size_t field = uniquePosition(bytes, littleEndianBytes<std::uint64_t>(9));
  overwrite(bytes, field, littleEndianBytes<std::uint64_t>(4294967295u));
  const std::size_t remainingAfterField = bytes.size() - field - 8;

  const auto [message, largest] = messageAndLargestAllocation([&] { deserialize<Sample>(bytes); });
  EXPECT_EQ(message, "size field 4294967295 exceeds remaining payload " +
                         std::to_string(remainingAfterField) + " bytes");
  EXPECT_LT(largest, 1024u) << "a forged count must never reach the allocator";
}

TEST(BoundedArchive, ForgedStringLengthIsRefusedBeforeAllocating)
{
  std::vector<char> bytes;
  serializeInto(bytes, makeSample());
  std::vector<char> lengthAndText = littleEndianBytes<std::uint64_t>(13);
  const std::string label = "hello, robot!";
  lengthAndText.insert(lengthAndText.end(), label.begin(), label.end());
  const std::size_t field = uniquePosition(bytes, lengthAndText);
  overwrite(bytes, field, littleEndianBytes<std::uint64_t>(0xFFFFFFFFFFFFull));
  const std::size_t remainingAfterField = bytes.size() - field - 8;

  const auto [message, largest] = messageAndLargestAllocation([&] { deserialize<Sample>(bytes); });
  EXPECT_EQ(message, "size field 281474976710655 exceeds remaining payload " +
                         std::to_string(remainingAfterField) + " bytes");
  EXPECT_LT(largest, 1024u);
}

TEST(BoundedArchive, FloatCountThatFitsAsBytesButNotAsFloatsIsRefused)
{
  // A count equal to the bytes left passes a one-byte-per-element check; floats need four bytes each.
  std::vector<char> bytes;
  serializeInto(bytes, makeSample());
  const std::size_t field = uniquePosition(bytes, littleEndianBytes<std::uint64_t>(9));
  const std::size_t remainingAfterField = bytes.size() - field - 8;
  overwrite(bytes, field, littleEndianBytes<std::uint64_t>(remainingAfterField));

  const auto [message, largest] = messageAndLargestAllocation([&] { deserialize<Sample>(bytes); });
  EXPECT_EQ(message, "size field " + std::to_string(remainingAfterField) +
                         " (of 4-byte elements) exceeds remaining payload " +
                         std::to_string(remainingAfterField) + " bytes");
  EXPECT_LT(largest, remainingAfterField * sizeof(float));
}

TEST(BoundedArchive, PlainBoostArchiveWouldAllocateWhatTheForgedFieldSays)
{
  // Control experiment: it shows that the probe sees the allocation the bounded archive prevents.
  std::vector<char> bytes;
  serializeInto(bytes, makeSample());
  const std::size_t field = uniquePosition(bytes, littleEndianBytes<std::uint64_t>(9));
  overwrite(bytes, field, littleEndianBytes<std::uint64_t>(1'000'000));

  std::size_t largestPlain = 0;
  {
    SpanStreambuf source(bytes);
    const nao::test::ProcessAllocationCount probe;
    try
    {
      boost::archive::binary_iarchive plain(source, boost::archive::no_header | boost::archive::no_codecvt);
      Sample decoded;
      plain >> decoded;
    }
    catch (const boost::archive::archive_exception&)
    {
    }
    largestPlain = probe.largestBytes();
  }
  EXPECT_GE(largestPlain, 1'000'000 * sizeof(float));

  const auto [message, largestBounded] = messageAndLargestAllocation([&] { deserialize<Sample>(bytes); });
  EXPECT_NE(message.find("size field 1000000"), std::string::npos) << message;
  EXPECT_LT(largestBounded, 1024u);
}

TEST(BoundedArchive, ForgedMapAndNestedStringSizesAreRefused)
{
  std::vector<char> bytes;
  serializeInto(bytes, makeSample());
  // The map and the tag list hold two entries each: both u64 2 fields are collection counts.
  const std::vector<std::size_t> candidates = findAll(bytes, littleEndianBytes<std::uint64_t>(2));
  ASSERT_EQ(candidates.size(), 2u);
  for (std::size_t candidate : candidates)
  {
    std::vector<char> forged = bytes;
    overwrite(forged, candidate, littleEndianBytes<std::uint64_t>(0xFFFFFFFFFFFFFFFFull));
    const auto [message, largest] = messageAndLargestAllocation([&] { deserialize<Sample>(forged); });
    EXPECT_NE(message.find("size field 18446744073709551615 exceeds remaining payload"), std::string::npos)
        << "at byte " << candidate << ": " << message;
    EXPECT_LT(largest, 1024u);
  }

  std::vector<char> tagLength = littleEndianBytes<std::uint64_t>(4);
  tagLength.insert(tagLength.end(), {'b', 'e', 't', 'a'});
  const std::size_t tagField = uniquePosition(bytes, tagLength);
  overwrite(bytes, tagField, littleEndianBytes<std::uint64_t>(1u << 30));
  const auto [message, largest] = messageAndLargestAllocation([&] { deserialize<Sample>(bytes); });
  EXPECT_EQ(message, "size field 1073741824 exceeds remaining payload 4 bytes");
  EXPECT_LT(largest, 1024u);
}

TEST(BoundedArchive, SequencesOfEveryLoaderRoundTrip)
{
  Sequences original;
  for (std::uint64_t index = 0; index < 5; ++index)
    original.wide.push_back({index * 1000 + 7, {}});
  original.words = {"stand", "walk", ""};
  original.numbers = {-3, 0, 12345};
  original.flags = {true, false, true, true};
  std::vector<char> bytes;
  serializeInto(bytes, original);
  EXPECT_EQ(deserialize<Sequences>(bytes), original);
}

TEST(BoundedArchive, ElementwiseVectorMemoryFollowsTheBytesReadNotTheCount)
{
  std::vector<WideInMemory> wide(1000);
  for (std::size_t index = 0; index < wide.size(); ++index)
    wide[index].value = 0x0101010101010101ull * (index % 7);
  std::vector<char> bytes;
  serializeInto(bytes, wide);
  const std::size_t field = uniquePosition(bytes, littleEndianBytes<std::uint64_t>(1000));
  const std::size_t remainingAfterField = bytes.size() - field - 8;
  // Passes the one-byte-per-element check, but only about remaining / 8 elements are really there.
  overwrite(bytes, field, littleEndianBytes<std::uint64_t>(remainingAfterField));

  std::size_t largestPlain = 0;
  {
    SpanStreambuf source(bytes);
    const nao::test::ProcessAllocationCount probe;
    try
    {
      boost::archive::binary_iarchive plain(source, boost::archive::no_header | boost::archive::no_codecvt);
      std::vector<WideInMemory> decoded;
      plain >> decoded;
    }
    catch (const boost::archive::archive_exception&)
    {
    }
    largestPlain = probe.largestBytes();
  }
  EXPECT_GE(largestPlain, remainingAfterField * sizeof(WideInMemory)) << "control: Boost sizes by the count";

  const auto [message, largest] =
      messageAndLargestAllocation([&] { deserialize<std::vector<WideInMemory>>(bytes); });
  EXPECT_NE(message.find("payload ends early"), std::string::npos) << message;
  // Geometric growth: at most twice the elements the bytes could hold.
  EXPECT_LE(largest, 2 * (remainingAfterField / 8 + 1) * sizeof(WideInMemory));
}

TEST(BoundedArchive, ReadingPastTheEndThrows)
{
  std::vector<char> bytes;
  serializeInto(bytes, makeSample());
  for (std::size_t length = 0; length < bytes.size(); ++length)
  {
    const std::span<const char> truncated(bytes.data(), length);
    EXPECT_THROW(deserialize<Sample>(truncated), FormatError) << "truncated to " << length << " bytes";
  }
}

TEST(BoundedArchive, PayloadAboveTheGlobalBoundIsRefusedUnread)
{
  std::vector<char> bytes;
  serializeInto(bytes, makeSample());
  DeserializeOptions options;
  options.maxPayloadBytes = bytes.size() - 1;
  try
  {
    deserialize<Sample>(bytes, options);
    FAIL() << "expected FormatError";
  }
  catch (const FormatError& error)
  {
    EXPECT_EQ(std::string(error.what()), "payload of " + std::to_string(bytes.size()) +
                                             " bytes exceeds the bound of " +
                                             std::to_string(bytes.size() - 1) + " bytes");
  }
  options.maxPayloadBytes = bytes.size();
  EXPECT_EQ(deserialize<Sample>(bytes, options), makeSample());
}

TEST(BoundedArchive, TrailingBytesAreATypeMismatchUnlessAllowed)
{
  std::vector<char> bytes;
  serializeInto(bytes, std::int32_t{7});
  bytes.push_back('x');
  EXPECT_THROW(deserialize<std::int32_t>(bytes), FormatError);
  DeserializeOptions options;
  options.allowTrailingBytes = true;
  EXPECT_EQ(deserialize<std::int32_t>(bytes, options), 7);
}

TEST(BoundedArchive, BoolOtherThanZeroOrOneIsRefused)
{
  std::vector<char> bytes;
  serializeInto(bytes, true);
  ASSERT_EQ(bytes.size(), 1u);
  bytes[0] = 7;
  EXPECT_THROW(deserialize<bool>(bytes), FormatError);
}
} // namespace nao::binaryio::test
