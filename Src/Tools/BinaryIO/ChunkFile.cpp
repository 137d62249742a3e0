#include "Tools/BinaryIO/ChunkFile.h"

#include "Tools/BinaryIO/Crc32.h"
#include "Tools/BinaryIO/Errors.h"
#include "Tools/BinaryIO/LittleEndian.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <stdexcept>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>
#include <utility>

namespace nao::binaryio
{
namespace
{
std::string systemReason()
{
  return std::generic_category().message(errno);
}

std::string fileName(const std::filesystem::path& path)
{
  return "'" + path.string() + "'";
}

constexpr std::size_t scanBlockBytes = 64u * 1024u;
} // namespace

const char* toString(ChunkKind kind)
{
  switch (kind)
  {
  case ChunkKind::TypeTable:
    return "TypeTable";
  case ChunkKind::Frame:
    return "Frame";
  case ChunkKind::Annotation:
    return "Annotation";
  case ChunkKind::End:
    return "End";
  }
  return "unknown";
}

bool isKnownChunkKind(std::uint8_t kind)
{
  return kind >= static_cast<std::uint8_t>(ChunkKind::TypeTable) &&
         kind <= static_cast<std::uint8_t>(ChunkKind::End);
}

// ---------------------------------------------------------------------------------------------------------------
// ChunkWriter

ChunkWriter::ChunkWriter(const std::filesystem::path& path, ChunkWriterOptions options)
    : path_(path), options_(options), streamBuffer_(std::max<std::size_t>(options.streamBufferBytes, 1))
{
  file_ = std::fopen(path.c_str(), "wb");
  if (file_ == nullptr) throwIoError("cannot create");
  // Our own buffer so that its size is a stated option rather than the C library's choice.
  std::setvbuf(file_, streamBuffer_.data(), _IOFBF, streamBuffer_.size());
  std::array<char, chunkFileHeaderBytes> header{};
  std::copy(chunkFileMagic.begin(), chunkFileMagic.end(), header.begin());
  storeLittleEndian32(header.data() + chunkFileMagic.size(), chunkFormatVersion);
  try
  {
    writeBytes(header.data(), header.size());
    flush();
  }
  catch (...)
  {
    std::fclose(file_); // the destructor does not run for a constructor that throws
    file_ = nullptr;
    throw;
  }
}

ChunkWriter::~ChunkWriter()
{
  try
  {
    close();
  }
  catch (const std::exception&)
  {
    // A destructor cannot report; callers who care call close() themselves.
  }
}

void ChunkWriter::writeChunk(ChunkKind kind, std::span<const char> payload)
{
  if (file_ == nullptr) throw IoError("cannot write to closed log " + fileName(path_));
  if (payload.size() > options_.maxPayloadBytes)
    throw std::length_error("chunk payload of " + std::to_string(payload.size()) +
                            " bytes exceeds the bound of " + std::to_string(options_.maxPayloadBytes) +
                            " bytes");
  std::array<char, chunkHeaderBytes> header{};
  std::copy(chunkMagic.begin(), chunkMagic.end(), header.begin());
  header[4] = static_cast<char>(kind);
  storeLittleEndian32(header.data() + 5, static_cast<std::uint32_t>(payload.size()));
  storeLittleEndian32(header.data() + 9, crc32(payload));
  writeBytes(header.data(), header.size());
  writeBytes(payload.data(), payload.size());
  if (options_.flushEveryChunk) flush();
}

void ChunkWriter::flush()
{
  if (file_ != nullptr && std::fflush(file_) != 0) throwIoError("cannot write");
}

void ChunkWriter::close()
{
  if (file_ == nullptr) return;
  // The file is closed even when the End chunk cannot be written; the first failure is reported.
  std::exception_ptr endFailure;
  try
  {
    writeChunk(ChunkKind::End, {});
  }
  catch (...)
  {
    endFailure = std::current_exception();
  }
  std::FILE* file = file_;
  file_ = nullptr;
  const bool closed = std::fclose(file) == 0;
  if (endFailure) std::rethrow_exception(endFailure);
  if (!closed) throwIoError("cannot close");
}

void ChunkWriter::writeBytes(const char* bytes, std::size_t count)
{
  if (count == 0) return;
  if (std::fwrite(bytes, 1, count, file_) != count) throwIoError("cannot write");
  bytesWritten_ += count;
}

void ChunkWriter::throwIoError(std::string_view action) const
{
  throw IoError(std::string(action) + " " + fileName(path_) + ": " + systemReason());
}

// ---------------------------------------------------------------------------------------------------------------
// ChunkReader

ChunkReader::ChunkReader(const std::filesystem::path& path, ChunkReaderOptions options)
    : path_(path), options_(options)
{
  // O_NONBLOCK: opening a FIFO without a writer must not hang (LogTool info on a FIFO did); the type is checked on
  // the open descriptor, then reading blocks as usual.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw IoError("cannot open " + fileName(path) + ": " + systemReason());
  struct stat status
  {
  };
  if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode))
  {
    ::close(fd);
    throw IoError("cannot read " + fileName(path) + ": " +
                  (S_ISFIFO(status.st_mode)  ? "it is a FIFO"
                   : S_ISDIR(status.st_mode) ? "it is a folder"
                                             : "it is not a regular file") +
                  "; a log is a regular file");
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  file_ = ::fdopen(fd, "rb");
  if (file_ == nullptr)
  {
    const std::string reason = systemReason();
    ::close(fd);
    throw IoError("cannot open " + fileName(path) + ": " + reason);
  }
  // The destructor does not run when the constructor throws: close the file here (a refused log must not leak a
  // file descriptor; found by Fuzz/LogReaderFuzzer).
  try
  {
    std::error_code sizeError;
    fileBytes_ = std::filesystem::file_size(path, sizeError);
    if (sizeError) throw IoError("cannot stat " + fileName(path) + ": " + sizeError.message());
    if (fileBytes_ < chunkFileHeaderBytes)
      throw FormatError(fileName(path) + " is not a NAO log: " + std::to_string(fileBytes_) +
                        " bytes, shorter than the file header");
    std::array<char, chunkFileHeaderBytes> header{};
    readAt(0, header.data(), header.size());
    if (!std::equal(chunkFileMagic.begin(), chunkFileMagic.end(), header.begin()))
      throw FormatError(fileName(path) + " is not a NAO log: bad magic bytes");
    formatVersion_ = loadLittleEndian32(header.data() + chunkFileMagic.size());
    if (formatVersion_ != chunkFormatVersion)
      throw FormatError(fileName(path) + ": log format version " + std::to_string(formatVersion_) +
                        " unsupported (this reader knows version " + std::to_string(chunkFormatVersion) +
                        ")");
  }
  catch (...)
  {
    std::fclose(file_);
    file_ = nullptr;
    throw;
  }
  position_ = chunkFileHeaderBytes;
}

