// Malformed input of many kinds: a clear error naming the key, never a crash, never an allocation; truncated
// frames are "incomplete", not errors; the stream buffer resynchronises after garbage.
#include "Platform/LoLA/LolaProtocol.h"
#include "Platform/LoLA/LolaStream.h"
#include "Platform/LoLA/Tests/LolaTestSupport.h"
#include "Tools/Testing/AllocationCounter.h"

#include <functional>
#include <gtest/gtest.h>
#include <memory>
#include <msgpack.hpp>
#include <random>
#include <span>
#include <sys/socket.h>

namespace nao::test
{
namespace
{
using Packer = msgpack::packer<msgpack::sbuffer>;
using Writer = std::function<void(Packer&)>;

Writer floats(std::size_t count, float value = 0.5f)
{
  return [=](Packer& packer)
  {
    packer.pack_array(static_cast<std::uint32_t>(count));
    for (std::size_t i = 0; i < count; ++i)
      packer.pack_float(value);
  };
}

/// A valid sensor map as (key, writer) entries that a test edits before packing.
std::vector<std::pair<std::string, Writer>> validSensorEntries()
{
  return {{"Stiffness", floats(25)},
          {"Position", floats(25)},
          {"Temperature", floats(25)},
          {"Current", floats(25)},
          {"Battery", floats(4)},
          {"Accelerometer", floats(3)},
          {"Gyroscope", floats(3)},
          {"Angles", floats(2)},
          {"Sonar", floats(2)},
          {"FSR", floats(8)},
          {"Touch", floats(14)},
          {"Status",
           [](Packer& p)
           {
             p.pack_array(25);
             for (int i = 0; i < 25; ++i)
               p.pack_uint8(1);
           }},
          {"RobotConfig", [](Packer& p)
           {
             p.pack_array(4);
             for (int i = 0; i < 4; ++i)
               p.pack(std::string("id"));
           }}};
}

std::vector<std::uint8_t> pack(const std::vector<std::pair<std::string, Writer>>& entries)
{
  msgpack::sbuffer buffer;
  Packer packer(buffer);
  packer.pack_map(static_cast<std::uint32_t>(entries.size()));
  for (const auto& [key, writer] : entries)
  {
    packer.pack(key);
    writer(packer);
  }
  return {reinterpret_cast<const std::uint8_t*>(buffer.data()),
          reinterpret_cast<const std::uint8_t*>(buffer.data()) + buffer.size()};
}

Writer& entry(std::vector<std::pair<std::string, Writer>>& entries, const std::string& key)
{
  for (auto& [name, writer] : entries)
    if (name == key) return writer;
  throw std::logic_error("no key " + key);
}

void expectMalformed(const std::vector<std::uint8_t>& bytes, const std::string& expectedMessage)
{
  LolaSensorFrame frame;
  const LolaDecodeResult result = decodeSensorFrame(bytes, frame);
  EXPECT_EQ(result.status, LolaDecodeStatus::malformed) << expectedMessage;
  EXPECT_NE(std::string(result.error.view()).find(expectedMessage), std::string::npos)
      << "got '" << result.error.view() << "', expected it to contain '" << expectedMessage << "'";
}
} // namespace

TEST(LolaMalformed, TheValidBaselineDecodes)
{
  LolaSensorFrame frame;
  const LolaDecodeResult result = decodeSensorFrame(pack(validSensorEntries()), frame);
  EXPECT_TRUE(result.ok()) << result.error.view();
}

TEST(LolaMalformed, EveryTruncationOfAValidFrameIsIncompleteNotAnError)
{
  const std::vector<std::uint8_t> sensor = encoded(knownSensorFrame(0.2f));
  LolaActuatorFrame full;
  full.setAllPresent();
  const std::vector<std::uint8_t> actuator = encoded(full);
  LolaSensorFrame sensorFrame;
  LolaActuatorFrame actuatorFrame;
  for (std::size_t length = 0; length < sensor.size(); ++length)
    ASSERT_EQ(decodeSensorFrame(std::span(sensor.data(), length), sensorFrame).status,
              LolaDecodeStatus::incomplete)
        << length;
  for (std::size_t length = 0; length < actuator.size(); ++length)
    ASSERT_EQ(decodeActuatorFrame(std::span(actuator.data(), length), actuatorFrame).status,
              LolaDecodeStatus::incomplete)
        << length;
}

TEST(LolaMalformed, StructuralErrorsNameWhatIsWrong)
{
  expectMalformed({0xc1}, "never used");
  expectMalformed({0x93, 0x01, 0x02, 0x03}, "must be a MessagePack map, got byte 0x93 (an array)");
  expectMalformed({0xa3, 'a', 'b', 'c'}, "must be a MessagePack map");
  expectMalformed({0xdf, 0xff, 0xff, 0xff, 0xff}, "map has 4294967295 entries");
  expectMalformed({0x81, 0x05, 0x90}, "key 0 of the map is not a string");
  // A key with a str32 header claiming 4 GB: rejected from the header alone.
  expectMalformed({0x81, 0xdb, 0xff, 0xff, 0xff, 0xff}, "a string of 4294967295 bytes is no LoLA key");
  expectMalformed({0x81, 0xa3, 'F', 'o', 'o', 0x90}, "unknown key 'Foo'");
  expectMalformed({0x81, 0xa3, 'F', 0x01, 'o', 0x90}, "unknown key 'F?o'"); // unprintable bytes shown as '?'
}

TEST(LolaMalformed, SchemaErrorsNameTheKey)
{
  auto entries = validSensorEntries();
  entry(entries, "Position") = floats(24);
  expectMalformed(pack(entries), "key 'Position': expected 25 elements, got 24");

  entries = validSensorEntries();
  entry(entries, "Position") = [](Packer& p) { p.pack_float(1.5f); }; // 1.f would be packed as an integer
  expectMalformed(pack(entries), "key 'Position': expected an array of 25, got byte 0xca (a float32)");

  entries = validSensorEntries();
  entry(entries, "Current") = [](Packer& p)
  {
    p.pack_array(25);
    p.pack(std::string("1.0"));
  };
  expectMalformed(pack(entries), "key 'Current' element 0: expected a number, got a string");

  entries = validSensorEntries();
  entry(entries, "Status") = floats(25, 1.5f);
  expectMalformed(pack(entries), "key 'Status' element 0: expected an integer, got a float32");

  entries = validSensorEntries();
  entry(entries, "Status") = [](Packer& p)
  {
    p.pack_array(25);
    p.pack_int64(std::int64_t{1} << 40);
  };
  expectMalformed(pack(entries), "key 'Status' element 0: integer out of the 32-bit range");

  entries = validSensorEntries();
  entry(entries, "RobotConfig") = [](Packer& p)
  {
    p.pack_array(4);
    p.pack(std::string(40, 'x'));
  };
  expectMalformed(pack(entries), "key 'RobotConfig' element 0: string of 40 bytes, at most 31 expected");

  entries = validSensorEntries();
  entry(entries, "FSR") = [](Packer& p)
  {
    p.pack_array(8);
    p.pack_nil();
  };
  expectMalformed(pack(entries), "key 'FSR' element 0: expected a number, got nil");

  entries = validSensorEntries();
  entry(entries, "Touch") = [](Packer& p)
  {
    p.pack_array(14);
    p.pack_bin(3);
    p.pack_bin_body("abc", 3);
  };
  expectMalformed(pack(entries), "key 'Touch' element 0: expected a number, got a binary");

  entries = validSensorEntries();
  entries.erase(entries.begin() + 3); // Current
  expectMalformed(pack(entries), "missing key 'Current' in a sensor frame");

  entries = validSensorEntries();
  entries[1].first = "Stiffness"; // Stiffness twice, Position missing
  expectMalformed(pack(entries), "key 'Stiffness' appears twice");

  entries = validSensorEntries();
  entries[12] = {"Bogus", floats(1)};
  expectMalformed(pack(entries), "unknown key 'Bogus' in a sensor frame");

  entries = validSensorEntries();
  entries.push_back({"Extra", floats(1)});
  expectMalformed(pack(entries), "map has 14 entries, a sensor frame has at most 13 keys");
}

TEST(LolaMalformed, HugeArrayHeadersAreRejectedAtOnceWithoutAllocating)
{
  // Position's array claims 2^32 - 1 float32 values, and no values follow.
  std::vector<std::uint8_t> bytes = {0x81, 0xa8, 'P',  'o',  's',  'i',  't', 'i',
                                     'o',  'n',  0xdd, 0xff, 0xff, 0xff, 0xff};
  LolaSensorFrame frame;
  LolaDecodeResult result;
  std::size_t allocations = 0;
  {
    ThreadAllocationCount count;
    result = decodeSensorFrame(bytes, frame);
    allocations = count.allocations();
  }
  EXPECT_EQ(result.status, LolaDecodeStatus::malformed);
  EXPECT_EQ(std::string(result.error.view()), "key 'Position': expected 25 elements, got 4294967295");
  EXPECT_EQ(allocations, 0u);
}

TEST(LolaMalformed, ActuatorErrorsNameTheKey)
{
  LolaActuatorFrame frame;
  msgpack::sbuffer buffer;
  Packer packer(buffer);
  packer.pack_map(1);
  packer.pack(std::string("Sonar"));
  packer.pack_array(2);
  packer.pack_float(1.f);
  packer.pack_float(0.f);
  LolaDecodeResult result =
      decodeActuatorFrame({reinterpret_cast<const std::uint8_t*>(buffer.data()), buffer.size()}, frame);
  EXPECT_EQ(std::string(result.error.view()),
            "key 'Sonar' element 0: expected a boolean, got an unsigned integer");

  // A sensor frame is no answer.
  result = decodeActuatorFrame(encoded(knownSensorFrame(0.f)), frame);
  EXPECT_EQ(std::string(result.error.view()), "map has 13 entries, a actuator frame has at most 11 keys");
  EXPECT_EQ(frame.presentKeys, 0u);
}

TEST(LolaMalformed, RandomAndMutatedBytesNeverCrashOrAllocate)
{
  std::mt19937 random(12345);
  const std::vector<std::uint8_t> valid = encoded(knownSensorFrame(0.3f));
  LolaActuatorFrame fullAnswer;
  fullAnswer.setAllPresent();
  const std::vector<std::uint8_t> validAnswer = encoded(fullAnswer);
  std::vector<std::uint8_t> bytes;
  LolaSensorFrame sensor;
  LolaActuatorFrame actuator;
  std::size_t malformed = 0, inconsistent = 0, allocations = 0;
  for (int round = 0; round < 30000; ++round)
  {
    const int kind = round % 3;
    if (kind == 0) // random bytes, often starting like a map
    {
      bytes.resize(random() % 1200);
      for (std::uint8_t& byte : bytes)
        byte = static_cast<std::uint8_t>(random());
      if (!bytes.empty() && random() % 2) bytes[0] = static_cast<std::uint8_t>(0x80 | (random() % 16));
    }
    else // a valid frame with a few bytes changed
    {
      bytes = kind == 1 ? valid : validAnswer;
      for (std::uint32_t flips = 1 + random() % 4; flips > 0; --flips)
        bytes[random() % bytes.size()] = static_cast<std::uint8_t>(random());
    }
    // A heap block of exactly the input's size: a read one byte past the end is outside it, which AddressSanitizer
    // reports (inside a reused, larger buffer it would go unnoticed).
    const std::unique_ptr<std::uint8_t[]> exact(new std::uint8_t[bytes.size()]);
    std::copy(bytes.begin(), bytes.end(), exact.get());
    const std::span<const std::uint8_t> input(exact.get(), bytes.size());
    ThreadAllocationCount count; // the decoders only
    for (const LolaDecodeResult& result :
         {decodeSensorFrame(input, sensor), decodeActuatorFrame(input, actuator)})
    {
      if (result.status == LolaDecodeStatus::malformed) malformed += result.error.view().empty() ? 0 : 1;
      if (result.ok() && result.consumed > input.size()) ++inconsistent;
    }
    allocations += count.allocations();
  }
  EXPECT_GT(malformed, 30000u); // most of the 60000 decodes fail, each with a message
  EXPECT_EQ(inconsistent, 0u);
  EXPECT_EQ(allocations, 0u);
}

TEST(LolaStream, CutsFramesFromSplitAndMergedReadsAndResynchronisesAfterGarbage)
{
  int ends[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, ends), 0);
  UnixSocket writer(ends[0]), reader(ends[1]);
  LolaStreamBuffer stream;
  LolaSensorFrame frame;

