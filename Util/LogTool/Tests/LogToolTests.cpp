// LogTool on crafted logs: the CSV header comes from the log's type table (every field of the representation, not
// the first frame's), a frame without a representation gives empty cells and no row is longer than the header; a
// damaged first type table is read through its copy; a type table that uses an id twice is refused by name; the
// module graph and parameters a log recorded are printed, and a log without them says so.
#include "Framework/LogMetadata.h"
#include "Framework/Representation.h"
#include "Representations/Infrastructure/FrameInfo.h"
#include "Representations/MotionControl/JointRequest.h"
#include "Tools/BinaryIO/LogFormat.h"
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace nao;
using ::testing::HasSubstr;
using ::testing::Not;

namespace
{
struct Result
{
  int status = -1;
  std::string out; ///< stdout and stderr
};

/// `prefix` runs before the tool, e.g. "timeout 10" for a call that could hang.
Result logTool(const std::string& arguments, const std::string& prefix = "")
{
  Result result;
  FILE* pipe =
      ::popen((prefix + " " + std::string(NAO_LOG_TOOL_BINARY) + " " + arguments + " 2>&1").c_str(), "r");
  char buffer[4096];
  for (std::size_t got; (got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;)
    result.out.append(buffer, got);
  const int status = ::pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::vector<std::string> lines(const std::string& text)
{
  std::vector<std::string> result;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);)
    result.push_back(line);
  return result;
}

std::size_t commas(const std::string& line)
{
  return static_cast<std::size_t>(std::count(line.begin(), line.end(), ','));
}

struct Folder
{
  std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("nao-logtool-" + std::to_string(::getpid()));
  Folder()
  {
    registerFrameworkRepresentations();
    std::filesystem::create_directories(path);
  }
  ~Folder() { std::filesystem::remove_all(path); }
};

template<class T>
binaryio::TypeEntry entryOf()
{
  const auto& registry = RepresentationRegistry::instance();
  const auto id = static_cast<RepresentationId>(registry.find(typeName<T>()));
  return {id, registry.info(id).name, registry.info(id).schema};
}

template<class T>
void add(binaryio::FrameChunkBuilder& frame, const T& value)
{
  const auto& registry = RepresentationRegistry::instance();
  const auto id = static_cast<RepresentationId>(registry.find(typeName<T>()));
  std::vector<char> bytes;
  registry.info(id).saveBinary(&value, bytes);
  frame.addRecord(id, bytes);
}

/// Frames 0..count-1 with FrameInfo; JointRequest only from frame `requestFrom` on, its LKneePitch angle = frame / 10.
void writeLog(const std::filesystem::path& path, int count, int requestFrom)
{
  binaryio::LogWriter writer(path, binaryio::TypeTable{{entryOf<FrameInfo>(), entryOf<JointRequest>()}});
  binaryio::FrameChunkBuilder frame;
  for (int i = 0; i < count; ++i)
  {
    frame.begin(static_cast<std::uint32_t>(i));
    add(frame, FrameInfo{0.012 * i, static_cast<std::uint32_t>(i), 0});
    if (i >= requestFrom)
    {
      JointRequest request;
      request.angles[Joint::LKneePitch] = static_cast<float>(i) / 10.f;
      add(frame, request);
    }
    writer.writeFrame(frame);
  }
  writer.close();
}
} // namespace

TEST(LogToolCsv, TheHeaderComesFromTheTypeTableAndMissingFieldsGiveEmptyCells)
{
  Folder folder;
  const auto log = folder.path / "late.log";
  writeLog(log, 6, 3); // the first three frames lack JointRequest
  const Result result = logTool("csv " + log.string() + " FrameInfo.time JointRequest.angles");
  ASSERT_EQ(result.status, 0) << result.out;
  const auto rows = lines(result.out);
  ASSERT_EQ(rows.size(), 7u) << result.out;
  const std::string& header = rows[0];
  EXPECT_THAT(header, ::testing::StartsWith("frame,FrameInfo.time [s],JointRequest.angles.HeadYaw [rad],"));
  EXPECT_EQ(commas(header), 1u + 25u) << "frame, time and every angle of the representation: " << header;
  const auto columns = commas(header);
  for (std::size_t row = 1; row < rows.size(); ++row)
    EXPECT_EQ(commas(rows[row]), columns) << "row " << row << " differs from the header: " << rows[row];
  EXPECT_THAT(rows[1], ::testing::StartsWith("0,0,,,"));
  EXPECT_EQ(rows[1].back(), ',') << "frame 0 has no JointRequest: its cells are empty";
  // LKneePitch is the 11th angle: frame 4's value is 0.4.
  std::vector<std::string> cells;
  std::istringstream stream(rows[5]);
  for (std::string cell; std::getline(stream, cell, ',');)
    cells.push_back(cell);
  ASSERT_EQ(cells.size(), columns + 1);
  std::vector<std::string> names;
  std::istringstream headerStream(header);
  for (std::string name; std::getline(headerStream, name, ',');)
    names.push_back(name);
  const auto knee =
      std::find(names.begin(), names.end(), "JointRequest.angles.LKneePitch [rad]") - names.begin();
  ASSERT_LT(static_cast<std::size_t>(knee), names.size());
  EXPECT_EQ(std::stof(cells[static_cast<std::size_t>(knee)]), 0.4f);
  EXPECT_EQ(cells[0], "4");
}

TEST(LogToolCsv, AFieldNoRepresentationHasIsRefusedWithoutReadingAFrame)
{
  Folder folder;
  const auto log = folder.path / "few.log";
  writeLog(log, 3, 0);
  const Result result = logTool("csv " + log.string() + " JointSensorData.currents");
  EXPECT_EQ(result.status, 2);
  EXPECT_THAT(result.out, HasSubstr("no field of the log matches 'JointSensorData.currents'"));
}

