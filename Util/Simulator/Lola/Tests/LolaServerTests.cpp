// LolaServer with bare socket clients: missed answers keep the last command and are counted (lock-step and
// real time), malformed answers are dropped and counted, partial answers merge, clients disconnect, reconnect
// and replace each other, the socket file is handled. Each step writes before the server reads, so no outcome
// depends on timing.
#include "Platform/LoLA/Tests/LolaTestSupport.h"
#include "Util/Simulator/Lola/LolaServer.h"

#include <fstream>
#include <gtest/gtest.h>
#include <sys/stat.h>

namespace nao::test
{
namespace
{
LolaActuatorFrame answerWithMarker(float marker)
{
  LolaActuatorFrame answer;
  answer.setAllPresent();
  answer.position.fill(marker);
  answer.stiffness.fill(0.5f);
  return answer;
}

LolaServerOptions shortTimeout(const TempDirectory& directory)
{
  LolaServerOptions options;
  options.socketPath = directory.socketPath();
  options.answerTimeoutSeconds = 0.05; // only the frames without an answer wait this long
  return options;
}
} // namespace

TEST(LolaServer, AClientThatMissesFramesLeavesTheLastCommandInForceAndIsCounted)
{
  TempDirectory directory;
  LolaServer server(shortTimeout(directory));
  RawLolaClient client(directory.socketPath());
  ASSERT_TRUE(server.waitForClient(5.0));
  LolaSensorFrame received;
  for (int i = 0; i < 10; ++i)
  {
    ASSERT_TRUE(server.sendSensors(knownSensorFrame(static_cast<float>(i))));
    ASSERT_TRUE(client.readSensorFrame(received));
    EXPECT_EQ(received.position[0], static_cast<float>(i));
    const bool answers = i % 2 == 0;
    if (answers) client.answer(answerWithMarker(static_cast<float>(i)));
    EXPECT_EQ(server.receiveAnswer(LolaAnswerMode::lockStep),
              answers ? LolaAnswerStatus::answered : LolaAnswerStatus::missing);
    EXPECT_EQ(server.command().position[0], static_cast<float>(i - (answers ? 0 : 1))) << i;
  }
  EXPECT_EQ(server.statistics().missingAnswers, 5u);
  EXPECT_EQ(server.statistics().answers, 5u);
  EXPECT_EQ(server.statistics().framesSent, 10u);

  // Real time never waits: whatever arrived by the tick counts.
  ASSERT_TRUE(server.sendSensors(knownSensorFrame(20.f)));
  EXPECT_EQ(server.receiveAnswer(LolaAnswerMode::realTime), LolaAnswerStatus::missing);
  EXPECT_EQ(server.command().position[0], 8.f);
  ASSERT_TRUE(server.sendSensors(knownSensorFrame(21.f)));
  client.answer(answerWithMarker(20.f)); // late for frame 20, there before the tick of frame 21
  client.answer(answerWithMarker(21.f));
  EXPECT_EQ(server.receiveAnswer(LolaAnswerMode::realTime), LolaAnswerStatus::answered);
  EXPECT_EQ(server.command().position[0], 21.f); // both applied in order: the newest wins
  EXPECT_EQ(server.statistics().missingAnswers, 6u);
  EXPECT_EQ(server.statistics().lateAnswers, 1u) << "the answer to frame 20";

  // The last frame's answer on its way when the run ends: drainAnswers() takes it, late; then it waits no more.
  ASSERT_TRUE(server.sendSensors(knownSensorFrame(22.f)));
  EXPECT_EQ(server.receiveAnswer(LolaAnswerMode::realTime), LolaAnswerStatus::missing);
  client.answer(answerWithMarker(22.f));
  server.drainAnswers(0.05);
  EXPECT_EQ(server.command().position[0], 22.f);
  EXPECT_EQ(server.statistics().answers, 8u);
  EXPECT_EQ(server.statistics().lateAnswers, 2u);
  EXPECT_EQ(server.statistics().missingAnswers, 7u);
  EXPECT_EQ(server.statistics().framesSent, 13u);
  // Answers = frames answered in their frame (sent - missing) + late ones; frames 1, 3, 5, 7, 9 never got one.
  EXPECT_EQ(server.statistics().answers, server.statistics().framesSent - server.statistics().missingAnswers +
                                             server.statistics().lateAnswers);
}

TEST(LolaServer, MalformedAnswersAreDroppedAndCountedAndPartialAnswersMerge)
{
  TempDirectory directory;
  LolaServer server(shortTimeout(directory));
  RawLolaClient client(directory.socketPath());
  ASSERT_TRUE(server.waitForClient(5.0));
  ASSERT_TRUE(server.sendSensors(LolaSensorFrame{}));
  client.answer(answerWithMarker(1.f));
  ASSERT_EQ(server.receiveAnswer(LolaAnswerMode::lockStep), LolaAnswerStatus::answered);

  LolaActuatorFrame shortPosition = answerWithMarker(2.f);
  const std::vector<std::uint8_t> valid = encoded(shortPosition);
  std::vector<std::uint8_t> wrongLength = valid;
  wrongLength[1 + 9 + 2] = 24; // Position's array16 length 25 -> 24
  const std::vector<std::vector<std::uint8_t>> malformed = {
      {0xc1, 0xc1, 0xc1}, wrongLength, {0x81, 0xa3, 'F', 'o', 'o', 0x90}, encoded(knownSensorFrame(0.f))};
  const char* expected[] = {"never used", "key 'Position': expected 25 elements, got 24", "unknown key 'Foo'",
                            "map has 13 entries"};
  for (std::size_t i = 0; i < malformed.size(); ++i)
  {
    client.send(malformed[i]);
    EXPECT_EQ(server.receiveAnswer(LolaAnswerMode::lockStep), LolaAnswerStatus::malformed) << i;
    EXPECT_NE(std::string(server.lastError()).find(expected[i]), std::string::npos) << server.lastError();
    EXPECT_EQ(server.command().position[0], 1.f) << i;
    EXPECT_EQ(server.statistics().malformedAnswers, i + 1);
  }

  LolaActuatorFrame onlyStiffness;
  onlyStiffness.setPresent(LolaActuatorKey::Stiffness);
  onlyStiffness.stiffness.fill(0.25f);
  client.answer(onlyStiffness);
  EXPECT_EQ(server.receiveAnswer(LolaAnswerMode::lockStep), LolaAnswerStatus::answered);
  EXPECT_EQ(server.command().position[0], 1.f);     // not in the partial answer: kept
  EXPECT_EQ(server.command().stiffness[24], 0.25f); // in it: applied
  EXPECT_EQ(server.statistics().missingAnswers, 0u);
}

TEST(LolaServer, ClientsDisconnectReconnectAndANewerConnectionReplacesTheOld)
{
  TempDirectory directory;
  LolaServer server(shortTimeout(directory));
  EXPECT_FALSE(server.sendSensors(LolaSensorFrame{}));
  EXPECT_EQ(server.receiveAnswer(LolaAnswerMode::lockStep), LolaAnswerStatus::noClient);
  EXPECT_EQ(server.statistics().framesWithoutClient, 1u);

  auto first = std::make_unique<RawLolaClient>(directory.socketPath());
  ASSERT_TRUE(server.waitForClient(5.0));
  LolaSensorFrame received;
  ASSERT_TRUE(server.sendSensors(LolaSensorFrame{}));
  ASSERT_TRUE(first->readSensorFrame(received));
  first->close(); // gone without answering
  EXPECT_EQ(server.receiveAnswer(LolaAnswerMode::lockStep), LolaAnswerStatus::disconnected);
  EXPECT_FALSE(server.hasClient());
  EXPECT_EQ(server.statistics().clientsLost, 1u);

  EXPECT_FALSE(server.sendSensors(LolaSensorFrame{})); // nobody there until the next client connects
  RawLolaClient second(directory.socketPath());
  ASSERT_TRUE(server.sendSensors(knownSensorFrame(7.f))); // accepts the waiting client first
  ASSERT_TRUE(second.readSensorFrame(received));
  EXPECT_EQ(received.position[0], 7.f);
  second.answer(answerWithMarker(7.f));
  EXPECT_EQ(server.receiveAnswer(LolaAnswerMode::lockStep), LolaAnswerStatus::answered);

  RawLolaClient third(directory.socketPath());
  ASSERT_TRUE(server.sendSensors(knownSensorFrame(8.f)));
  ASSERT_TRUE(third.readSensorFrame(received));
  EXPECT_EQ(received.position[0], 8.f);
  EXPECT_TRUE(second.closedByServer());
  EXPECT_EQ(server.statistics().clientsReplaced, 1u);
  EXPECT_EQ(server.statistics().clientsAccepted, 3u);
}

TEST(LolaServer, RemovesAStaleSocketFileButRefusesALiveServerAndOtherFiles)
{
  TempDirectory directory;
  {
    // A socket file whose server died without removing it.
    UnixSocket stale = UnixSocket::listenAt(directory.socketPath());
  }
  struct stat status;
  ASSERT_EQ(::stat(directory.socketPath().c_str(), &status), 0);
  auto server = std::make_unique<LolaServer>(LolaServerOptions{directory.socketPath()});
  EXPECT_THROW(LolaServer second(LolaServerOptions{directory.socketPath()}), std::runtime_error);
  server.reset();
  EXPECT_NE(::stat(directory.socketPath().c_str(), &status), 0); // removed on destruction

  const std::string plainFile = directory.path() + "/notes.txt";
  std::ofstream(plainFile) << "keep me";
  try
  {
    LolaServer refused(LolaServerOptions{plainFile});
    FAIL() << "a regular file was replaced";
  }
  catch (const std::runtime_error& error)
  {
    EXPECT_NE(std::string(error.what()).find("is not a socket"), std::string::npos) << error.what();
  }
  EXPECT_EQ(::stat(plainFile.c_str(), &status), 0);
}

TEST(LolaServer, RefusesAFrameThatWouldNotBe896Bytes)
{
  TempDirectory directory;
  LolaServer server(shortTimeout(directory));
  RawLolaClient client(directory.socketPath());
  ASSERT_TRUE(server.waitForClient(5.0));
  LolaSensorFrame frame;
  frame.robotConfig[1] = LolaString("6.0");
  EXPECT_FALSE(server.sendSensors(frame));
  EXPECT_NE(std::string(server.lastError()).find("894 bytes, not 896"), std::string::npos)
      << server.lastError();
  EXPECT_EQ(server.statistics().framesSent, 0u);
  EXPECT_TRUE(server.sendSensors(LolaSensorFrame{}));
}
} // namespace nao::test