  // One frame in three pieces.
  const std::vector<std::uint8_t> first = encoded(knownSensorFrame(1.f));
  std::size_t frames = 0;
  for (std::size_t begin : {std::size_t{0}, std::size_t{10}, std::size_t{500}})
  {
    const std::size_t end = begin == 500 ? first.size() : begin == 10 ? 500 : 10;
    ASSERT_TRUE(writeAll(writer.fd(), std::span(first.data() + begin, end - begin), 1.0));
    ASSERT_EQ(stream.readFrom(reader.fd(), true), LolaReadResult::data);
    const LolaExtractResult result = stream.extract(frame, &decodeSensorFrame);
    frames += result.status == LolaExtractStatus::frame;
    EXPECT_NE(result.status, LolaExtractStatus::malformed);
  }
  EXPECT_EQ(frames, 1u);
  EXPECT_FLOAT_EQ(frame.position[0], 1.f);

  // Garbage (including bytes that look like map headers), then two frames in one write.
  std::vector<std::uint8_t> bytes = {0x00, 0xc1, 0x85, 0xa1, 'x', 0x8d, 0x90, 0xff};
  for (float marker : {2.f, 3.f})
  {
    const std::vector<std::uint8_t> next = encoded(knownSensorFrame(marker));
    bytes.insert(bytes.end(), next.begin(), next.end());
  }
  ASSERT_TRUE(writeAll(writer.fd(), bytes, 1.0));
  while (stream.buffered() < bytes.size())
    ASSERT_EQ(stream.readFrom(reader.fd(), true), LolaReadResult::data);
  LolaExtractResult result = stream.extract(frame, &decodeSensorFrame);
  EXPECT_EQ(result.status, LolaExtractStatus::malformed); // reported once, not once per false map header
  EXPECT_FALSE(result.decode.error.view().empty());
  ASSERT_EQ(stream.extract(frame, &decodeSensorFrame).status, LolaExtractStatus::frame);
  EXPECT_FLOAT_EQ(frame.position[0], 2.f);
  ASSERT_EQ(stream.extract(frame, &decodeSensorFrame).status, LolaExtractStatus::frame);
  EXPECT_FLOAT_EQ(frame.position[0], 3.f);
  EXPECT_EQ(stream.extract(frame, &decodeSensorFrame).status, LolaExtractStatus::needMore);
  EXPECT_EQ(stream.droppedBytes(), 8u);

  // A long run of garbage without any map header (every decodable frame is far shorter than the buffer, so
  // the buffer never fills with one), then a frame: the garbage is dropped, the frame comes through.
  std::vector<std::uint8_t> garbage(9000, 0x01);
  const std::vector<std::uint8_t> last = encoded(knownSensorFrame(4.f));
  garbage.insert(garbage.end(), last.begin(), last.end());
  ASSERT_TRUE(writeAll(writer.fd(), garbage, 1.0));
  std::size_t reported = 0;
  bool gotLast = false;
  while (!gotLast)
  {
    ASSERT_EQ(stream.readFrom(reader.fd(), true), LolaReadResult::data);
    for (LolaExtractResult r;
         !gotLast && (r = stream.extract(frame, &decodeSensorFrame)).status != LolaExtractStatus::needMore;)
    {
      reported += r.status == LolaExtractStatus::malformed;
      gotLast = r.status == LolaExtractStatus::frame;
    }
  }
  EXPECT_GE(reported, 1u);
  EXPECT_FLOAT_EQ(frame.position[0], 4.f);
  EXPECT_EQ(stream.droppedBytes(), 8u + 9000u);
}
} // namespace nao::test
