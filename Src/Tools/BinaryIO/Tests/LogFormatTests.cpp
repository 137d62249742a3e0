#include "SampleRepresentation.h"
#include "TestFiles.h"
#include "Tools/BinaryIO/LogFormat.h"
#include "Tools/Testing/AllocationCounter.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace nao::binaryio::test
{
namespace
{
constexpr std::uint16_t jointSampleId = 10;
constexpr std::uint16_t rawTextId = 20;

TypeTable sampleTypeTable()
{
  return TypeTable{{{jointSampleId, "JointSample",
                     "u32 frameNumber; f64 timestamp [s]; f32[] jointAngles [rad]; "
                     "string note"},
                    {rawTextId, "RawText", "bytes: ASCII text"}}};
}

/// `table` as a TypeTable chunk, as LogWriter writes it.
void writeTypeTable(ChunkWriter& writer, const TypeTable& table)
{
  std::vector<char> payload;
  serializeInto(payload, table);
  writer.writeChunk(ChunkKind::TypeTable, payload);
}

std::string rawText(std::uint32_t frameNumber)
{
  return "raw " + std::to_string(frameNumber * 7);
}

void buildSampleFrame(FrameChunkBuilder& builder, std::uint32_t frameNumber)
{
  builder.begin(frameNumber);
  builder.addSerialized(jointSampleId, makeJointSample(frameNumber));
  const std::string text = rawText(frameNumber);
  builder.addRecord(rawTextId, text);
}

/// Checks that `frame` holds exactly what buildSampleFrame() put in for its frame number.
void expectSampleFrame(const LogFrame& frame, std::uint32_t expectedFrameNumber)
{
  EXPECT_EQ(frame.frameNumber(), expectedFrameNumber);
  const FrameView view = frame.view();
  ASSERT_EQ(view.recordCount(), 2u);
  const std::optional<FrameRecord> sample = view.find(jointSampleId);
  ASSERT_TRUE(sample.has_value());
  EXPECT_EQ(deserialize<JointSample>(sample->bytes), makeJointSample(expectedFrameNumber));
  const std::optional<FrameRecord> text = view.find(rawTextId);
  ASSERT_TRUE(text.has_value());
  EXPECT_EQ(std::string(text->bytes.begin(), text->bytes.end()), rawText(expectedFrameNumber));
}

/// The Frame payload layout written out by hand: u32 frame number, then u16 id, u32 size, bytes per record.
std::vector<char> handMadeFramePayload(std::uint32_t frameNumber, const std::vector<std::string>& records)
{
  std::vector<char> payload = littleEndianBytes<std::uint32_t>(frameNumber);
  for (std::size_t index = 0; index < records.size(); ++index)
  {
    payload.push_back(static_cast<char>(index + 1));
    payload.push_back(0);
    for (char byte : littleEndianBytes<std::uint32_t>(static_cast<std::uint32_t>(records[index].size())))
      payload.push_back(byte);
    payload.insert(payload.end(), records[index].begin(), records[index].end());
  }
  return payload;
}
} // namespace

TEST(LogFormat, TypeTableFramesAndAnnotationsRoundTrip)
{
  TemporaryDirectory directory;
  const auto path = directory.file("roundtrip.naolog");
  {
    LogWriter writer(path, sampleTypeTable());
    FrameChunkBuilder builder;
    for (std::uint32_t frameNumber = 0; frameNumber < 50; ++frameNumber)
    {
      buildSampleFrame(builder, frameNumber);
      writer.writeFrame(builder);
      if (frameNumber == 10) writer.writeAnnotation("robot lifted");
    }
    writer.close();
  }
  LogReader reader(path);
  EXPECT_EQ(reader.typeTable(), sampleTypeTable());
  std::uint32_t expected = 0;
  while (std::optional<LogFrame> frame = reader.nextFrame())
    expectSampleFrame(*frame, expected++);
  EXPECT_EQ(expected, 50u);
  ASSERT_EQ(reader.annotations().size(), 1u);
  EXPECT_EQ(reader.annotations()[0].text, "robot lifted");
  EXPECT_TRUE(reader.sawEnd());
  EXPECT_TRUE(reader.warnings().empty());
}

TEST(LogFormat, FrameViewMatchesTheDocumentedPayloadLayout)
{
  const std::vector<char> payload = handMadeFramePayload(77, {"abc", "", "hello"});
  const FrameView view = FrameView::parse(payload);
  EXPECT_EQ(view.frameNumber(), 77u);
  ASSERT_EQ(view.recordCount(), 3u);
  std::vector<std::pair<std::uint16_t, std::string>> records;
  for (const FrameRecord& record : view)
    records.emplace_back(record.typeId, std::string(record.bytes.begin(), record.bytes.end()));
  EXPECT_EQ(records, (std::vector<std::pair<std::uint16_t, std::string>>{{1, "abc"}, {2, ""}, {3, "hello"}}));

  FrameChunkBuilder builder;
  builder.begin(77);
  builder.addRecord(1, std::string("abc"));
  builder.addRecord(2, {});
  builder.addRecord(3, std::string("hello"));
  EXPECT_EQ(std::vector<char>(builder.payload().begin(), builder.payload().end()), payload);
}

TEST(LogFormat, FrameViewRefusesOverrunsWithTheirPosition)
{
  std::vector<char> payload = handMadeFramePayload(7, {"abc", "hello"});
  // Second record header starts at 4 + 6 + 3 = 13; its size field at 15.
  overwrite(payload, 15, littleEndianBytes<std::uint32_t>(1000));
  try
  {
    FrameView::parse(payload);
    FAIL() << "expected FormatError";
  }
  catch (const FormatError& error)
  {
    EXPECT_EQ(std::string(error.what()),
              "frame 7: record 1 at byte 13 declares 1000 bytes but only 5 remain");
  }
  const std::vector<char> cutHeader(payload.begin(), payload.begin() + 16);
  EXPECT_THROW(FrameView::parse(cutHeader), FormatError);
  EXPECT_THROW(FrameView::parse(std::vector<char>{1, 2, 3}), FormatError);
  EXPECT_EQ(FrameView::parse(std::vector<char>{1, 0, 0, 0}).recordCount(), 0u);
}

TEST(LogFormat, BuilderDoesNotAllocatePerFrameOnceWarmedUp)
{
  FrameChunkBuilder builder(4096);
  const std::vector<char> jointData(600, 'j');
  const std::vector<char> imuData(120, 'i');
  const auto buildFrame = [&](std::uint32_t frameNumber)
  {
    builder.begin(frameNumber);
    builder.addRecord(1, jointData);
    builder.addRecord(2, imuData);
    builder.addRecord(3, jointData);
  };
  buildFrame(0);
  const std::size_t capacity = builder.capacity();
  const nao::test::ProcessAllocationCount probe;
  for (std::uint32_t frameNumber = 1; frameNumber <= 1000; ++frameNumber)
    buildFrame(frameNumber);
  EXPECT_EQ(probe.allocations(), 0u);
  EXPECT_EQ(builder.capacity(), capacity);
  EXPECT_EQ(builder.payload().size(), 4u + 3 * 6 + 600 + 120 + 600);
}

TEST(LogFormat, CorruptFrameIsSkippedAndTheFollowingFramesAreRead)
{
  TemporaryDirectory directory;
  const auto path = directory.file("corrupt.naolog");
  std::vector<std::uint64_t> frameOffsets;
  {
    LogWriter writer(path, sampleTypeTable());
    FrameChunkBuilder builder;
    for (std::uint32_t frameNumber = 0; frameNumber < 10; ++frameNumber)
    {
      frameOffsets.push_back(writer.bytesWritten());
      buildSampleFrame(builder, frameNumber);
      writer.writeFrame(builder);
    }
  }
  std::vector<char> bytes = readFileBytes(path);
  bytes[frameOffsets[4] + 13 + 20] ^= 0x40;
  writeFileBytes(path, bytes);

  LogReader reader(path);
  std::vector<std::uint32_t> frameNumbers;
  while (std::optional<LogFrame> frame = reader.nextFrame())
  {
    expectSampleFrame(*frame, frame->frameNumber());
    frameNumbers.push_back(frame->frameNumber());
  }
  EXPECT_EQ(frameNumbers, (std::vector<std::uint32_t>{0, 1, 2, 3, 5, 6, 7, 8, 9}));
  EXPECT_EQ(reader.warnings(), std::vector<std::string>{"offset " + std::to_string(frameOffsets[4]) +
                                                        ": CRC mismatch, chunk skipped"});
  EXPECT_TRUE(reader.sawEnd());
}

TEST(LogFormat, MalformedFrameWithValidCrcIsSkippedWithWarning)
{
  TemporaryDirectory directory;
  const auto path = directory.file("malformed.naolog");
  std::uint64_t badFrameOffset = 0;
  {
    ChunkWriter writer(path);
    writeTypeTable(writer, sampleTypeTable());
    std::vector<char> bad = handMadeFramePayload(1, {"abc"});
    overwrite(bad, 6, littleEndianBytes<std::uint32_t>(4));
    badFrameOffset = writer.bytesWritten();
    writer.writeChunk(ChunkKind::Frame, bad);
    writer.writeChunk(ChunkKind::Frame, handMadeFramePayload(2, {"ok"}));
  }
  LogReader reader(path);
  std::optional<LogFrame> frame = reader.nextFrame();
  ASSERT_TRUE(frame.has_value());
  EXPECT_EQ(frame->frameNumber(), 2u);
  EXPECT_FALSE(reader.nextFrame().has_value());
  EXPECT_EQ(
      reader.warnings(),
      std::vector<std::string>{"offset " + std::to_string(badFrameOffset) +
                               ": malformed frame skipped: frame 1: record 0 at byte 4 declares 4 bytes but "
                               "only 3 remain"});
}

TEST(LogFormat, LogWithoutTypeTableIsAFormatErrorNamingTheFile)
{
  TemporaryDirectory directory;
  const auto framesOnly = directory.file("frames-only.naolog");
  {
    ChunkWriter writer(framesOnly);
    writer.writeChunk(ChunkKind::Frame, handMadeFramePayload(0, {"x"}));
  }
  try
  {
    LogReader reader(framesOnly);
    FAIL() << "expected FormatError";
  }
  catch (const FormatError& error)
  {
    EXPECT_EQ(std::string(error.what()),
              "'" + framesOnly.string() +
                  "': log has no type table (first intact chunk is Frame at offset 12)");
  }
  const auto headerOnly = directory.file("header-only.naolog");
  writeFileBytes(headerOnly, {'N', 'A', 'O', 'L', 'O', 'G', '\0', '\1', 1, 0, 0, 0});
  EXPECT_THROW(LogReader{headerOnly}, FormatError);
}

TEST(LogFormat, WriterRefusesUnknownAndDuplicateTypes)
{
  TemporaryDirectory directory;
  TypeTable duplicateIds = sampleTypeTable();
  duplicateIds.entries[1].id = jointSampleId;
  EXPECT_THROW(LogWriter(directory.file("dup-id.naolog"), duplicateIds), std::invalid_argument);
  TypeTable duplicateNames = sampleTypeTable();
  duplicateNames.entries[1].name = "JointSample";
  EXPECT_THROW(LogWriter(directory.file("dup-name.naolog"), duplicateNames), std::invalid_argument);

  LogWriter writer(directory.file("unknown.naolog"), sampleTypeTable());
  FrameChunkBuilder builder;
  builder.begin(0);
  builder.addRecord(99, std::string("?"));
  EXPECT_THROW(writer.writeFrame(builder), std::invalid_argument);
}
} // namespace nao::binaryio::test