TEST(LogToolFiles, AFifoIsRefusedAtOnceByEveryCommand)
{
  // Opening a FIFO without a writer blocked forever; 124 would be timeout's status after 10 s.
  Folder folder;
  const auto fifo = folder.path / "pipe.log";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string command : {"info %", "csv % JointRequest.angles", "dump % 0"})
  {
    std::string arguments = command;
    arguments.replace(arguments.find('%'), 1, fifo.string());
    const Result result = logTool(arguments, "timeout 10");
    EXPECT_NE(result.status, 124) << command << " hung on a FIFO";
    EXPECT_NE(result.status, 0) << command;
    EXPECT_THAT(result.out, HasSubstr("it is a FIFO; a log is a regular file")) << command;
  }
}

TEST(LogToolTypeTable, ADamagedFirstTypeTableIsReadThroughItsCopy)
{
  Folder folder;
  const auto log = folder.path / "damaged.log";
  writeLog(log, 20, 0);
  std::fstream file(log, std::ios::in | std::ios::out | std::ios::binary);
  file.seekp(12 + 13 + 5); // inside the first type table's payload
  file.put('\x7f');
  file.close();
  const Result info = logTool("info " + log.string());
  EXPECT_EQ(info.status, 0) << info.out;
  EXPECT_THAT(info.out, HasSubstr("frames: 20 (frame numbers 0 .. 19)"));
  EXPECT_THAT(info.out, HasSubstr("offset 12: CRC mismatch, chunk skipped"));
  EXPECT_THAT(info.out,
              HasSubstr("the type table at the start of the log is damaged or missing; read with its copy"));
}

TEST(LogToolTypeTable, DuplicateTypeIdsAreRefusedWithAClearError)
{
  Folder folder;
  const auto log = folder.path / "duplicate.log";
  {
    // LogWriter refuses such a table; a hostile or broken writer is imitated at the chunk level.
    binaryio::ChunkWriter writer(log);
    binaryio::TypeTable table{{entryOf<FrameInfo>(), entryOf<JointRequest>()}};
    table.entries[1].id = table.entries[0].id;
    std::vector<char> payload;
    binaryio::serializeInto(payload, table);
    writer.writeChunk(binaryio::ChunkKind::TypeTable, payload);
  }
  const Result info = logTool("info " + log.string());
  EXPECT_EQ(info.status, 1);
  EXPECT_THAT(info.out, HasSubstr("used twice"));
  EXPECT_THAT(info.out, HasSubstr("cannot be read unambiguously"));
}

TEST(LogToolMetadata, ALogWithoutTheModuleGraphAndParametersSaysSo)
{
  // A log as written before logs recorded what the robot ran with: LogTool reads it and says what it lacks.
  Folder folder;
  const auto log = folder.path / "old.log";
  writeLog(log, 3, 0);
  const Result info = logTool("info " + log.string());
  EXPECT_EQ(info.status, 0) << info.out;
  EXPECT_THAT(info.out, HasSubstr("frames: 3"));
  EXPECT_THAT(info.out, HasSubstr("module graph: not in this log"));
  EXPECT_THAT(info.out, HasSubstr("parameters: not in this log"));
  const Result parameters = logTool("parameters " + log.string());
  EXPECT_EQ(parameters.status, 2) << parameters.out;
  EXPECT_THAT(parameters.out, HasSubstr("holds no parameters"));
}

TEST(LogToolMetadata, ParametersFollowTheEditsFrames)
{
  Folder folder;
  const auto log = folder.path / "edited.log";
  {
    binaryio::LogWriter writer(log, binaryio::TypeTable{{entryOf<FrameInfo>()}});
    debug::ListReply graph;
    graph.scenario = "stand";
    graph.modules = {{"StandPoseProvider", true, {"FrameInfo"}, {}, {"MotionJointRequest"}, {}}};
    graph.plan = "StandPoseProvider -> MotionJointRequest\n";
    writer.writeAnnotation(moduleGraphAnnotation(graph));
    writer.writeAnnotation(parametersAnnotation({"StandPoseProvider", true, 0, "transitionTime = 1000\n"}));
    binaryio::FrameChunkBuilder frame;
    for (std::uint32_t i = 0; i < 6; ++i)
    {
      if (i == 3)
        writer.writeAnnotation(
            parametersAnnotation({"StandPoseProvider", false, 3, "transitionTime = 500\n"}));
      frame.begin(i);
      add(frame, FrameInfo{0.012 * i, i, 0});
      writer.writeFrame(frame);
    }
  }
  const Result info = logTool("info " + log.string());
  EXPECT_EQ(info.status, 0) << info.out;
  EXPECT_THAT(info.out,
              HasSubstr("module graph (scenario stand, 1 of 1 modules active):\n  StandPoseProvider\n"
                        "    requires: FrameInfo\n    provides: MotionJointRequest\n"));
  EXPECT_THAT(info.out, HasSubstr("execution order:\nStandPoseProvider -> MotionJointRequest\n"));
  EXPECT_THAT(info.out, HasSubstr("edited from frame 3: StandPoseProvider"));
  EXPECT_THAT(info.out, Not(HasSubstr("annotation @"))) << "the metadata is not repeated as raw text";
  EXPECT_THAT(logTool("parameters " + log.string() + " 2").out, HasSubstr("transitionTime = 1000"));
  EXPECT_THAT(logTool("parameters " + log.string() + " 3").out, HasSubstr("transitionTime = 500"));
  EXPECT_THAT(logTool("parameters " + log.string()).out, HasSubstr("in force at frame 0"));
}
