#pragma once
// Fixed-width little-endian integers in byte buffers. Written with shifts rather than memcpy so that the
// file format does not depend on the host's byte order.

#include <cstdint>

namespace nao::binaryio
{
inline void storeLittleEndian16(char* destination, std::uint16_t value)
{
  destination[0] = static_cast<char>(value & 0xFFu);
  destination[1] = static_cast<char>(value >> 8);
}

inline void storeLittleEndian32(char* destination, std::uint32_t value)
{
  for (int byte = 0; byte < 4; ++byte)
    destination[byte] = static_cast<char>((value >> (8 * byte)) & 0xFFu);
}

inline std::uint16_t loadLittleEndian16(const char* source)
{
  return static_cast<std::uint16_t>(static_cast<unsigned char>(source[0]) |
                                    (static_cast<unsigned char>(source[1]) << 8));
}

inline std::uint32_t loadLittleEndian32(const char* source)
{
  std::uint32_t value = 0;
  for (int byte = 0; byte < 4; ++byte)
    value |= static_cast<std::uint32_t>(static_cast<unsigned char>(source[byte])) << (8 * byte);
  return value;
}
} // namespace nao::binaryio
