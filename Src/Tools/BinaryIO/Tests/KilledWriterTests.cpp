// A robot may be killed (-9) while the Logger writes. These tests kill a real writer process mid-write and
// check that the log reads back, frame by frame and intact, up to its last complete chunk.

#include "SampleRepresentation.h"
#include "TestFiles.h"
#include "Tools/BinaryIO/LogFormat.h"

#include <chrono>
#include <csignal>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace nao::binaryio::test
{
namespace
{
constexpr std::uint16_t jointSampleId = 1;
constexpr std::uint16_t paddingId = 2;
/// The parent kills the writer once the log has grown this far, so the kill lands amid steady writing.
constexpr std::uintmax_t killAfterBytes = 512u * 1024u;
/// The child stops writing here (then waits to be killed) so that a lost parent cannot fill the disk.
constexpr std::uint32_t maximumFrames = 200'000;

std::vector<char> paddingFor(std::uint32_t frameNumber)
{
  std::vector<char> padding(200 + frameNumber % 300);
  for (std::size_t index = 0; index < padding.size(); ++index)
    padding[index] = static_cast<char>('a' + (frameNumber + index) % 26);
  return padding;
}

[[noreturn]] void writeFramesUntilKilled(const std::filesystem::path& path, ChunkWriterOptions options)
{
  alarm(60); // the default action of SIGALRM ends the child should the parent never kill it
  try
  {
    LogWriter writer(path,
                     TypeTable{{{jointSampleId, "JointSample", "see SampleRepresentation.h"},
                                {paddingId, "Padding", "letters"}}},
                     options);
    FrameChunkBuilder builder;
    for (std::uint32_t frameNumber = 0; frameNumber < maximumFrames; ++frameNumber)
    {
      builder.begin(frameNumber);
      builder.addSerialized(jointSampleId, makeJointSample(frameNumber));
      builder.addRecord(paddingId, paddingFor(frameNumber));
      writer.writeFrame(builder);
    }
    writer.flush();
  }
  catch (...)
  {
    _exit(2);
  }
  for (;;)
    pause();
}

void runKilledWriter(ChunkWriterOptions options)
{
  TemporaryDirectory directory;
  const auto path = directory.file("killed.naolog");
  const pid_t child = fork();
  ASSERT_NE(child, -1);
  if (child == 0) writeFramesUntilKilled(path, options);

  // Progress is polled, never timed: the assertion below is on the log's content only.
  for (int poll = 0; poll < 30'000; ++poll)
  {
    std::error_code notYetCreated;
    const std::uintmax_t bytes = std::filesystem::file_size(path, notYetCreated);
    if (!notYetCreated && bytes >= killAfterBytes) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_EQ(kill(child, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "the writer must die by SIGKILL";

  const std::uintmax_t fileBytes = std::filesystem::file_size(path);
  LogReader reader(path);
  EXPECT_EQ(reader.typeTable().entries.size(), 2u);
  std::uint32_t expectedFrameNumber = 0;
  std::uint64_t endOfLastFrame = 0;
  while (std::optional<LogFrame> frame = reader.nextFrame())
  {
    ASSERT_EQ(frame->frameNumber(), expectedFrameNumber) << "frames must be consecutive";
    const FrameView view = frame->view();
    ASSERT_EQ(view.recordCount(), 2u);
    EXPECT_EQ(deserialize<JointSample>(view.find(jointSampleId)->bytes),
              makeJointSample(expectedFrameNumber));
    const std::span<const char> padding = view.find(paddingId)->bytes;
    EXPECT_EQ(std::vector<char>(padding.begin(), padding.end()), paddingFor(expectedFrameNumber));
    endOfLastFrame = frame->offset + 13 + frame->payload.size();
    ++expectedFrameNumber;
  }
  EXPECT_GT(expectedFrameNumber, 0u);
  EXPECT_FALSE(reader.sawEnd()) << "a killed writer cannot have written the End chunk";
  // Everything after the last frame read is at most one incomplete chunk: reading stopped at the last
  // complete one.
  if (endOfLastFrame == fileBytes)
    EXPECT_TRUE(reader.warnings().empty());
  else
    EXPECT_EQ(reader.warnings(), std::vector<std::string>{"truncated chunk at offset " +
                                                          std::to_string(endOfLastFrame) + " ignored"});
}
} // namespace

TEST(KilledWriter, BufferedLogReadsBackToItsLastCompleteChunk)
{
  // A small stream buffer written out whenever full: the kill almost always cuts a chunk in two.
  ChunkWriterOptions options;
  options.flushEveryChunk = false;
  options.streamBufferBytes = 4096;
  runKilledWriter(options);
}

TEST(KilledWriter, ChunkFlushedLogReadsBackToItsLastCompleteChunk)
{
  runKilledWriter(ChunkWriterOptions{});
}
} // namespace nao::binaryio::test
