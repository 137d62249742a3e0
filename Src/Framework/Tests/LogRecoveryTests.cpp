// Logs of the robot process: every representation round-trips; a process killed with SIGKILL mid-log leaves a
// log that reads back to its last complete frame.
#include "Framework/Client/LogDecoder.h"
#include "Framework/Robot.h"
#include "Framework/Testing/TestRobot.h"
#include "Platform/StandIn/StandInBody.h"
#include <csignal>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace nao;

TEST(Representations, EveryRegisteredTypeRoundTripsThroughItsBinaryArchive)
{
  registerFrameworkRepresentations();
  const auto& registry = RepresentationRegistry::instance();
  ASSERT_GE(registry.size(), 7u);
  StandInBody::Options options;
  options.frames = 50;
  StandInBody body(options);
  Robot robot(body, testRobotOptions("standin"));
  robot.run(); // fills every representation with non-default values
  for (RepresentationId id = 0; id < registry.size(); ++id)
  {
    const auto& info = registry.info(id);
    std::vector<char> bytes;
    info.saveBinary(robot.blackboard().current(id), bytes);
    RepresentationObject copy = registry.create(id);
    info.loadBinary(bytes, copy.get());
    EXPECT_EQ(info.values(copy.get()), info.values(robot.blackboard().current(id))) << info.name;
    EXPECT_FALSE(info.describe().empty()) << info.name;
  }
}

TEST(Log, KilledRobotLeavesAReadableLog)
{
  const auto path = std::filesystem::temp_directory_path() / "nao-killed-robot.log";
  std::filesystem::remove(path);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0)
  {
    StandInBody::Options options;
    options.frames = 1000000;
    options.realTime = true;
    options.frameSeconds = 0.002;
    StandInBody body(options);
    RobotOptions robotOptions = testRobotOptions("standin");
    robotOptions.log = path;
    Robot robot(body, robotOptions);
    robot.run();
    _exit(0);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(700));
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));

  LogDecoder decoder(path);
  EXPECT_FALSE(decoder.reader().sawEnd());
  EXPECT_TRUE(decoder.undecodable().empty());
  std::uint32_t frameNumber = 0, expected = 0, frames = 0;
  std::vector<DecodedRecord> records;
  while (decoder.next(frameNumber, records))
  {
    ASSERT_EQ(frameNumber, expected++) << "frames are consecutive up to the cut";
    ASSERT_EQ(records.size(), decoder.reader().typeTable().entries.size());
    ASSERT_GE(records.size(), 7u);
    for (const auto& record : records)
      ASSERT_TRUE(record.object) << record.name << ": " << record.error;
    const auto& info = *static_cast<const FrameInfo*>(records.front().object.get());
    EXPECT_EQ(info.frameNumber, frameNumber);
    ++frames;
  }
  EXPECT_GT(frames, 50u);
  std::filesystem::remove(path);
}
