// The log reader: a log file (file header, CRC-checked chunks, the type table, frames of records) decoded into
// representations as LogTool and the tests read it. The first byte chooses whether the harness repairs every
// chunk's CRC before reading (odd) or leaves the bytes as they are (even): with repaired CRCs the mutations reach
// the type table and the records instead of stopping at the checksum. A decoded record must serialize again.
#include "Framework/Client/LogDecoder.h"
#include "FuzzSupport.h"
#include "Tools/BinaryIO/Crc32.h"
#include "Tools/BinaryIO/LittleEndian.h"
#include <cstdlib>
#include <cstring>
#include <vector>

namespace
{
constexpr std::size_t fileHeaderBytes = 12;
constexpr std::size_t chunkHeaderBytes = 13; // "CHNK", kind, u32 length, u32 CRC (ChunkFile.h)

void repairChunkCrcs(std::vector<std::uint8_t>& file)
{
  std::size_t offset = fileHeaderBytes;
  while (offset + chunkHeaderBytes <= file.size())
  {
    if (std::memcmp(file.data() + offset, "CHNK", 4) != 0)
    {
      ++offset;
      continue;
    }
    char* header = reinterpret_cast<char*>(file.data() + offset);
    const std::size_t length = nao::binaryio::loadLittleEndian32(header + 5);
    if (length > file.size() - offset - chunkHeaderBytes) break;
    const std::span<const char> payload(header + chunkHeaderBytes, length);
    nao::binaryio::storeLittleEndian32(header + 9, nao::binaryio::crc32(payload));
    offset += chunkHeaderBytes + length;
  }
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  static nao::fuzz::ScratchCleanup cleanup;
  if (size == 0) return 0;
  std::vector<std::uint8_t> file(data + 1, data + size);
  if (data[0] & 1) repairChunkCrcs(file);
  const auto path = nao::fuzz::writeScratchFile("fuzz.log", file);
  try
  {
    nao::LogDecoder decoder(path);
    const auto& registry = nao::RepresentationRegistry::instance();
    std::uint32_t frameNumber = 0;
    std::vector<nao::DecodedRecord> records;
    std::vector<char> bytes;
    while (decoder.next(frameNumber, records))
      for (const nao::DecodedRecord& record : records)
      {
        if (!record.object)
        {
          if (record.error.empty()) std::abort(); // an undecoded record says why
          continue;
        }
        const int id = registry.find(record.name);
        if (id < 0) std::abort(); // decoded, so this binary knows the type
        bytes.clear();
        registry.info(static_cast<nao::RepresentationId>(id)).saveBinary(record.object.get(), bytes);
      }
  }
  catch (const std::exception& error)
  {
    if (std::string_view(error.what()).empty()) std::abort();
  }
  return 0;
}
