// The debug channel's `annotate` (DebugClient::annotate): the running log records the text as a note annotation at
// the frame the request came in (Framework/LogMetadata.h); without a log the robot says so and records nothing.
#include "Framework/Client/DebugClient.h"
#include "Framework/LogMetadata.h"
#include "Framework/Robot.h"
#include "Platform/StandIn/StandInBody.h"
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <thread>
#include <unistd.h>

using namespace nao;

TEST(LogNote, NoteParsesBackAndBadHeadersAreErrors)
{
  const LoggedNote note{1234, "event: push 45 0 0 (sim frame 99)\nsecond line"};
  EXPECT_EQ(parseNoteAnnotation(noteAnnotation(note)), note);
  EXPECT_FALSE(parseNoteAnnotation("free text"));
  EXPECT_THROW(parseNoteAnnotation("nao-log note v1 frame x\nhi"), std::runtime_error);
  EXPECT_THROW(parseNoteAnnotation("nao-log note v1 frame 99999999999\nhi"), std::runtime_error);
  EXPECT_FALSE(LogMetadata::isMetadata(noteAnnotation(note))); // tools list it
}

TEST(LogNote, AnnotateLandsInTheRunningLogAtTheCurrentFrame)
{
  const auto folder = std::filesystem::temp_directory_path() / ("nao-log-note-" + std::to_string(::getpid()));
  std::filesystem::remove_all(folder);
  StandInBody::Options bodyOptions;
  bodyOptions.frames = 100000; // ends when the test stops it
  bodyOptions.realTime = true;
  bodyOptions.frameSeconds = 0.004;
  StandInBody body(bodyOptions);
  RobotOptions options;
  options.config = {NAO_CONFIG_DIR, "Default"};
  options.scenario = "standin";
  options.debug = DebugSettings{"127.0.0.1", 0, "", folder};
  Robot robot(body, options);
  std::thread thread([&] { robot.run(); });
  DebugClient client("127.0.0.1", robot.debugServer()->port());

  const debug::Reply refused = client.annotate("before any log");
  EXPECT_FALSE(refused.ok);
  EXPECT_THAT(refused.message, ::testing::HasSubstr("no log is being written"));
  EXPECT_FALSE(client.annotate("").ok);

  ASSERT_TRUE(client.startLog("run.log").ok);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const debug::Reply reply = client.annotate("event: push 45 0 0 for 0.1 at torso (sim frame 42)");
  EXPECT_TRUE(reply.ok) << reply.message;
  EXPECT_THAT(reply.message, ::testing::HasSubstr("run.log"));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  ASSERT_TRUE(client.stopLog().ok);
  robot.stop();
  thread.join();

  binaryio::LogReader reader(folder / "run.log");
  std::vector<std::uint32_t> frames;
  while (auto frame = reader.nextFrame())
    frames.push_back(frame->frameNumber());
  ASSERT_GT(frames.size(), 20u);
  std::vector<LoggedNote> notes;
  for (const auto& annotation : reader.annotations())
    if (auto note = parseNoteAnnotation(annotation.text)) notes.push_back(*note);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].text, "event: push 45 0 0 for 0.1 at torso (sim frame 42)");
  // A frame of the log, after its first (the request came 200 ms in) and before its last.
  EXPECT_THAT(frames, ::testing::Contains(notes[0].frame));
  EXPECT_GT(notes[0].frame, frames.front());
  EXPECT_LT(notes[0].frame, frames.back());
  std::filesystem::remove_all(folder);
}