namespace nao::binaryio::test
{
TEST(LogFormat, TheTypeTableIsRepeatedSoDamagedCopiesAtTheStartLoseNoFrame)
{
  TemporaryDirectory directory;
  const auto path = directory.file("repeated.naolog");
  std::vector<std::uint64_t> tableOffsets{chunkFileHeaderBytes};
  {
    LogWriter writer(path, sampleTypeTable());
    tableOffsets.push_back(writer.bytesWritten() - (writer.bytesWritten() - chunkFileHeaderBytes) / 2);
    FrameChunkBuilder builder;
    for (std::uint32_t frameNumber = 0; frameNumber < LogWriter::typeTableRepeatFrames + 10; ++frameNumber)
    {
      buildSampleFrame(builder, frameNumber);
      writer.writeFrame(builder);
    }
  }
  std::vector<char> bytes = readFileBytes(path);
  for (std::uint64_t offset : tableOffsets) // both copies at the start
    bytes[offset + chunkHeaderBytes + 3] ^= 0x10;
  writeFileBytes(path, bytes);

  LogReader reader(path);
  EXPECT_EQ(reader.typeTable(), sampleTypeTable());
  std::uint32_t frames = 0;
  while (std::optional<LogFrame> frame = reader.nextFrame())
  {
    EXPECT_EQ(frame->frameNumber(), frames);
    expectSampleFrame(*frame, frame->frameNumber());
    ++frames;
  }
  EXPECT_EQ(frames, LogWriter::typeTableRepeatFrames + 10) << "the frames before the third copy are read too";
  ASSERT_EQ(reader.warnings().size(), 3u);
  EXPECT_THAT(reader.warnings()[0],
              ::testing::HasSubstr("the type table at the start of the log is damaged"));
  EXPECT_EQ(reader.warnings()[1], "offset 12: CRC mismatch, chunk skipped");
  EXPECT_EQ(reader.warnings()[2],
            "offset " + std::to_string(tableOffsets[1]) + ": CRC mismatch, chunk skipped");
}

TEST(LogFormat, ALaterTypeTableThatDiffersIsWarnedAboutAndDuplicateIdsAreRefused)
{
  TemporaryDirectory directory;
  const auto path = directory.file("differs.naolog");
  std::uint64_t otherOffset = 0;
  {
    ChunkWriter writer(path);
    writeTypeTable(writer, sampleTypeTable());
    writer.writeChunk(ChunkKind::Frame, handMadeFramePayload(1, {}));
    TypeTable other = sampleTypeTable();
    other.entries[0].name = "Renamed";
    otherOffset = writer.bytesWritten();
    writeTypeTable(writer, other);
    writer.writeChunk(ChunkKind::Frame, handMadeFramePayload(2, {}));
  }
  LogReader reader(path);
  int frames = 0;
  while (reader.nextFrame())
    ++frames;
  EXPECT_EQ(frames, 2);
  EXPECT_EQ(reader.typeTable(), sampleTypeTable()) << "the first one stays in use";
  EXPECT_EQ(reader.warnings(), std::vector<std::string>{"offset " + std::to_string(otherOffset) +
                                                        ": type table differs from the one in use, ignored"});

  const auto duplicate = directory.file("duplicate.naolog");
  {
    ChunkWriter writer(duplicate);
    TypeTable table = sampleTypeTable();
    table.entries[1].id = table.entries[0].id;
    writeTypeTable(writer, table);
  }
  try
  {
    LogReader refused(duplicate);
    FAIL() << "expected FormatError";
  }
  catch (const FormatError& error)
  {
    EXPECT_EQ(std::string(error.what()),
              "'" + duplicate.string() + "': type table: id " +
                  std::to_string(sampleTypeTable().entries[0].id) +
                  " used twice (type table at offset 12): the log cannot be read unambiguously");
  }
}
} // namespace nao::binaryio::test
