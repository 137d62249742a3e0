#include "Tools/BinaryIO/LogFormat.h"

#include "Tools/BinaryIO/Errors.h"

#include <limits>
#include <set>
#include <stdexcept>
#include <string>

namespace nao::binaryio
{
// ---------------------------------------------------------------------------------------------------------------
// TypeTable

const TypeEntry* TypeTable::find(std::uint16_t id) const
{
  for (const TypeEntry& entry : entries)
    if (entry.id == id) return &entry;
  return nullptr;
}

const TypeEntry* TypeTable::find(std::string_view name) const
{
  for (const TypeEntry& entry : entries)
    if (entry.name == name) return &entry;
  return nullptr;
}

void TypeTable::checkUnique() const
{
  std::set<std::uint16_t> ids;
  std::set<std::string_view> names;
  for (const TypeEntry& entry : entries)
  {
    if (!ids.insert(entry.id).second)
      throw std::invalid_argument("type table: id " + std::to_string(entry.id) + " used twice");
    if (!names.insert(entry.name).second)
      throw std::invalid_argument("type table: name '" + entry.name + "' used twice");
  }
}

// ---------------------------------------------------------------------------------------------------------------
// FrameChunkBuilder

FrameChunkBuilder::FrameChunkBuilder(std::size_t reservedBytes)
{
  buffer_.reserve(std::max(reservedBytes, frameHeaderBytes));
  begin(0);
}

void FrameChunkBuilder::begin(std::uint32_t frameNumber)
{
  buffer_.resize(frameHeaderBytes);
  storeLittleEndian32(buffer_.data(), frameNumber);
  recordCount_ = 0;
}

void FrameChunkBuilder::addRecord(std::uint16_t typeId, std::span<const char> bytes)
{
  const std::size_t recordStart = openRecord(typeId);
  buffer_.insert(buffer_.end(), bytes.begin(), bytes.end());
  closeRecord(recordStart);
}

std::size_t FrameChunkBuilder::openRecord(std::uint16_t typeId)
{
  const std::size_t recordStart = buffer_.size();
  buffer_.resize(recordStart + recordHeaderBytes);
  storeLittleEndian16(buffer_.data() + recordStart, typeId);
  return recordStart;
}

void FrameChunkBuilder::closeRecord(std::size_t recordStart)
{
  const std::size_t recordBytes = buffer_.size() - recordStart - recordHeaderBytes;
  if (recordBytes > std::numeric_limits<std::uint32_t>::max())
  {
    buffer_.resize(recordStart);
    throw std::length_error("record of " + std::to_string(recordBytes) + " bytes does not fit a u32 size");
  }
  storeLittleEndian32(buffer_.data() + recordStart + 2, static_cast<std::uint32_t>(recordBytes));
  ++recordCount_;
}

// ---------------------------------------------------------------------------------------------------------------
// FrameView

FrameView FrameView::parse(std::span<const char> payload)
{
  if (payload.size() < frameHeaderBytes)
    throw FormatError("frame payload of " + std::to_string(payload.size()) +
                      " bytes is shorter than its frame number");
  FrameView view;
  view.payload_ = payload;
  view.frameNumber_ = loadLittleEndian32(payload.data());
  std::size_t position = frameHeaderBytes;
  while (position < payload.size())
  {
    const std::size_t remaining = payload.size() - position;
    if (remaining < recordHeaderBytes)
      throw FormatError("frame " + std::to_string(view.frameNumber_) + ": record " +
                        std::to_string(view.recordCount_) + " at byte " + std::to_string(position) +
                        " has only " + std::to_string(remaining) + " of its " +
                        std::to_string(recordHeaderBytes) + " header bytes");
    const std::uint32_t size = loadLittleEndian32(payload.data() + position + 2);
    if (size > remaining - recordHeaderBytes)
      throw FormatError("frame " + std::to_string(view.frameNumber_) + ": record " +
                        std::to_string(view.recordCount_) + " at byte " + std::to_string(position) +
                        " declares " + std::to_string(size) + " bytes but only " +
                        std::to_string(remaining - recordHeaderBytes) + " remain");
    position += recordHeaderBytes + size;
    ++view.recordCount_;
  }
  return view;
}

std::optional<FrameRecord> FrameView::find(std::uint16_t typeId) const
{
  for (const FrameRecord& record : *this)
    if (record.typeId == typeId) return record;
  return std::nullopt;
}

FrameView::Iterator::Iterator(std::span<const char> payload, std::size_t position)
    : payload_(payload), position_(position)
{
  decode();
}

void FrameView::Iterator::decode()
{
  // parse() has validated every header, so only the end needs checking here.
  if (position_ >= payload_.size()) return;
  current_.typeId = loadLittleEndian16(payload_.data() + position_);
  const std::uint32_t size = loadLittleEndian32(payload_.data() + position_ + 2);
  current_.bytes = payload_.subspan(position_ + recordHeaderBytes, size);
}

FrameView::Iterator& FrameView::Iterator::operator++()
{
  position_ += recordHeaderBytes + current_.bytes.size();
  decode();
  return *this;
}

FrameView::Iterator FrameView::Iterator::operator++(int)
{
  Iterator previous = *this;
  ++*this;
  return previous;
}

// ---------------------------------------------------------------------------------------------------------------
// LogWriter

namespace
{
TypeTable checkedTypeTable(TypeTable typeTable)
{
  typeTable.checkUnique();
  return typeTable;
}
} // namespace

LogWriter::LogWriter(const std::filesystem::path& path, TypeTable typeTable, ChunkWriterOptions options)
    : typeTable_(checkedTypeTable(std::move(typeTable))),
      knownTypeIds_(std::size_t{std::numeric_limits<std::uint16_t>::max()} + 1, false), chunks_(path, options)
{
  for (const TypeEntry& entry : typeTable_.entries)
    knownTypeIds_[entry.id] = true;
  serializeInto(typeTablePayload_, typeTable_);
  chunks_.writeChunk(ChunkKind::TypeTable, typeTablePayload_);
  chunks_.writeChunk(ChunkKind::TypeTable, typeTablePayload_); // the copy if the first one is damaged
}

void LogWriter::writeFrame(const FrameChunkBuilder& frame)
{
  for (const FrameRecord& record : FrameView::parse(frame.payload()))
    if (!knownTypeIds_[record.typeId])
      throw std::invalid_argument("frame " + std::to_string(frame.frameNumber()) + ": type id " +
                                  std::to_string(record.typeId) + " is not in the type table");
  if (framesSinceTypeTable_ == typeTableRepeatFrames)
  {
    chunks_.writeChunk(ChunkKind::TypeTable, typeTablePayload_);
    framesSinceTypeTable_ = 0;
  }
  chunks_.writeChunk(ChunkKind::Frame, frame.payload());
  ++framesSinceTypeTable_;
}

void LogWriter::writeAnnotation(std::string_view text)
{
  chunks_.writeChunk(ChunkKind::Annotation, std::span<const char>(text.data(), text.size()));
}

// ---------------------------------------------------------------------------------------------------------------
// LogReader

LogReader::LogReader(const std::filesystem::path& path, LogReaderOptions options)
    : chunks_(path, options.chunks), typeTableOptions_(options.typeTable)
{
  const std::string file = "'" + path.string() + "'";
  std::optional<Chunk> firstOther;   // the first intact chunk that is not a type table
  std::optional<std::string> damage; // why the type table at the start could not be used
  bool found = false;
  while (!found && chunks_.readNext(chunk_))
  {
    if (chunk_.kind != ChunkKind::TypeTable)
    {
      if (!firstOther) firstOther = Chunk{chunk_.kind, chunk_.offset, {}};
      continue;
    }
    try
    {
      deserialize(chunk_.payload, typeTable_, typeTableOptions_);
      found = true;
    }
    catch (const FormatError& error)
    {
      if (!damage)
        damage =
            "type table at offset " + std::to_string(chunk_.offset) + " does not decode: " + error.what();
    }
  }
  if (!found)
  {
    if (damage) throw FormatError(file + ": " + *damage + ", and no intact copy follows");
    if (firstOther)
      throw FormatError(file + ": log has no type table (first intact chunk is " +
                        toString(firstOther->kind) + " at offset " + std::to_string(firstOther->offset) +
                        ")");
    throw FormatError(file + ": log has no type table (no intact chunk)");
  }
  typeTableOffset_ = chunk_.offset;
  try
  {
    // Two types under one id (or name) would decode records as the wrong type; every copy would repeat it.
    typeTable_.checkUnique();
  }
  catch (const std::invalid_argument& error)
  {
    throw FormatError(file + ": " + error.what() + " (type table at offset " + std::to_string(chunk_.offset) +
                      "): the log cannot be read unambiguously");
  }
  const bool damagedBefore = !chunks_.warnings().empty() || damage || firstOther;
  if (damagedBefore)
  {
    // Read again from the start, so that the frames before the copy are not lost.
    const std::uint64_t copyOffset = chunk_.offset;
    chunks_.rewind();
    chunks_.reportWarning(copyOffset,
                          "the type table at the start of the log is damaged or missing; read with "
                          "its copy at this offset");
  }
}

std::optional<LogFrame> LogReader::nextFrame()
{
  LogFrame frame;
  if (!readNextFrame(frame)) return std::nullopt;
  return frame;
}

bool LogReader::readNextFrame(LogFrame& frame)
{
  while (chunks_.readNext(chunk_))
  {
    switch (chunk_.kind)
    {
    case ChunkKind::Frame:
      try
      {
        FrameView::parse(chunk_.payload);
      }
      catch (const FormatError& error)
      {
        chunks_.reportWarning(chunk_.offset, std::string("malformed frame skipped: ") + error.what());
        continue;
      }
      frame.offset = chunk_.offset;
      std::swap(frame.payload, chunk_.payload);
      return true;
    case ChunkKind::Annotation:
      annotations_.push_back({chunk_.offset, std::string(chunk_.payload.begin(), chunk_.payload.end())});
      continue;
    case ChunkKind::End:
      sawEnd_ = true;
      continue;
    case ChunkKind::TypeTable:
      if (chunk_.offset == typeTableOffset_) continue;
      try
      {
        TypeTable copy;
        deserialize(chunk_.payload, copy, typeTableOptions_);
        if (copy != typeTable_)
          chunks_.reportWarning(chunk_.offset, "type table differs from the one in use, ignored");
      }
      catch (const FormatError& error)
      {
        chunks_.reportWarning(chunk_.offset,
                              std::string("type table copy does not decode, ignored: ") + error.what());
      }
      continue;
    }
  }
  return false;
}
} // namespace nao::binaryio
