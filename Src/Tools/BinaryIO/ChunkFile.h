#pragma once
// The log file container: a file header followed by length-prefixed, CRC-checked chunks.
//
// All integers are little-endian.
//
//   File header (12 bytes):
//     8 bytes  magic "NAOLOG\0\1"
//     u32      format version (chunkFormatVersion)
//   Chunk (13-byte header + payload):
//     u32      magic, the bytes "CHNK"
//     u8       kind (ChunkKind)
//     u32      payloadLength in bytes
//     u32      CRC-32 (IEEE) of the payload
//     payloadLength bytes of payload
//
// Robustness: the writer appends each chunk with one header+payload pair; a process killed mid-write leaves
// at most one incomplete chunk at the end, which the reader reports ("truncated chunk at offset N ignored")
// and ignores. A chunk with a bad CRC, an unknown kind or a payloadLength above the reader's bound is skipped
// with a warning, and the reader resynchronises by scanning for the next "CHNK". A payloadLength is never
// allocated before it has been checked against the bound and against the bytes left in the file. The CRC
// covers the payload only; a corrupted kind or length is caught by the CRC of the wrong span (or the kind
// check), with the small residual risk of any 32-bit checksum.

#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nao::binaryio
{
enum class ChunkKind : std::uint8_t
{
  TypeTable = 1,  ///< describes the record types of the log; first chunk of a log, repeated later
  Frame = 2,      ///< one frame's records
  Annotation = 3, ///< free UTF-8 text
  End = 4,        ///< empty; written by close(): its absence means the writer was killed or crashed
};

const char* toString(ChunkKind kind);
bool isKnownChunkKind(std::uint8_t kind);

inline constexpr std::array<char, 8> chunkFileMagic = {'N', 'A', 'O', 'L', 'O', 'G', '\0', '\1'};
inline constexpr std::uint32_t chunkFormatVersion = 1;
inline constexpr std::size_t chunkFileHeaderBytes = 12;
inline constexpr std::array<char, 4> chunkMagic = {'C', 'H', 'N', 'K'};
inline constexpr std::size_t chunkHeaderBytes = 13;
inline constexpr std::uint32_t defaultMaxChunkPayloadBytes = 16u * 1024u * 1024u;

struct ChunkWriterOptions
{
  /// true: every chunk is handed to the operating system when written, so a killed process loses at most the
  /// chunk being written. false: chunks collect in the stream buffer (fewer system calls, more lost on a
  /// kill).
  bool flushEveryChunk = true;
  std::size_t streamBufferBytes = 64u * 1024u;
  /// Larger payloads are refused when writing, so that no reader with the default bound rejects them.
  std::uint32_t maxPayloadBytes = defaultMaxChunkPayloadBytes;
};

/// Writes a chunk file. Not thread-safe; one writer per file.
class ChunkWriter
{
public:
  /// Creates (truncates) `path` and writes the file header; throws IoError.
  explicit ChunkWriter(const std::filesystem::path& path, ChunkWriterOptions options = {});
  ~ChunkWriter(); ///< closes (writing the End chunk) if still open; never throws
  ChunkWriter(const ChunkWriter&) = delete;
  ChunkWriter& operator=(const ChunkWriter&) = delete;

  /// Appends one chunk; throws IoError when the file cannot be written, std::length_error when the payload
  /// exceeds options.maxPayloadBytes. Does not allocate.
  void writeChunk(ChunkKind kind, std::span<const char> payload);
  void flush();
  /// Writes the End chunk and closes the file; further writes throw. Safe to call twice.
  void close();

  bool isOpen() const { return file_ != nullptr; }
  std::uint64_t bytesWritten() const { return bytesWritten_; }
  const std::filesystem::path& path() const { return path_; }

private:
  void writeBytes(const char* bytes, std::size_t count);
  [[noreturn]] void throwIoError(std::string_view action) const;

  std::filesystem::path path_;
  ChunkWriterOptions options_;
  std::FILE* file_ = nullptr;
  std::vector<char> streamBuffer_;
  std::uint64_t bytesWritten_ = 0;
};

struct Chunk
{
  ChunkKind kind = ChunkKind::End;
  std::uint64_t offset = 0; ///< byte offset of the chunk header in the file
  std::vector<char> payload;
};

struct ChunkReaderOptions
{
  /// Larger payloadLength fields are treated as corruption and never allocated.
  std::uint32_t maxPayloadBytes = defaultMaxChunkPayloadBytes;
  /// Warnings beyond this count are counted but not stored (a badly damaged file must not exhaust memory).
  std::size_t maxStoredWarnings = 1000;
};

/// Counts of what the reader skipped; each skip also produced a warning.
struct ChunkReadStatistics
{
  std::size_t crcMismatches = 0;
  std::size_t oversizedLengths = 0;
  std::size_t unknownKinds = 0;
  std::size_t missingMagics = 0;    ///< positions where a chunk was expected but "CHNK" was not found
  std::size_t lengthsPastEnd = 0;   ///< chunks whose length runs past the end while later chunks exist
  std::size_t truncatedChunks = 0;  ///< incomplete last chunk (0 or 1)
  std::size_t warningsReported = 0; ///< including those not stored
};

/// Reads a chunk file front to back, skipping damaged chunks with warnings. Not thread-safe.
class ChunkReader
{
public:
  /// Opens `path` and checks its header; throws IoError (cannot open) or FormatError naming the file.
  explicit ChunkReader(const std::filesystem::path& path, ChunkReaderOptions options = {});
  ~ChunkReader();
  ChunkReader(const ChunkReader&) = delete;
  ChunkReader& operator=(const ChunkReader&) = delete;

  /// The next intact chunk, or nullopt at the end of the file (including after a truncated last chunk).
  std::optional<Chunk> next();
  /// Like next() but reuses `chunk`'s payload capacity; returns false at the end.
  bool readNext(Chunk& chunk);

  /// "offset 1234: CRC mismatch, chunk skipped", in file order.
  const std::vector<std::string>& warnings() const { return warnings_; }
  const ChunkReadStatistics& statistics() const { return statistics_; }
  /// Reads again from the first chunk; the warnings and statistics start afresh (reading reports them again).
  void rewind();
  /// Lets layers above report problems in the same list and format.
  void reportWarning(std::uint64_t offset, std::string_view message);

  std::uint32_t formatVersion() const { return formatVersion_; }
  std::uint64_t fileBytes() const { return fileBytes_; }
  const std::filesystem::path& path() const { return path_; }

private:
  void readAt(std::uint64_t offset, char* destination, std::size_t count);
  /// Offset of the next "CHNK" at or after `from`, if any.
  std::optional<std::uint64_t> findChunkMagic(std::uint64_t from);
  /// Continues at the next magic after the chunk at `offset`; false when there is none.
  bool resynchroniseAfter(std::uint64_t offset);
  /// Reports the incomplete chunk at `offset` and ends reading; returns false for readNext().
  bool endAtTruncatedChunk(std::uint64_t offset);
  void storeWarning(std::string warning);

  std::filesystem::path path_;
  ChunkReaderOptions options_;
  std::FILE* file_ = nullptr;
  std::uint64_t fileBytes_ = 0;
  std::uint64_t position_ = 0;       ///< where the next chunk is expected
  std::uint64_t streamPosition_ = 0; ///< where the FILE* currently stands
  std::uint32_t formatVersion_ = 0;
  std::vector<char> scanBuffer_;
  std::vector<std::string> warnings_;
  ChunkReadStatistics statistics_;
};
} // namespace nao::binaryio
