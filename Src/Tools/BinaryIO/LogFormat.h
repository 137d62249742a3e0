#pragma once
// The generic log on top of the chunk file: a type table, then one Frame chunk per logged frame. The type table is
// written twice at the start and again every typeTableRepeatFrames frames, so that one damaged chunk cannot make the
// whole log unreadable: the reader takes the first intact copy and still reads the frames before it.
//
// TypeTable chunk payload: Boost binary serialization (BoundedArchive) of TypeTable.
// Frame chunk payload (little-endian):
//   u32 frameNumber
//   records, until the payload ends: u16 typeId, u32 size, size bytes (the record's serialized value)
// Annotation chunk payload: UTF-8 text. An End chunk closes a log that was closed properly.
//
// Nothing here knows framework types: a record is a type id plus bytes; the type table maps ids to the names
// and field descriptions the caller gives, so a log describes itself.

#include "Tools/BinaryIO/BoundedArchive.h"
#include "Tools/BinaryIO/ChunkFile.h"
#include "Tools/BinaryIO/LittleEndian.h"

#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#include <cstdint>
#include <filesystem>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nao::binaryio
{
struct TypeEntry
{
  std::uint16_t id = 0;
  std::string name;   ///< e.g. the representation's name
  std::string schema; ///< text description of the fields, as the caller states it

  template<class Archive>
  void serialize(Archive& archive, unsigned int /*version*/)
  {
    archive& id& name& schema;
  }
  bool operator==(const TypeEntry&) const = default;
};

struct TypeTable
{
  std::vector<TypeEntry> entries;

  const TypeEntry* find(std::uint16_t id) const;
  const TypeEntry* find(std::string_view name) const;
  /// Throws std::invalid_argument naming the first id or name used twice.
  void checkUnique() const;

  template<class Archive>
  void serialize(Archive& archive, unsigned int /*version*/)
  {
    archive& entries;
  }
  bool operator==(const TypeTable&) const = default;
};

inline constexpr std::size_t frameHeaderBytes = 4;  ///< u32 frameNumber
inline constexpr std::size_t recordHeaderBytes = 6; ///< u16 typeId + u32 size

/// Builds a Frame chunk payload in a buffer reserved once and reused: after the first frames have grown it to
/// its working size, begin() and addRecord() do not allocate.
class FrameChunkBuilder
{
public:
  explicit FrameChunkBuilder(std::size_t reservedBytes = 64u * 1024u);

  /// Starts a new frame, dropping the previous one's records (the capacity stays).
  void begin(std::uint32_t frameNumber);
  void addRecord(std::uint16_t typeId, std::span<const char> bytes);
  /// Serializes `value` straight into the frame buffer (Boost's archive itself still allocates its
  /// bookkeeping). On an exception the frame is left as it was before the call.
  template<class T>
  void addSerialized(std::uint16_t typeId, const T& value);

  std::span<const char> payload() const { return buffer_; }
  std::uint32_t frameNumber() const { return loadLittleEndian32(buffer_.data()); }
  std::size_t recordCount() const { return recordCount_; }
  std::size_t capacity() const { return buffer_.capacity(); }

private:
  std::size_t openRecord(std::uint16_t typeId);
  void closeRecord(std::size_t recordStart);

  std::vector<char> buffer_;
  std::size_t recordCount_ = 0;
};

struct FrameRecord
{
  std::uint16_t typeId = 0;
  std::span<const char> bytes;
};

/// Validated, non-owning view of a Frame chunk payload; iterating it cannot overrun.
class FrameView
{
public:
  /// Checks every record header against the payload; throws FormatError naming the record and byte position.
  static FrameView parse(std::span<const char> payload);

  class Iterator
  {
  public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = FrameRecord;
    using difference_type = std::ptrdiff_t;
    using pointer = const FrameRecord*;
    using reference = const FrameRecord&;

    Iterator() = default;
    const FrameRecord& operator*() const { return current_; }
    const FrameRecord* operator->() const { return &current_; }
    Iterator& operator++();
    Iterator operator++(int);
    bool operator==(const Iterator& other) const { return position_ == other.position_; }

  private:
    friend class FrameView;
    Iterator(std::span<const char> payload, std::size_t position);
    void decode();

    std::span<const char> payload_;
    std::size_t position_ = 0;
    FrameRecord current_;
  };

  std::uint32_t frameNumber() const { return frameNumber_; }
  std::size_t recordCount() const { return recordCount_; }
  Iterator begin() const { return Iterator(payload_, frameHeaderBytes); }
  Iterator end() const { return Iterator(payload_, payload_.size()); }
  /// The first record of `typeId`, if the frame has one.
  std::optional<FrameRecord> find(std::uint16_t typeId) const;

private:
  std::span<const char> payload_;
  std::uint32_t frameNumber_ = 0;
  std::size_t recordCount_ = 0;
};

/// Writes a log: the type table first (twice), then frames and annotations, the type table again every
/// typeTableRepeatFrames frames; close() ends it with an End chunk.
class LogWriter
{
public:
  /// 1024 frames: 12 s at 83 Hz; the copies cost about 1 % of a log of the framework's representations.
  static constexpr std::uint32_t typeTableRepeatFrames = 1024;

  /// Throws std::invalid_argument for duplicate ids or names, IoError when the file cannot be written.
  LogWriter(const std::filesystem::path& path, TypeTable typeTable, ChunkWriterOptions options = {});

  /// Throws std::invalid_argument when a record's type id is not in the type table.
  void writeFrame(const FrameChunkBuilder& frame);
  void writeAnnotation(std::string_view text);
  void flush() { chunks_.flush(); }
  void close() { chunks_.close(); }

  const TypeTable& typeTable() const { return typeTable_; }
  std::uint64_t bytesWritten() const { return chunks_.bytesWritten(); }

private:
  TypeTable typeTable_;
  std::vector<bool> knownTypeIds_;     ///< indexed by type id: a lookup without search per record
  std::vector<char> typeTablePayload_; ///< serialized once, written again without allocating
  std::uint32_t framesSinceTypeTable_ = 0;
  ChunkWriter chunks_;
};

struct LogFrame
{
  std::uint64_t offset = 0;  ///< of its chunk in the file
  std::vector<char> payload; ///< the Frame chunk payload, already validated
  /// Re-parses the payload (cheap: record headers only); valid as long as this LogFrame lives unchanged.
  FrameView view() const { return FrameView::parse(payload); }
  std::uint32_t frameNumber() const { return loadLittleEndian32(payload.data()); }
};

struct LogAnnotation
{
  std::uint64_t offset = 0;
  std::string text;
};

struct LogReaderOptions
{
  ChunkReaderOptions chunks;
  DeserializeOptions typeTable; ///< bounds for decoding the type table
};

/// Reads a log written by LogWriter. Damaged frames are skipped with warnings. The first intact copy of the type
/// table is used (a damaged first one is warned about, and the frames before the copy are still read); later copies
/// that equal it are skipped silently, others are warned about and ignored. Only a log without any intact type
/// table, a type table that uses a type id or name twice, or a bad file header makes the log unreadable, as
/// FormatError naming the file.
class LogReader
{
public:
  explicit LogReader(const std::filesystem::path& path, LogReaderOptions options = {});

  const TypeTable& typeTable() const { return typeTable_; }
  /// The next intact frame; annotations met on the way are collected. nullopt at the end of the log.
  std::optional<LogFrame> nextFrame();
  /// Like nextFrame() but reuses `frame`'s payload capacity; false at the end.
  bool readNextFrame(LogFrame& frame);

  const std::vector<LogAnnotation>& annotations() const { return annotations_; }
  const std::vector<std::string>& warnings() const { return chunks_.warnings(); }
  const ChunkReadStatistics& statistics() const { return chunks_.statistics(); }
  /// True once the End chunk was read: the writer closed the log properly.
  bool sawEnd() const { return sawEnd_; }

private:
  ChunkReader chunks_;
  DeserializeOptions typeTableOptions_;
  TypeTable typeTable_;
  std::uint64_t typeTableOffset_ = 0; ///< of the copy in use
  std::vector<LogAnnotation> annotations_;
  Chunk chunk_;
  bool sawEnd_ = false;
};

template<class T>
void FrameChunkBuilder::addSerialized(std::uint16_t typeId, const T& value)
{
  const std::size_t recordStart = openRecord(typeId);
  try
  {
    serializeAppend(buffer_, value);
  }
  catch (...)
  {
    buffer_.resize(recordStart);
    throw;
  }
  closeRecord(recordStart);
}
} // namespace nao::binaryio
