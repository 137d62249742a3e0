// The encoded frames against NaoFacts.md §2/§3, read back with msgpack-cxx's own (allocating) unpacker, which
// shares no code with the codec under test; round trips; partial answers; sign conventions; no allocation.
#include "Platform/LoLA/LolaBody.h"
#include "Platform/LoLA/LolaProtocol.h"
#include "Platform/LoLA/Tests/LolaTestSupport.h"
#include "Tools/Testing/AllocationCounter.h"

#include <gtest/gtest.h>
#include <msgpack.hpp>
#include <string>
#include <utility>
#include <vector>

namespace nao::test
{
namespace
{
msgpack::object_handle unpack(const std::vector<std::uint8_t>& bytes)
{
  return msgpack::unpack(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

std::string keyOf(const msgpack::object_kv& entry)
{
  EXPECT_EQ(entry.key.type, msgpack::type::STR);
  return std::string(entry.key.via.str.ptr, entry.key.via.str.size);
}

/// Checks an array of float32 values equal to `expected`.
void expectFloat32Array(const msgpack::object& value, const std::string& key, const float* expected,
                        std::size_t length)
{
  ASSERT_EQ(value.type, msgpack::type::ARRAY) << key;
  ASSERT_EQ(value.via.array.size, length) << key;
  for (std::size_t i = 0; i < length; ++i)
  {
    const msgpack::object& element = value.via.array.ptr[i];
    ASSERT_EQ(element.type, msgpack::type::FLOAT32) << key << "[" << i << "]";
    EXPECT_EQ(static_cast<float>(element.via.f64), expected[i]) << key << "[" << i << "]";
  }
}

// NaoFacts.md §2: key order and lengths, written out here rather than taken from the code.
const std::vector<std::pair<std::string, std::size_t>> sensorKeys = {
    {"Stiffness", 25},    {"Position", 25}, {"Temperature", 25}, {"Current", 25}, {"Battery", 4},
    {"Accelerometer", 3}, {"Gyroscope", 3}, {"Angles", 2},       {"Sonar", 2},    {"FSR", 8},
    {"Touch", 14},        {"Status", 25},   {"RobotConfig", 4}};
} // namespace

TEST(LolaEncoding, SensorFrameHasEveryKeyLengthOrderAndElementTypeOfLola)
{
  LolaSensorFrame frame = knownSensorFrame(0.5f);
  frame.status[3] = 3;
  const std::vector<std::uint8_t> bytes = encoded(frame);
  const msgpack::object_handle handle = unpack(bytes);
  const msgpack::object& map = handle.get();
  ASSERT_EQ(map.type, msgpack::type::MAP);
  ASSERT_EQ(map.via.map.size, sensorKeys.size());
  const std::vector<const float*> floats = {
      frame.stiffness.data(), frame.position.data(),      frame.temperature.data(), frame.current.data(),
      frame.battery.data(),   frame.accelerometer.data(), frame.gyroscope.data(),   frame.angles.data(),
      frame.sonar.data(),     frame.fsr.data(),           frame.touch.data()};
  for (std::size_t k = 0; k < sensorKeys.size(); ++k)
  {
    const msgpack::object_kv& entry = map.via.map.ptr[k];
    const auto& [key, length] = sensorKeys[k];
    ASSERT_EQ(keyOf(entry), key) << "key " << k;
    if (k < floats.size()) expectFloat32Array(entry.val, key, floats[k], length);
  }
  const msgpack::object& status = map.via.map.ptr[11].val;
  ASSERT_EQ(status.type, msgpack::type::ARRAY);
  ASSERT_EQ(status.via.array.size, 25u);
  for (std::size_t j = 0; j < 25; ++j)
  {
    ASSERT_EQ(status.via.array.ptr[j].type, msgpack::type::POSITIVE_INTEGER);
    EXPECT_EQ(status.via.array.ptr[j].via.u64, static_cast<std::uint64_t>(frame.status[j]));
  }
  const msgpack::object& config = map.via.map.ptr[12].val;
  ASSERT_EQ(config.type, msgpack::type::ARRAY);
  ASSERT_EQ(config.via.array.size, 4u);
  const std::vector<std::string> expectedConfig = {"SIMULATOR-BODY-00001", "6.0.0", "SIMULATOR-HEAD-00001",
                                                   "6.0.0"};
  for (std::size_t i = 0; i < 4; ++i)
  {
    ASSERT_EQ(config.via.array.ptr[i].type, msgpack::type::STR);
    EXPECT_EQ(std::string(config.via.array.ptr[i].via.str.ptr, config.via.array.ptr[i].via.str.size),
              expectedConfig[i]);
  }

  // Status as positive fixints: the unpacker does not tell fixint from uint8, so look at the bytes after the
  // key.
  const std::string statusKey = "\xa6Status\xdc";
  const std::string text(bytes.begin(), bytes.end());
  const std::size_t at = text.find(statusKey);
  ASSERT_NE(at, std::string::npos);
  const std::size_t first = at + statusKey.size() + 2; // array16 length 0x0019
  EXPECT_EQ(bytes[first - 2], 0x00);
  EXPECT_EQ(bytes[first - 1], 0x19);
  for (std::size_t j = 0; j < 25; ++j)
    EXPECT_EQ(bytes[first + j], static_cast<std::uint8_t>(frame.status[j]))
        << "Status[" << j << "] not a fixint";
}

TEST(LolaEncoding, SensorFrameIsExactly896BytesWhateverTheValues)
{
  EXPECT_EQ(encoded(LolaSensorFrame{}).size(), 896u); // all zeros: integral floats must stay float32
  LolaSensorFrame frame = knownSensorFrame(1.f);
  frame.position[0] = std::numeric_limits<float>::quiet_NaN();
  frame.position[1] = -0.f;
  frame.current[2] = 1e30f;
  frame.temperature.fill(25.f);
  frame.status.fill(3);
  const std::vector<std::uint8_t> bytes = encoded(frame);
  EXPECT_EQ(bytes.size(), 896u);
  const msgpack::object_handle handle = unpack(bytes);
  for (std::size_t k = 0; k < 11; ++k)
    for (std::size_t i = 0; i < handle.get().via.map.ptr[k].val.via.array.size; ++i)
      EXPECT_EQ(handle.get().via.map.ptr[k].val.via.array.ptr[i].type, msgpack::type::FLOAT32);
}

TEST(LolaEncoding, SensorFrameRefusesWhatWouldBreakTheFixedLayout)
{
  LolaSensorFrame frame;
  std::vector<std::uint8_t> buffer(lolaSensorFrameMaxBytes);
  frame.status[5] = 200; // not a positive fixint
  EXPECT_EQ(encodeSensorFrame(frame, buffer), 0u);
  frame.status[5] = -1;
  EXPECT_EQ(encodeSensorFrame(frame, buffer), 0u);
  frame.status[5] = 0;
  std::vector<std::uint8_t> small(895);
  EXPECT_EQ(encodeSensorFrame(frame, small), 0u);
}

TEST(LolaEncoding, SensorFrameRoundTrips)
{
  const LolaSensorFrame frame = knownSensorFrame(-0.75f);
  const std::vector<std::uint8_t> bytes = encoded(frame);
  LolaSensorFrame decoded;
  decoded.robotConfig.fill(LolaString("x"));
  const LolaDecodeResult result = decodeSensorFrame(bytes, decoded);
  ASSERT_TRUE(result.ok()) << result.error.view();
  EXPECT_EQ(result.consumed, bytes.size());
  EXPECT_EQ(decoded.position, frame.position);
  EXPECT_EQ(decoded.stiffness, frame.stiffness);
  EXPECT_EQ(decoded.temperature, frame.temperature);
  EXPECT_EQ(decoded.current, frame.current);
  EXPECT_EQ(decoded.battery, frame.battery);
  EXPECT_EQ(decoded.accelerometer, frame.accelerometer);
  EXPECT_EQ(decoded.gyroscope, frame.gyroscope);
  EXPECT_EQ(decoded.angles, frame.angles);
  EXPECT_EQ(decoded.sonar, frame.sonar);
  EXPECT_EQ(decoded.fsr, frame.fsr);
  EXPECT_EQ(decoded.touch, frame.touch);
  EXPECT_EQ(decoded.status, frame.status);
  EXPECT_EQ(decoded.robotConfig, frame.robotConfig);
  EXPECT_TRUE(decoded.robotConfigPresent);
}

TEST(LolaEncoding, DecodingAcceptsAnyKeyOrderDoublesAndIntegersAndMissingRobotConfig)
{
  // Built with msgpack-cxx's packer: reversed key order, float64 and integer numbers, no RobotConfig.
  msgpack::sbuffer buffer;
  msgpack::packer<msgpack::sbuffer> packer(buffer);
  packer.pack_map(12);
  for (std::size_t k = 12; k-- > 0;)
  {
    const auto& [key, length] = sensorKeys[k];
    packer.pack(key);
    packer.pack_array(static_cast<std::uint32_t>(length));
    for (std::size_t i = 0; i < length; ++i)
      if (key == "Status")
        packer.pack_uint32(2);
      else if (key == "Touch")
        packer.pack_int(1); // integers are numbers too
      else
        packer.pack_double(0.25 + static_cast<double>(k)); // not integral: stays a float64
  }
  LolaSensorFrame decoded;
  const LolaDecodeResult result =
      decodeSensorFrame({reinterpret_cast<const std::uint8_t*>(buffer.data()), buffer.size()}, decoded);
  ASSERT_TRUE(result.ok()) << result.error.view();
  EXPECT_FALSE(decoded.robotConfigPresent);
  EXPECT_FLOAT_EQ(decoded.stiffness[24], 0.25f);
  EXPECT_FLOAT_EQ(decoded.position[0], 1.25f);
  EXPECT_FLOAT_EQ(decoded.fsr[7], 9.25f);
  EXPECT_FLOAT_EQ(decoded.touch[13], 1.f);
  EXPECT_EQ(decoded.status[10], 2);
}

TEST(LolaEncoding, FullActuatorFrameHasThe11KeysOfLolaIn786Bytes)
{
  LolaActuatorFrame frame;
  frame.setAllPresent();
  for (std::size_t j = 0; j < 25; ++j)
  {
    frame.position[j] = 0.1f * static_cast<float>(j) - 1.f;
    frame.stiffness[j] = 0.04f * static_cast<float>(j);
  }
  frame.lEye[3] = 1.f;
  frame.skull[11] = 0.5f;
  frame.sonar = {true, false};
  const std::vector<std::uint8_t> bytes = encoded(frame);
  // HULKs writes its full answer through a buffer of exactly 786 bytes (NaoFacts.md §1).
  EXPECT_EQ(bytes.size(), 786u);
  const msgpack::object_handle handle = unpack(bytes);
  const msgpack::object& map = handle.get();
  ASSERT_EQ(map.type, msgpack::type::MAP);
  const std::vector<std::pair<std::string, std::size_t>> keys = {
      {"Position", 25}, {"Stiffness", 25}, {"REar", 10}, {"LEar", 10},  {"Chest", 3}, {"LEye", 24},
      {"REye", 24},     {"LFoot", 3},      {"RFoot", 3}, {"Skull", 12}, {"Sonar", 2}};
  ASSERT_EQ(map.via.map.size, keys.size());
  for (std::size_t k = 0; k < keys.size(); ++k)
  {
    EXPECT_EQ(keyOf(map.via.map.ptr[k]), keys[k].first);
    ASSERT_EQ(map.via.map.ptr[k].val.type, msgpack::type::ARRAY);
    EXPECT_EQ(map.via.map.ptr[k].val.via.array.size, keys[k].second) << keys[k].first;
  }
  expectFloat32Array(map.via.map.ptr[0].val, "Position", frame.position.data(), 25);
  expectFloat32Array(map.via.map.ptr[1].val, "Stiffness", frame.stiffness.data(), 25);
  expectFloat32Array(map.via.map.ptr[5].val, "LEye", frame.lEye.data(), 24);
  const msgpack::object& sonar = map.via.map.ptr[10].val;
  ASSERT_EQ(sonar.via.array.ptr[0].type, msgpack::type::BOOLEAN);
  EXPECT_TRUE(sonar.via.array.ptr[0].via.boolean);
  EXPECT_FALSE(sonar.via.array.ptr[1].via.boolean);
}

TEST(LolaEncoding, ActuatorFrameRoundTripsAndPartialMapsReportAbsentKeys)
{
  LolaActuatorFrame full;
  full.setAllPresent();
  full.position.fill(0.3f);
  full.stiffness.fill(0.7f);
  full.chest = {1.f, 0.f, 0.5f};
  full.sonar = {false, true};
  LolaActuatorFrame decoded;
  ASSERT_TRUE(decodeActuatorFrame(encoded(full), decoded).ok());
  EXPECT_EQ(decoded.presentKeys, full.presentKeys);
  EXPECT_EQ(decoded.position, full.position);
  EXPECT_EQ(decoded.chest, full.chest);
  EXPECT_EQ(decoded.sonar, full.sonar);

  // B-Human's 10-key answer (no Sonar), then only Position.
  LolaActuatorFrame bHuman = full;
  bHuman.presentKeys &= static_cast<std::uint16_t>(~(1u << static_cast<unsigned>(LolaActuatorKey::Sonar)));
  LolaActuatorFrame target;
  target.sonar = {false, false};
  ASSERT_TRUE(decodeActuatorFrame(encoded(bHuman), target).ok());
  EXPECT_FALSE(target.has(LolaActuatorKey::Sonar));
  EXPECT_TRUE(target.has(LolaActuatorKey::Skull));
  EXPECT_EQ(target.sonar, (std::array<bool, 2>{false, false})); // absent: untouched

  LolaActuatorFrame onlyPosition;
  onlyPosition.setPresent(LolaActuatorKey::Position);
  onlyPosition.position.fill(-0.5f);
  const std::vector<std::uint8_t> bytes = encoded(onlyPosition);
  EXPECT_EQ(bytes.size(), 1u + 9u + 3u + 125u);
  LolaActuatorFrame partial = full;
  ASSERT_TRUE(decodeActuatorFrame(bytes, partial).ok());
  EXPECT_EQ(partial.presentKeys, 1u << static_cast<unsigned>(LolaActuatorKey::Position));
  EXPECT_EQ(partial.position, onlyPosition.position);
  EXPECT_EQ(partial.stiffness, full.stiffness); // not in the map: kept

  // Merging a partial answer into a held command changes only its keys.
  LolaActuatorFrame command = full;
  mergeActuatorFrame(partial, command);
  EXPECT_EQ(command.position, onlyPosition.position);
  EXPECT_EQ(command.stiffness, full.stiffness);
  EXPECT_EQ(command.presentKeys, full.presentKeys);

  LolaActuatorFrame empty;
  EXPECT_EQ(encoded(empty), std::vector<std::uint8_t>{0x80});
  ASSERT_TRUE(decodeActuatorFrame(std::vector<std::uint8_t>{0x80}, partial).ok());
  EXPECT_EQ(partial.presentKeys, 0u);
}

TEST(LolaEncoding, BatteryChargingIsBit0x80OfTheStatusAsInt16)
{
  EXPECT_TRUE(lolaBatteryCharging(128.f));
  EXPECT_TRUE(lolaBatteryCharging(static_cast<float>(0x80 | 0x40 | 0x03)));
  EXPECT_FALSE(lolaBatteryCharging(0.f));
  EXPECT_FALSE(lolaBatteryCharging(127.f));
  // The Webots emulator's -32708: as int16 0x803C, bit 0x80 clear.
  EXPECT_FALSE(lolaBatteryCharging(-32708.f));
  EXPECT_TRUE(lolaBatteryCharging(-32640.f)); // 0x8080
  EXPECT_FALSE(lolaBatteryCharging(std::numeric_limits<float>::quiet_NaN()));
  EXPECT_FALSE(lolaBatteryCharging(1e20f));
}

TEST(LolaEncoding, AccelerometerConventionNegatesEveryAxisBothWays)
{
  // Upright and still, the specific force points up (+9.81 on z); LoLA reports it negated on every axis (a real
  // frame shows it: LolaRealFrameTests.cpp), and the simulator sends what the robot binary expects.
  const std::array<float, 3> upright = {0.f, 0.f, 9.81f};
  const std::array<float, 3> raw = lolaAccelerometerFromSpecificForce(upright);
  EXPECT_EQ(raw, (std::array<float, 3>{-0.f, -0.f, -9.81f}));
  const std::array<float, 3> tilted = {1.f, -2.f, 9.5f};
  EXPECT_EQ(specificForceFromLolaAccelerometer(lolaAccelerometerFromSpecificForce(tilted)), tilted);
}

TEST(LolaEncoding, EncodingAndDecodingDoNotAllocate)
{
  const LolaSensorFrame sensor = knownSensorFrame(0.1f);
  LolaActuatorFrame actuator;
  actuator.setAllPresent();
  std::array<std::uint8_t, lolaSensorFrameMaxBytes> sensorBytes{};
  std::array<std::uint8_t, lolaActuatorFrameMaxBytes> actuatorBytes{};
  LolaSensorFrame sensorOut;
  LolaActuatorFrame actuatorOut;
  std::size_t sensorSize = 0, actuatorSize = 0;
  bool decodedAll = true;
  std::size_t allocations = 0;
  {
    ThreadAllocationCount count;
    for (int i = 0; i < 100; ++i)
    {
      sensorSize = encodeSensorFrame(sensor, sensorBytes);
      actuatorSize = encodeActuatorFrame(actuator, actuatorBytes);
      decodedAll = decodedAll && decodeSensorFrame(std::span(sensorBytes.data(), sensorSize), sensorOut).ok();
      decodedAll =
          decodedAll && decodeActuatorFrame(std::span(actuatorBytes.data(), actuatorSize), actuatorOut).ok();
      // The error path formats a message; it must not allocate either.
      decodedAll =
          decodedAll && !decodeSensorFrame(std::span(actuatorBytes.data(), actuatorSize), sensorOut).ok();
    }
    allocations = count.allocations();
  }
  EXPECT_EQ(sensorSize, 896u);
  EXPECT_EQ(actuatorSize, 786u);
  EXPECT_TRUE(decodedAll);
  EXPECT_EQ(allocations, 0u);
}
TEST(LolaBodyStatistics, TheRobotBinarysLineReadsBackAndNothingElseDoes)
{
  // The robot binary prints this line when it stops; the simulator reads it back (EndToEnd tests).
  const LolaBodyStatistics counts{5000, 1, 2, 3, 4997, 5, 6, 7};
  const std::string line = describeLolaStatistics(counts);
  EXPECT_EQ(line,
            "LoLA: 5000 packets, 1 bad, 2 skipped, 4997 answers sent, 5 send failures, 3 connections, 6 "
            "invalid request values, 7 unreadable values");
  const std::optional<LolaBodyStatistics> read = parseLolaStatistics(line);
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(read->packets, 5000u);
  EXPECT_EQ(read->decodeErrors, 1u);
  EXPECT_EQ(read->skippedFrames, 2u);
  EXPECT_EQ(read->connections, 3u);
  EXPECT_EQ(read->answersSent, 4997u);
  EXPECT_EQ(read->sendFailures, 5u);
  EXPECT_EQ(read->invalidRequestValues, 6u);
  EXPECT_EQ(read->unreadableValues, 7u);
  const std::vector<std::string> others = {"", "robot 'Default', scenario 'stand', body LoLA",
                                           line + " and more", line.substr(0, line.size() - 1),
                                           "LoLA: 1 packets"};
  for (const std::string& other : others)
    EXPECT_FALSE(parseLolaStatistics(other).has_value()) << other;
}
} // namespace nao::test
