// Encoding of both frame types (msgpack-cxx's packer over the caller's buffer), merging answers, battery
// flag.
#include "Platform/LoLA/LolaProtocol.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <msgpack/pack.hpp>

namespace nao
{
namespace
{
/// The packer's output stream: a caller's span. Overflow is remembered instead of thrown.
class FixedBufferStream
{
public:
  explicit FixedBufferStream(std::span<std::uint8_t> out) : out_(out) {}
  void write(const char* data, std::size_t size)
  {
    if (overflow_ || out_.size() - size_ < size)
    {
      overflow_ = true;
      return;
    }
    std::memcpy(out_.data() + size_, data, size);
    size_ += size;
  }
  std::size_t result() const { return overflow_ ? 0 : size_; }

private:
  std::span<std::uint8_t> out_;
  std::size_t size_ = 0;
  bool overflow_ = false;
};
using Packer = msgpack::packer<FixedBufferStream>;

/// Always the 5-byte float32 form. msgpack-cxx 4.x's pack_float writes integral values as integers (0.f
/// becomes the fixint 0), which would change both the element type and the frame size that LoLA clients rely
/// on.
void packFloat32(FixedBufferStream& stream, float value)
{
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
  const char bytes[5] = {static_cast<char>(0xca), static_cast<char>(bits >> 24),
                         static_cast<char>(bits >> 16), static_cast<char>(bits >> 8),
                         static_cast<char>(bits)};
  stream.write(bytes, sizeof(bytes));
}

void packKey(Packer& packer, std::string_view key)
{
  packer.pack_str(static_cast<std::uint32_t>(key.size()));
  packer.pack_str_body(key.data(), static_cast<std::uint32_t>(key.size()));
}

template<std::size_t N>
void packFloats(Packer& packer, FixedBufferStream& stream, std::string_view key,
                const std::array<float, N>& values)
{
  packKey(packer, key);
  packer.pack_array(N);
  for (float value : values)
    packFloat32(stream, value);
}
} // namespace

std::size_t encodeSensorFrame(const LolaSensorFrame& frame, std::span<std::uint8_t> out)
{
  for (std::int32_t status : frame.status)
    if (status < 0 || status > 127) return 0;
  FixedBufferStream stream(out);
  Packer packer(stream);
  packer.pack_map(13);
  packFloats(packer, stream, "Stiffness", frame.stiffness);
  packFloats(packer, stream, "Position", frame.position);
  packFloats(packer, stream, "Temperature", frame.temperature);
  packFloats(packer, stream, "Current", frame.current);
  packFloats(packer, stream, "Battery", frame.battery);
  packFloats(packer, stream, "Accelerometer", frame.accelerometer);
  packFloats(packer, stream, "Gyroscope", frame.gyroscope);
  packFloats(packer, stream, "Angles", frame.angles);
  packFloats(packer, stream, "Sonar", frame.sonar);
  packFloats(packer, stream, "FSR", frame.fsr);
  packFloats(packer, stream, "Touch", frame.touch);
  packKey(packer, "Status");
  packer.pack_array(lolaJointCount);
  for (std::int32_t status : frame.status)
    packer.pack_uint8(static_cast<std::uint8_t>(status)); // 0..127: the one-byte positive fixint
  packKey(packer, "RobotConfig");
  packer.pack_array(4);
  for (const LolaString& text : frame.robotConfig)
  {
    packer.pack_str(static_cast<std::uint32_t>(text.view().size()));
    packer.pack_str_body(text.view().data(), static_cast<std::uint32_t>(text.view().size()));
  }
  return stream.result();
}

std::size_t encodeActuatorFrame(const LolaActuatorFrame& frame, std::span<std::uint8_t> out)
{
  FixedBufferStream stream(out);
  Packer packer(stream);
  packer.pack_map(
      static_cast<std::uint32_t>(std::popcount(frame.presentKeys & ((1u << lolaActuatorKeyCount) - 1))));
  auto floats = [&](LolaActuatorKey key, const auto& values)
  {
    if (frame.has(key)) packFloats(packer, stream, streams::enumName(key), values);
  };
  floats(LolaActuatorKey::Position, frame.position);
  floats(LolaActuatorKey::Stiffness, frame.stiffness);
  floats(LolaActuatorKey::REar, frame.rEar);
  floats(LolaActuatorKey::LEar, frame.lEar);
  floats(LolaActuatorKey::Chest, frame.chest);
  floats(LolaActuatorKey::LEye, frame.lEye);
  floats(LolaActuatorKey::REye, frame.rEye);
  floats(LolaActuatorKey::LFoot, frame.lFoot);
  floats(LolaActuatorKey::RFoot, frame.rFoot);
  floats(LolaActuatorKey::Skull, frame.skull);
  if (frame.has(LolaActuatorKey::Sonar))
  {
    packKey(packer, "Sonar");
    packer.pack_array(2);
    for (bool enabled : frame.sonar)
      enabled ? packer.pack_true() : packer.pack_false();
  }
  return stream.result();
}
void mergeActuatorFrame(const LolaActuatorFrame& update, LolaActuatorFrame& command)
{
  auto copy = [&](LolaActuatorKey key, const auto& from, auto& to)
  {
    if (update.has(key))
    {
      to = from;
      command.setPresent(key);
    }
  };
  copy(LolaActuatorKey::Position, update.position, command.position);
  copy(LolaActuatorKey::Stiffness, update.stiffness, command.stiffness);
  copy(LolaActuatorKey::REar, update.rEar, command.rEar);
  copy(LolaActuatorKey::LEar, update.lEar, command.lEar);
  copy(LolaActuatorKey::Chest, update.chest, command.chest);
  copy(LolaActuatorKey::LEye, update.lEye, command.lEye);
  copy(LolaActuatorKey::REye, update.rEye, command.rEye);
  copy(LolaActuatorKey::LFoot, update.lFoot, command.lFoot);
  copy(LolaActuatorKey::RFoot, update.rFoot, command.rFoot);
  copy(LolaActuatorKey::Skull, update.skull, command.skull);
  copy(LolaActuatorKey::Sonar, update.sonar, command.sonar);
}

bool lolaBatteryCharging(float status)
{
  if (!std::isfinite(status) || status < -2147483648.f || status >= 2147483648.f) return false;
  const auto word = static_cast<std::int16_t>(static_cast<std::int32_t>(status)); // the low 16 bits
  return (word & 0x80) != 0;
}
} // namespace nao