ChunkReader::~ChunkReader()
{
  if (file_ != nullptr) std::fclose(file_);
}

std::optional<Chunk> ChunkReader::next()
{
  Chunk chunk;
  if (!readNext(chunk)) return std::nullopt;
  return chunk;
}

bool ChunkReader::readNext(Chunk& chunk)
{
  while (position_ < fileBytes_)
  {
    const std::uint64_t offset = position_;
    if (fileBytes_ - offset < chunkHeaderBytes) return endAtTruncatedChunk(offset);
    std::array<char, chunkHeaderBytes> header{};
    readAt(offset, header.data(), header.size());
    if (!std::equal(chunkMagic.begin(), chunkMagic.end(), header.begin()))
    {
      ++statistics_.missingMagics;
      reportWarning(offset, "no chunk magic, scanning for the next chunk");
      if (!resynchroniseAfter(offset)) return false;
      continue;
    }
    const auto kindByte = static_cast<std::uint8_t>(header[4]);
    const std::uint32_t payloadLength = loadLittleEndian32(header.data() + 5);
    const std::uint32_t storedCrc = loadLittleEndian32(header.data() + 9);
    if (!isKnownChunkKind(kindByte))
    {
      ++statistics_.unknownKinds;
      reportWarning(offset, "unknown chunk kind " + std::to_string(kindByte) + ", chunk skipped");
      if (!resynchroniseAfter(offset)) return false;
      continue;
    }
    if (payloadLength > options_.maxPayloadBytes)
    {
      ++statistics_.oversizedLengths;
      reportWarning(offset, "payload length " + std::to_string(payloadLength) + " exceeds the bound of " +
                                std::to_string(options_.maxPayloadBytes) + " bytes, chunk skipped");
      if (!resynchroniseAfter(offset)) return false;
      continue;
    }
    const std::uint64_t payloadOffset = offset + chunkHeaderBytes;
    if (payloadLength > fileBytes_ - payloadOffset)
    {
      // Either the writer died mid-chunk (nothing follows) or the length field is damaged (chunks follow).
      if (!resynchroniseAfter(offset)) return endAtTruncatedChunk(offset);
      ++statistics_.lengthsPastEnd;
      reportWarning(offset, "payload length " + std::to_string(payloadLength) +
                                " runs past the end of the file, chunk skipped");
      continue;
    }
    chunk.payload.resize(payloadLength);
    readAt(payloadOffset, chunk.payload.data(), payloadLength);
    if (crc32(chunk.payload) != storedCrc)
    {
      ++statistics_.crcMismatches;
      reportWarning(offset, "CRC mismatch, chunk skipped");
      if (!resynchroniseAfter(offset)) return false;
      continue;
    }
    chunk.kind = static_cast<ChunkKind>(kindByte);
    chunk.offset = offset;
    position_ = payloadOffset + payloadLength;
    return true;
  }
  return false;
}

