// Decoding of both frame types: a schema table per frame type and one generic map walker over MsgpackReader
// (why a hand-written reader and not msgpack-cxx: see MsgpackReader.h).
#include "Platform/LoLA/LolaProtocol.h"
#include "Platform/LoLA/MsgpackReader.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <limits>

namespace nao
{
namespace
{
using lola_detail::MsgpackReader;
using lola_detail::ReadStatus;
using lola_detail::Token;
using lola_detail::TokenKind;

enum class ElementKind : std::uint8_t
{
  number,  ///< stored as float; float32, float64 and integers accepted
  integer, ///< stored as int32; integers only
  boolean,
  string, ///< stored as LolaString
};

struct Field
{
  std::string_view key;
  ElementKind kind;
  std::size_t count;
  void* target; ///< float*, std::int32_t*, bool* or LolaString*, by kind
};

template<std::size_t N>
Field numbers(std::string_view key, std::array<float, N>& values)
{
  return {key, ElementKind::number, N, values.data()};
}

constexpr std::size_t longestKey = 13; // "Accelerometer"

LolaDecodeResult failure(const char* format, ...) __attribute__((format(printf, 1, 2)));
LolaDecodeResult failure(const char* format, ...)
{
  char text[160];
  va_list arguments;
  va_start(arguments, format);
  std::vsnprintf(text, sizeof(text), format, arguments);
  va_end(arguments);
  LolaDecodeResult result;
  result.status = LolaDecodeStatus::malformed;
  result.error = std::string_view(text);
  return result;
}

LolaDecodeResult incomplete()
{
  return LolaDecodeResult{};
}

/// Printable copy of a key from the wire for error messages.
void printableKey(const std::uint8_t* bytes, std::size_t length, char (&out)[longestKey + 4])
{
  const std::size_t shown = std::min(length, longestKey);
  for (std::size_t i = 0; i < shown; ++i)
    out[i] = bytes[i] >= 0x20 && bytes[i] < 0x7f ? static_cast<char>(bytes[i]) : '?';
  std::size_t end = shown;
  if (length > shown)
    for (int i = 0; i < 3; ++i)
      out[end++] = '.';
  out[end] = '\0';
}

/// Reads one array element into field.target[index]; returns ok, incomplete or a failure naming key and
/// index.
LolaDecodeResult readElement(MsgpackReader& reader, const Field& field, std::size_t index)
{
  Token token;
  const ReadStatus status = reader.next(token);
  if (status == ReadStatus::incomplete) return incomplete();
  const int keyLength = static_cast<int>(field.key.size());
  if (status == ReadStatus::invalid)
    return failure("key '%.*s' element %zu: byte 0xc1 is not valid MessagePack", keyLength, field.key.data(),
                   index);
  const std::string_view got = lola_detail::describe(token.kind);
  switch (field.kind)
  {
  case ElementKind::number:
  {
    float* values = static_cast<float*>(field.target);
    if (token.kind == TokenKind::float32 || token.kind == TokenKind::float64)
      values[index] = static_cast<float>(token.floatValue);
    else if (token.kind == TokenKind::unsignedInt)
      values[index] = static_cast<float>(token.unsignedValue);
    else if (token.kind == TokenKind::signedInt)
      values[index] = static_cast<float>(token.signedValue);
    else
      return failure("key '%.*s' element %zu: expected a number, got %.*s", keyLength, field.key.data(),
                     index, static_cast<int>(got.size()), got.data());
    break;
  }
  case ElementKind::integer:
  {
    std::int32_t* values = static_cast<std::int32_t*>(field.target);
    if (token.kind == TokenKind::unsignedInt &&
        token.unsignedValue <= std::numeric_limits<std::int32_t>::max())
      values[index] = static_cast<std::int32_t>(token.unsignedValue);
    else if (token.kind == TokenKind::signedInt &&
             token.signedValue >= std::numeric_limits<std::int32_t>::min())
      values[index] = static_cast<std::int32_t>(token.signedValue);
    else if (token.kind == TokenKind::unsignedInt || token.kind == TokenKind::signedInt)
      return failure("key '%.*s' element %zu: integer out of the 32-bit range", keyLength, field.key.data(),
                     index);
    else
      return failure("key '%.*s' element %zu: expected an integer, got %.*s", keyLength, field.key.data(),
                     index, static_cast<int>(got.size()), got.data());
    break;
  }
  case ElementKind::boolean:
    if (token.kind != TokenKind::boolean)
      return failure("key '%.*s' element %zu: expected a boolean, got %.*s", keyLength, field.key.data(),
                     index, static_cast<int>(got.size()), got.data());
    static_cast<bool*>(field.target)[index] = token.boolean;
    break;
  case ElementKind::string:
  {
    if (token.kind != TokenKind::string)
      return failure("key '%.*s' element %zu: expected a string, got %.*s", keyLength, field.key.data(),
                     index, static_cast<int>(got.size()), got.data());
    if (token.length > 31) // LolaString's capacity
      return failure("key '%.*s' element %zu: string of %u bytes, at most 31 expected", keyLength,
                     field.key.data(), index, token.length);
    const std::uint8_t* text = reader.payload(token.length);
    if (!text) return incomplete();
    static_cast<LolaString*>(field.target)[index] =
        std::string_view(reinterpret_cast<const char*>(text), token.length);
    break;
  }
  }
  LolaDecodeResult result;
  result.status = LolaDecodeStatus::ok;
  return result;
}

/// Walks one map against `fields`. `found` gets a bit per field index that the map carried.
LolaDecodeResult decodeMap(std::span<const std::uint8_t> bytes, std::span<const Field> fields,
                           const char* frameName, std::uint32_t& found)
{
  found = 0;
  MsgpackReader reader(bytes);
  Token header;
  ReadStatus status = reader.next(header);
  if (status == ReadStatus::incomplete) return incomplete();
  if (status == ReadStatus::invalid || header.kind != TokenKind::map)
    return failure("a %s frame must be a MessagePack map, got byte 0x%02x (%s)", frameName, header.firstByte,
                   status == ReadStatus::invalid ? "never used" : lola_detail::describe(header.kind).data());
  if (header.length > fields.size())
    return failure("map has %u entries, a %s frame has at most %zu keys", header.length, frameName,
                   fields.size());

  for (std::uint32_t entry = 0; entry < header.length; ++entry)
  {
    Token key;
    status = reader.next(key);
    if (status == ReadStatus::incomplete) return incomplete();
    if (status == ReadStatus::invalid || key.kind != TokenKind::string)
      return failure("key %u of the map is not a string (byte 0x%02x)", entry, key.firstByte);
    if (key.length > longestKey)
      return failure("key %u: a string of %u bytes is no LoLA key", entry, key.length);
    const std::uint8_t* keyBytes = reader.payload(key.length);
    if (!keyBytes) return incomplete();
    const std::string_view keyText(reinterpret_cast<const char*>(keyBytes), key.length);
    std::size_t fieldIndex = 0;
    while (fieldIndex < fields.size() && fields[fieldIndex].key != keyText)
      ++fieldIndex;
    if (fieldIndex == fields.size())
    {
      char printable[longestKey + 4];
      printableKey(keyBytes, key.length, printable);
      return failure("unknown key '%s' in a %s frame", printable, frameName);
    }
    const Field& field = fields[fieldIndex];
    const int keyLength = static_cast<int>(field.key.size());
    if (found & (1u << fieldIndex)) return failure("key '%.*s' appears twice", keyLength, field.key.data());
    found |= 1u << fieldIndex;

    Token array;
    status = reader.next(array);
    if (status == ReadStatus::incomplete) return incomplete();
    if (status == ReadStatus::invalid || array.kind != TokenKind::array)
      return failure("key '%.*s': expected an array of %zu, got byte 0x%02x (%s)", keyLength,
                     field.key.data(), field.count, array.firstByte,
                     status == ReadStatus::invalid ? "never used" : lola_detail::describe(array.kind).data());
    if (array.length != field.count)
      return failure("key '%.*s': expected %zu elements, got %u", keyLength, field.key.data(), field.count,
                     array.length);
    for (std::size_t i = 0; i < field.count; ++i)
    {
      LolaDecodeResult element = readElement(reader, field, i);
      if (!element.ok()) return element;
    }
  }
  LolaDecodeResult result;
  result.status = LolaDecodeStatus::ok;
  result.consumed = reader.position();
  return result;
}
} // namespace

LolaDecodeResult decodeSensorFrame(std::span<const std::uint8_t> bytes, LolaSensorFrame& frame)
{
  const Field fields[] = {
      numbers("Stiffness", frame.stiffness),
      numbers("Position", frame.position),
      numbers("Temperature", frame.temperature),
      numbers("Current", frame.current),
      numbers("Battery", frame.battery),
      numbers("Accelerometer", frame.accelerometer),
      numbers("Gyroscope", frame.gyroscope),
      numbers("Angles", frame.angles),
      numbers("Sonar", frame.sonar),
      numbers("FSR", frame.fsr),
      numbers("Touch", frame.touch),
      {"Status", ElementKind::integer, lolaJointCount, frame.status.data()},
      {"RobotConfig", ElementKind::string, 4, frame.robotConfig.data()},
  };
  constexpr std::size_t robotConfigIndex = 12;
  std::uint32_t found = 0;
  LolaDecodeResult result = decodeMap(bytes, fields, "sensor", found);
  if (!result.ok()) return result;
  for (std::size_t i = 0; i < robotConfigIndex; ++i)
    if (!(found & (1u << i)))
      return failure("missing key '%.*s' in a sensor frame", static_cast<int>(fields[i].key.size()),
                     fields[i].key.data());
  frame.robotConfigPresent = found & (1u << robotConfigIndex);
  return result;
}

LolaDecodeResult decodeActuatorFrame(std::span<const std::uint8_t> bytes, LolaActuatorFrame& frame)
{
  // Same order as LolaActuatorKey, so a field's index is its key's bit.
  const Field fields[] = {
      numbers("Position", frame.position),
      numbers("Stiffness", frame.stiffness),
      numbers("REar", frame.rEar),
      numbers("LEar", frame.lEar),
      numbers("Chest", frame.chest),
      numbers("LEye", frame.lEye),
      numbers("REye", frame.rEye),
      numbers("LFoot", frame.lFoot),
      numbers("RFoot", frame.rFoot),
      numbers("Skull", frame.skull),
      {"Sonar", ElementKind::boolean, 2, frame.sonar.data()},
  };
  static_assert(std::size(fields) == lolaActuatorKeyCount);
  std::uint32_t found = 0;
  LolaDecodeResult result = decodeMap(bytes, fields, "actuator", found);
  if (result.ok()) frame.presentKeys = static_cast<std::uint16_t>(found);
  return result;
}
} // namespace nao
