#pragma once
// The LoLA wire format (Docs/NaoFacts.md §1-§8), shared by the robot binary's LoLA body and the
// simulator's LoLA server: plain frame structs, an encoder and a bounded decoder for each direction, and the
// sign conventions. Nothing here allocates: encoding writes into a caller's buffer, decoding reads a byte
// span into a caller's struct.
#include <boost/serialization/nvp.hpp> // before FixedString.h, which uses make_nvp without including it

#include "Tools/Containers/FixedString.h"
#include "Tools/Streams/Enum.h"
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace nao
{
inline constexpr std::size_t lolaJointCount = 25;
inline constexpr double lolaFrameSeconds = 0.012; ///< s, LoLA sends one sensor frame every 12 ms (83 Hz)
/// Clients such as B-Human and HULKs read exactly this many bytes per sensor frame (NaoFacts.md §1).
inline constexpr std::size_t lolaSensorFrameBytes = 896;
/// Large enough for any encodable sensor frame (four RobotConfig strings of LolaString's full capacity).
inline constexpr std::size_t lolaSensorFrameMaxBytes = 1024;
/// An actuator frame with all 11 keys (HULKs writes through a buffer of exactly this size).
inline constexpr std::size_t lolaActuatorFrameMaxBytes = 786;

/// A RobotConfig string; LoLA's IDs have 20 characters and its versions 5.
using LolaString = FixedString<31>;

/// Robot → client, one every 12 ms. Arrays in LoLA order: joints NaoFacts.md §4, FSR, Touch §5, Battery §6.
struct LolaSensorFrame
{
  std::array<float, lolaJointCount> stiffness{};   ///< 0..1, applied stiffness
  std::array<float, lolaJointCount> position{};    ///< rad, measured angle (Hands 0..1)
  std::array<float, lolaJointCount> temperature{}; ///< °C, motor temperature
  std::array<float, lolaJointCount> current{};     ///< A, motor current
  std::array<float, 4> battery{};                  ///< [charge 0..1, status word, current A, temperature °C]
  std::array<float, 3> accelerometer{}; ///< m/s², raw LoLA signs: see specificForceFromLolaAccelerometer()
  std::array<float, 3> gyroscope{};     ///< rad/s about torso x, y, z
  std::array<float, 2> angles{};        ///< rad, torso roll (x) and pitch (y, forward positive)
  std::array<float, 2> sonar{};         ///< m, left and right echo distance
  std::array<float, 8> fsr{};           ///< kg per sensor, NaoFacts.md §5 order
  std::array<float, 14> touch{};        ///< 0 or 1 per touch sensor / button
  std::array<std::int32_t, lolaJointCount> status{}; ///< temperature status 0..3 per joint
  /// BodyId, BodyVersion, HeadId, HeadVersion. These defaults (20 + 5 + 20 + 5 characters, like a real
  /// robot's) make the encoded frame exactly lolaSensorFrameBytes long.
  std::array<LolaString, 4> robotConfig{LolaString("SIMULATOR-BODY-00001"), LolaString("6.0.0"),
                                        LolaString("SIMULATOR-HEAD-00001"), LolaString("6.0.0")};
  bool robotConfigPresent = true; ///< decoding: whether the frame carried RobotConfig (the only optional key)
};

/// The keys of the client's answer, in the order the encoder writes them (NaoFacts.md §3). The enumerators
/// are LoLA's key names, spelled as LoLA spells them (like Joint's).
NAO_ENUM(LolaActuatorKey, std::uint8_t, Position, Stiffness, REar, LEar, Chest, LEye, REye, LFoot, RFoot,
         Skull, Sonar);
inline constexpr std::size_t lolaActuatorKeyCount = 11;

/// Client → robot, one answer per sensor frame. A partial map is valid: presentKeys says which keys a decoded
/// frame carried (the others keep their previous values) and which keys the encoder writes.
struct LolaActuatorFrame
{
  std::array<float, lolaJointCount> position{};  ///< rad, target angle (Hands 0..1)
  std::array<float, lolaJointCount> stiffness{}; ///< 0..1 per joint
  std::array<float, 10> rEar{};                  ///< 0..1, right-ear LEDs, 324° .. 0°
  std::array<float, 10> lEar{};                  ///< 0..1, left-ear LEDs, 0° .. 324°
  std::array<float, 3> chest{};                  ///< R, G, B 0..1
  std::array<float, 24> lEye{};                  ///< 8 red, 8 green, 8 blue, 0..1
  std::array<float, 24> rEye{};                  ///< 8 red, 8 green, 8 blue, 0..1
  std::array<float, 3> lFoot{};                  ///< R, G, B 0..1
  std::array<float, 3> rFoot{};                  ///< R, G, B 0..1
  std::array<float, 12> skull{};                 ///< 0..1, head LEDs
  std::array<bool, 2> sonar{true, true};         ///< enable left, right sonar
  std::uint16_t presentKeys = 0;                 ///< bit (1 << LolaActuatorKey) per key

  bool has(LolaActuatorKey key) const { return (presentKeys >> static_cast<unsigned>(key)) & 1u; }
  void setPresent(LolaActuatorKey key)
  {
    presentKeys |= static_cast<std::uint16_t>(1u << static_cast<unsigned>(key));
  }
  void setAllPresent() { presentKeys = (1u << lolaActuatorKeyCount) - 1u; }
};

enum class LolaDecodeStatus : std::uint8_t
{
  ok,         ///< one complete frame was decoded from the start of the bytes
  incomplete, ///< the bytes are a valid beginning of a frame; more are needed
  malformed,  ///< the bytes cannot start a valid frame; `error` says which key and what was wrong
};

struct LolaDecodeResult
{
  LolaDecodeStatus status = LolaDecodeStatus::incomplete;
  std::size_t consumed = 0; ///< bytes of the decoded frame (status ok)
  FixedString<159> error;   ///< e.g. "key 'Position': expected 25 elements, got 24"

  bool ok() const { return status == LolaDecodeStatus::ok; }
};

/// Writes one msgpack map with the 13 keys in the order of NaoFacts.md §2 (float32 values, Status as positive
/// fixints, RobotConfig as strings). Returns the bytes written, or 0 if `out` is too small or a Status lies
/// outside 0..127 (it would not be a fixint and the frame would not have the fixed size).
std::size_t encodeSensorFrame(const LolaSensorFrame& frame, std::span<std::uint8_t> out);

/// Writes the keys in frame.presentKeys as one msgpack map (float32 arrays, Sonar as booleans). Returns the
/// bytes written, or 0 if `out` is too small.
std::size_t encodeActuatorFrame(const LolaActuatorFrame& frame, std::span<std::uint8_t> out);

/// Decodes the map at the start of `bytes`; trailing bytes are left alone (result.consumed says where the
/// frame ended). Keys may come in any order; every key except RobotConfig is required. Numbers may be
/// float32, float64 or integers; Status must be integers. Unknown or repeated keys, wrong types and wrong
/// lengths are malformed. On malformed input `frame` may be partly overwritten: decode into scratch storage
/// when the old values matter.
LolaDecodeResult decodeSensorFrame(std::span<const std::uint8_t> bytes, LolaSensorFrame& frame);

/// Like decodeSensorFrame for the client's answer: any subset of the 11 keys; frame.presentKeys is set to the
/// keys found and the other fields keep their values.
LolaDecodeResult decodeActuatorFrame(std::span<const std::uint8_t> bytes, LolaActuatorFrame& frame);

/// Copies the keys present in `update` into `command` and marks them present there: how a partial answer
/// changes the command a body holds.
void mergeActuatorFrame(const LolaActuatorFrame& update, LolaActuatorFrame& command);

// Sign conventions. Both ends use these functions, so the simulator sends what the body expects.
//
// Accelerometer (NaoFacts.md §7): LoLA reports the negated specific force in the torso frame on every axis (z ≈
// −9.81 m/s² when upright and still), as a real V6 frame shows against LoLA's Angles and the legs' kinematics
// (Tests/LolaRealFrameTests.cpp) and as B-Human negates all three axes. Our InertialSensorData::accelerometer is the
// specific force itself (z ≈ +9.81).
inline std::array<float, 3> specificForceFromLolaAccelerometer(const std::array<float, 3>& raw)
{
  return {-raw[0], -raw[1], -raw[2]};
}
inline std::array<float, 3> lolaAccelerometerFromSpecificForce(const std::array<float, 3>& specificForce)
{
  return {-specificForce[0], -specificForce[1], -specificForce[2]};
}
// Gyroscope and Angles are taken as right-handed torso-frame values (x forward, y left, z up; pitch forward
// positive) and passed through unchanged in both directions.

/// Battery indices (NaoFacts.md §6: B-Human's and HULKs' order, used on real V6 robots).
enum class LolaBattery : std::uint8_t
{
  charge = 0,
  status = 1,
  current = 2,
  temperature = 3,
};
/// Charging is bit 0x80 of the status value taken as a 16-bit integer (B-Human, nao_lola).
bool lolaBatteryCharging(float status);
} // namespace nao