void ChunkReader::reportWarning(std::uint64_t offset, std::string_view message)
{
  storeWarning("offset " + std::to_string(offset) + ": " + std::string(message));
}

void ChunkReader::storeWarning(std::string warning)
{
  ++statistics_.warningsReported;
  if (warnings_.size() < options_.maxStoredWarnings)
    warnings_.push_back(std::move(warning));
  else if (warnings_.size() == options_.maxStoredWarnings)
    warnings_.push_back("further warnings counted but not stored");
}

void ChunkReader::rewind()
{
  position_ = chunkFileHeaderBytes;
  warnings_.clear();
  statistics_ = {};
}

bool ChunkReader::endAtTruncatedChunk(std::uint64_t offset)
{
  ++statistics_.truncatedChunks;
  storeWarning("truncated chunk at offset " + std::to_string(offset) + " ignored");
  position_ = fileBytes_;
  return false;
}

void ChunkReader::readAt(std::uint64_t offset, char* destination, std::size_t count)
{
  if (streamPosition_ != offset)
  {
    if (fseeko(file_, static_cast<off_t>(offset), SEEK_SET) != 0)
      throw IoError("cannot seek in " + fileName(path_) + ": " + systemReason());
    streamPosition_ = offset;
  }
  if (std::fread(destination, 1, count, file_) != count)
    throw IoError("cannot read " + std::to_string(count) + " bytes at offset " + std::to_string(offset) +
                  " of " + fileName(path_) + " (file shrank while reading?)");
  streamPosition_ += count;
}

std::optional<std::uint64_t> ChunkReader::findChunkMagic(std::uint64_t from)
{
  scanBuffer_.resize(scanBlockBytes);
  // Consecutive blocks overlap by magic size - 1 bytes so that a magic split across blocks is still found.
  constexpr std::uint64_t overlap = chunkMagic.size() - 1;
  for (std::uint64_t blockStart = from; blockStart + chunkMagic.size() <= fileBytes_;
       blockStart += scanBlockBytes - overlap)
  {
    const std::size_t blockBytes =
        static_cast<std::size_t>(std::min<std::uint64_t>(scanBlockBytes, fileBytes_ - blockStart));
    readAt(blockStart, scanBuffer_.data(), blockBytes);
    const auto blockEnd = scanBuffer_.begin() + static_cast<std::ptrdiff_t>(blockBytes);
    const auto found = std::search(scanBuffer_.begin(), blockEnd, chunkMagic.begin(), chunkMagic.end());
    if (found != blockEnd) return blockStart + static_cast<std::uint64_t>(found - scanBuffer_.begin());
  }
  return std::nullopt;
}

bool ChunkReader::resynchroniseAfter(std::uint64_t offset)
{
  const std::optional<std::uint64_t> nextMagic = findChunkMagic(offset + 1);
  position_ = nextMagic.value_or(fileBytes_);
  return nextMagic.has_value();
}
} // namespace nao::binaryio
