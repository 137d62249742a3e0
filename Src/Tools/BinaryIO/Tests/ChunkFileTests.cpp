#include "TestFiles.h"
#include "Tools/BinaryIO/ChunkFile.h"
#include "Tools/BinaryIO/Crc32.h"
#include "Tools/BinaryIO/Errors.h"
#include "Tools/Testing/AllocationCounter.h"

#include <gtest/gtest.h>
#include <string>
#include <utility>
#include <vector>

namespace nao::binaryio::test
{
namespace
{
struct WrittenChunk
{
  ChunkKind kind;
  std::vector<char> payload;
  std::uint64_t offset =
      0; ///< expected, from the documented layout: 12-byte file header, 13-byte chunk headers
};

std::vector<char> patternedPayload(std::size_t bytes, int seed)
{
  std::vector<char> payload(bytes);
  for (std::size_t index = 0; index < bytes; ++index)
    payload[index] = static_cast<char>((index * 31 + seed) % 251);
  return payload;
}

/// Writes the chunks (plus the End chunk close() adds) and fills in their expected offsets.
void writeChunks(const std::filesystem::path& path, std::vector<WrittenChunk>& chunks)
{
  ChunkWriter writer(path);
  std::uint64_t offset = 12;
  for (WrittenChunk& chunk : chunks)
  {
    writer.writeChunk(chunk.kind, chunk.payload);
    chunk.offset = offset;
    offset += 13 + chunk.payload.size();
  }
  writer.close();
  EXPECT_EQ(std::filesystem::file_size(path), offset + 13) << "the End chunk is 13 bytes";
}

std::vector<WrittenChunk> threeChunks()
{
  return {{ChunkKind::Frame, patternedPayload(300, 1)},
          {ChunkKind::Frame, patternedPayload(500, 2)},
          {ChunkKind::Annotation, patternedPayload(200, 3)}};
}

/// threeChunks() written to `path`, then the file's bytes changed by `damage(bytes, chunks)`; the chunks as written.
template<class Damage>
std::vector<WrittenChunk> damagedThreeChunks(const std::filesystem::path& path, Damage damage)
{
  std::vector<WrittenChunk> chunks = threeChunks();
  writeChunks(path, chunks);
  std::vector<char> bytes = readFileBytes(path);
  damage(bytes, std::as_const(chunks));
  writeFileBytes(path, bytes);
  return chunks;
}

std::vector<Chunk> readAll(ChunkReader& reader)
{
  std::vector<Chunk> chunks;
  while (std::optional<Chunk> chunk = reader.next())
    chunks.push_back(std::move(*chunk));
  return chunks;
}

void expectSameChunk(const Chunk& read, const WrittenChunk& written)
{
  EXPECT_EQ(read.kind, written.kind);
  EXPECT_EQ(read.offset, written.offset);
  EXPECT_EQ(read.payload, written.payload);
}
} // namespace

TEST(ChunkFile, RoundTripsChunksOfEveryKindAndSize)
{
  TemporaryDirectory directory;
  const auto path = directory.file("roundtrip.naolog");
  std::vector<WrittenChunk> chunks = {{ChunkKind::TypeTable, patternedPayload(17, 0)},
                                      {ChunkKind::Frame, {}},
                                      {ChunkKind::Frame, patternedPayload(100'000, 5)},
                                      {ChunkKind::Annotation, patternedPayload(1, 9)}};
  writeChunks(path, chunks);

  ChunkReader reader(path);
  const std::vector<Chunk> read = readAll(reader);
  ASSERT_EQ(read.size(), chunks.size() + 1);
  for (std::size_t index = 0; index < chunks.size(); ++index)
    expectSameChunk(read[index], chunks[index]);
  EXPECT_EQ(read.back().kind, ChunkKind::End);
  EXPECT_TRUE(read.back().payload.empty());
  EXPECT_TRUE(reader.warnings().empty());
  EXPECT_EQ(reader.formatVersion(), 1u);
}

TEST(ChunkFile, BytesFollowTheDocumentedLayout)
{
  TemporaryDirectory directory;
  const auto path = directory.file("layout.naolog");
  const std::string text = "kick-off";
  {
    ChunkWriter writer(path);
    writer.writeChunk(ChunkKind::Annotation, text);
  }
  const std::vector<char> bytes = readFileBytes(path);
  std::vector<char> expected = {'N', 'A', 'O', 'L', 'O', 'G', '\0', '\1', 1, 0, 0, 0, 'C', 'H', 'N', 'K', 3};
  for (char byte : littleEndianBytes<std::uint32_t>(static_cast<std::uint32_t>(text.size())))
    expected.push_back(byte);
  for (char byte : littleEndianBytes<std::uint32_t>(crc32(text)))
    expected.push_back(byte);
  expected.insert(expected.end(), text.begin(), text.end());
  // The End chunk: empty payload, whose CRC-32 is 0.
  for (char byte : std::vector<char>{'C', 'H', 'N', 'K', 4, 0, 0, 0, 0, 0, 0, 0, 0})
    expected.push_back(byte);
  EXPECT_EQ(bytes, expected);
}

TEST(ChunkFile, CorruptChunkInTheMiddleIsSkippedWithWarningAndLaterChunksAreRead)
{
  TemporaryDirectory directory;
  const auto path = directory.file("corrupt.naolog");
  const std::vector<WrittenChunk> chunks = damagedThreeChunks(
      path, [](std::vector<char>& bytes, const std::vector<WrittenChunk>& chunks)
      { bytes[chunks[1].offset + 13 + 250] ^= 0x10; }); // one bit inside the second payload

  ChunkReader reader(path);
  const std::vector<Chunk> read = readAll(reader);
  ASSERT_EQ(read.size(), 3u);
  expectSameChunk(read[0], chunks[0]);
  expectSameChunk(read[1], chunks[2]);
  EXPECT_EQ(read[2].kind, ChunkKind::End);
  ASSERT_EQ(reader.warnings().size(), 1u);
  EXPECT_EQ(reader.warnings()[0],
            "offset " + std::to_string(chunks[1].offset) + ": CRC mismatch, chunk skipped");
  EXPECT_EQ(reader.statistics().crcMismatches, 1u);
}

TEST(ChunkFile, ForgedHugePayloadLengthIsBoundedAndReadingContinues)
{
  TemporaryDirectory directory;
  const auto path = directory.file("forged.naolog");
  const std::vector<WrittenChunk> chunks = damagedThreeChunks(
      path, [](std::vector<char>& bytes, const std::vector<WrittenChunk>& chunks)
      { overwrite(bytes, chunks[1].offset + 5, littleEndianBytes<std::uint32_t>(0xFFFFFFF0u)); });

  std::vector<Chunk> read;
  std::size_t largest = 0;
  {
    ChunkReader reader(path);
    const nao::test::ProcessAllocationCount probe;
    read = readAll(reader);
    largest = probe.largestBytes();
    ASSERT_EQ(reader.warnings().size(), 1u);
    EXPECT_EQ(reader.warnings()[0], "offset " + std::to_string(chunks[1].offset) +
                                        ": payload length 4294967280 exceeds the bound of 16777216 bytes, "
                                        "chunk skipped");
    EXPECT_EQ(reader.statistics().oversizedLengths, 1u);
  }
  ASSERT_EQ(read.size(), 3u);
  expectSameChunk(read[0], chunks[0]);
  expectSameChunk(read[1], chunks[2]);
  // The reader's largest buffer is its 64 KiB magic-scan block; nothing near the forged length.
  EXPECT_LE(largest, 64u * 1024u);
}

TEST(ChunkFile, LengthWithinBoundButPastTheEndIsNotAllocatedAndLaterChunksAreRead)
{
  TemporaryDirectory directory;
  const auto path = directory.file("pastend.naolog");
  const std::vector<WrittenChunk> chunks = damagedThreeChunks(
      path, [](std::vector<char>& bytes, const std::vector<WrittenChunk>& chunks)
      { overwrite(bytes, chunks[1].offset + 5, littleEndianBytes<std::uint32_t>(10'000'000)); });

  ChunkReader reader(path);
  const nao::test::ProcessAllocationCount probe;
  const std::vector<Chunk> read = readAll(reader);
  EXPECT_LE(probe.largestBytes(), 64u * 1024u);
  ASSERT_EQ(read.size(), 3u);
  expectSameChunk(read[1], chunks[2]);
  ASSERT_EQ(reader.warnings().size(), 1u);
  EXPECT_EQ(reader.warnings()[0],
            "offset " + std::to_string(chunks[1].offset) +
                ": payload length 10000000 runs past the end of the file, chunk skipped");
}

TEST(ChunkFile, TruncationAnywhereInTheLastChunkEndsReadingCleanly)
{
  TemporaryDirectory directory;
  const auto complete = directory.file("complete.naolog");
  std::vector<WrittenChunk> chunks = threeChunks();
  writeChunks(complete, chunks);
  const std::vector<char> bytes = readFileBytes(complete);
  const std::uint64_t lastStart = chunks[2].offset;
  const std::uint64_t lastEnd = lastStart + 13 + chunks[2].payload.size();
  const auto cut = directory.file("cut.naolog");
  for (std::uint64_t length = lastStart; length < lastEnd; ++length)
  {
    writeFileBytes(cut,
                   std::vector<char>(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(length)));
    ChunkReader reader(cut);
    const std::vector<Chunk> read = readAll(reader);
    ASSERT_EQ(read.size(), 2u) << "cut at " << length;
    expectSameChunk(read[0], chunks[0]);
    expectSameChunk(read[1], chunks[1]);
    if (length == lastStart)
      EXPECT_TRUE(reader.warnings().empty());
    else
      EXPECT_EQ(reader.warnings(), std::vector<std::string>{"truncated chunk at offset " +
                                                            std::to_string(lastStart) + " ignored"})
          << "cut at " << length;
  }
}

TEST(ChunkFile, UnknownKindAndGarbageBetweenChunksAreSkippedWithWarnings)
{
  TemporaryDirectory directory;
  const auto path = directory.file("garbage.naolog");
  const std::vector<char> garbage(7, 'x');
  const std::vector<WrittenChunk> chunks =
      damagedThreeChunks(path,
                         [&](std::vector<char>& bytes, const std::vector<WrittenChunk>& chunks)
                         {
                           bytes[chunks[0].offset + 4] = 99; // kind byte of the first chunk
                           bytes.insert(bytes.begin() + static_cast<std::ptrdiff_t>(chunks[2].offset),
                                        garbage.begin(), garbage.end());
                         });

  ChunkReader reader(path);
  const std::vector<Chunk> read = readAll(reader);
  ASSERT_EQ(read.size(), 3u);
  expectSameChunk(read[0], chunks[1]);
  EXPECT_EQ(read[1].payload, chunks[2].payload);
  EXPECT_EQ(read[1].offset, chunks[2].offset + garbage.size());
  EXPECT_EQ(
      reader.warnings(),
      (std::vector<std::string>{
          "offset " + std::to_string(chunks[0].offset) + ": unknown chunk kind 99, chunk skipped",
          "offset " + std::to_string(chunks[2].offset) + ": no chunk magic, scanning for the next chunk"}));
}

TEST(ChunkFile, BadFileHeadersNameTheFile)
{
  TemporaryDirectory directory;
  const auto expectFormatError = [](const std::filesystem::path& path, const std::string& detail)
  {
    try
    {
      ChunkReader reader(path);
      FAIL() << "expected FormatError for " << path;
    }
    catch (const FormatError& error)
    {
      const std::string message = error.what();
      EXPECT_NE(message.find(path.string()), std::string::npos) << message;
      EXPECT_NE(message.find(detail), std::string::npos) << message;
    }
  };
  const auto shortFile = directory.file("short.naolog");
  writeFileBytes(shortFile, {'N', 'A', 'O'});
  expectFormatError(shortFile, "shorter than the file header");
  const auto wrongMagic = directory.file("magic.naolog");
  writeFileBytes(wrongMagic, {'N', 'A', 'O', 'L', 'O', 'X', '\0', '\1', 1, 0, 0, 0});
  expectFormatError(wrongMagic, "bad magic");
  const auto wrongVersion = directory.file("version.naolog");
  writeFileBytes(wrongVersion, {'N', 'A', 'O', 'L', 'O', 'G', '\0', '\1', 9, 0, 0, 0});
  expectFormatError(wrongVersion, "version 9 unsupported");
  EXPECT_THROW(ChunkReader(directory.file("missing.naolog")), IoError);
}

TEST(ChunkFile, ARefusedFileIsClosed)
{
  // Regression (Fuzz/LogReaderFuzzer): a header the reader refused left its file open, one descriptor per attempt.
  TemporaryDirectory directory;
  const auto wrongMagic = directory.file("magic.naolog");
  writeFileBytes(wrongMagic, {'N', 'A', 'O', 'L', 'O', 'X', '\0', '\1', 1, 0, 0, 0});
  const auto openDescriptors = []
  {
    return std::distance(std::filesystem::directory_iterator("/proc/self/fd"),
                         std::filesystem::directory_iterator());
  };
  const auto before = openDescriptors();
  for (int attempt = 0; attempt < 50; ++attempt)
    EXPECT_THROW(ChunkReader{wrongMagic}, FormatError);
  EXPECT_EQ(openDescriptors(), before) << "every refused file must be closed";
}

TEST(ChunkFile, WriterRefusesPayloadsAboveItsBoundAndDoesNotAllocatePerChunk)
{
  TemporaryDirectory directory;
  ChunkWriterOptions options;
  options.maxPayloadBytes = 1000;
  ChunkWriter writer(directory.file("bound.naolog"), options);
  EXPECT_THROW(writer.writeChunk(ChunkKind::Frame, std::vector<char>(1001)), std::length_error);
  const std::vector<char> payload = patternedPayload(1000, 4);
  const nao::test::ProcessAllocationCount probe;
  for (int chunk = 0; chunk < 100; ++chunk)
    writer.writeChunk(ChunkKind::Frame, payload);
  EXPECT_EQ(probe.allocations(), 0u);
}

TEST(ChunkFile, StoredWarningsAreCappedButAllAreCounted)
{
  TemporaryDirectory directory;
  const auto path = directory.file("many.naolog");
  std::vector<WrittenChunk> chunks;
  for (int index = 0; index < 6; ++index)
    chunks.push_back({ChunkKind::Frame, patternedPayload(40, index)});
  writeChunks(path, chunks);
  std::vector<char> bytes = readFileBytes(path);
  for (int index = 0; index < 5; ++index)
    bytes[chunks[index].offset + 13] ^= 1;
  writeFileBytes(path, bytes);

  ChunkReaderOptions options;
  options.maxStoredWarnings = 2;
  ChunkReader reader(path, options);
  const std::vector<Chunk> read = readAll(reader);
  ASSERT_EQ(read.size(), 2u); // the intact sixth chunk and End
  expectSameChunk(read[0], chunks[5]);
  EXPECT_EQ(reader.statistics().crcMismatches, 5u);
  EXPECT_EQ(reader.statistics().warningsReported, 5u);
  ASSERT_EQ(reader.warnings().size(), 3u);
  EXPECT_EQ(reader.warnings()[2], "further warnings counted but not stored");
}
} // namespace nao::binaryio::test
