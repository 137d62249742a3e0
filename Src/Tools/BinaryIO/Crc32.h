#pragma once
// CRC-32 (IEEE 802.3, the zlib/PNG polynomial) of a byte span; guards every chunk payload of a log file.

#include <boost/crc.hpp>
#include <cstdint>
#include <span>

namespace nao::binaryio
{
inline std::uint32_t crc32(std::span<const char> bytes)
{
  boost::crc_32_type crc;
  crc.process_bytes(bytes.data(), bytes.size());
  return crc.checksum();
}
} // namespace nao::binaryio
