// LolaBody against a real Unix socket: the representations from a known frame (values, units, FSR centre of
// pressure computed here from NaoFacts.md §12's millimetres), bad frames, partial reads, queued frames,
// reconnection after a loss, the end after an orderly close, giving up, and no allocation after the first frame (with a measured
// round trip).
#include "Platform/LoLA/LolaBody.h"
#include "Platform/LoLA/Tests/LolaTestSupport.h"
#include "Tools/Testing/AllocationCounter.h"
#include "Util/Simulator/Lola/LolaServer.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>
#include <memory>
#include <thread>

namespace nao::test
{
namespace
{
struct Sensors
{
  FrameInfo frameInfo;
  JointSensorData joints;
  FsrSensorData fsr;
  InertialSensorData inertial;
  BatteryData battery;
  TouchData touch;
  UnreadableReadings unreadable;
  BodySensors all{frameInfo, joints, fsr, inertial, battery, touch, unreadable};
};

/// Stops the server and joins the body's thread when the scope ends, also when an assertion returns early.
class StopAndJoin
{
public:
  StopAndJoin(std::thread& thread, std::unique_ptr<LolaServer>& server) : thread_(thread), server_(server) {}
  ~StopAndJoin()
  {
    server_.reset();
    if (thread_.joinable()) thread_.join();
  }

private:
  std::thread& thread_;
  std::unique_ptr<LolaServer>& server_;
};

LolaBodyOptions optionsFor(const TempDirectory& directory)
{
  LolaBodyOptions options;
  options.socketPath = directory.socketPath();
  options.countWallClockGaps = false;
  return options;
}
} // namespace

TEST(LolaBody, FillsEveryRepresentationFieldFromAKnownFrameAndAnswersTheRequest)
{
  TempDirectory directory;
  LolaServer server({directory.socketPath()});
  LolaBody body(optionsFor(directory));
  ASSERT_TRUE(body.connect());
  LolaSensorFrame frame = knownSensorFrame(0.25f);
  frame.fsr = {0.9f, 0.7f, 0.5f, 0.3f, 0.05f, 0.02f, 0.01f, 0.f}; // right foot nearly lifted: 0.08 kg
  ASSERT_TRUE(server.sendSensors(frame));
  Sensors sensors;
  ASSERT_TRUE(body.waitForSensors(sensors.all));

  for (std::size_t j = 0; j < 25; ++j)
  {
    EXPECT_EQ(sensors.joints.angles[j], frame.position[j]) << j;
    EXPECT_EQ(sensors.joints.currents[j], frame.current[j]) << j; // A, as LoLA sends
    EXPECT_EQ(sensors.joints.temperatures[j], frame.temperature[j]) << j;
    EXPECT_EQ(sensors.joints.stiffnesses[j], frame.stiffness[j]) << j;
    EXPECT_EQ(static_cast<int>(sensors.joints.status[j]), static_cast<int>(j % 4)) << j;
  }
  // Left foot: NaoFacts.md §12 in mm, (70.25, 29.9), (70.25, -23.1), (-30.25, 29.9), (-29.65, -19.1).
  const double weights[4] = {0.9, 0.7, 0.5, 0.3};
  const double xs[4] = {70.25, 70.25, -30.25, -29.65}, ys[4] = {29.9, -23.1, 29.9, -19.1};
  double sum = 0, x = 0, y = 0;
  for (int i = 0; i < 4; ++i)
  {
    sum += weights[i];
    x += weights[i] * xs[i];
    y += weights[i] * ys[i];
  }
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(sensors.fsr.left.readings[i], frame.fsr[i]);
  EXPECT_NEAR(sensors.fsr.left.totalWeight, 2.4, 1e-6);
  EXPECT_NEAR(sensors.fsr.left.centerOfPressure[0], x / sum / 1000.0, 1e-6); // m
  EXPECT_NEAR(sensors.fsr.left.centerOfPressure[1], y / sum / 1000.0, 1e-6);
  EXPECT_TRUE(sensors.fsr.left.hasPressure);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(sensors.fsr.right.readings[i], frame.fsr[4 + i]);
  EXPECT_NEAR(sensors.fsr.right.totalWeight, 0.08, 1e-6);
  EXPECT_FALSE(sensors.fsr.right.hasPressure); // below the 0.2 kg contact threshold
  EXPECT_EQ(sensors.fsr.right.centerOfPressure, (std::array<float, 2>{0.f, 0.f}));

  EXPECT_EQ(sensors.inertial.gyro, frame.gyroscope);
  EXPECT_EQ(sensors.inertial.angles, frame.angles);
  // Raw LoLA (0.5, -0.25, -9.75) is the negated specific force: ours reads +9.75 up.
  EXPECT_EQ(sensors.inertial.accelerometer, (std::array<float, 3>{-0.5f, 0.25f, 9.75f}));

  EXPECT_FLOAT_EQ(sensors.battery.charge, 0.75f);
  EXPECT_TRUE(sensors.battery.charging); // status 131 = 0x83
  EXPECT_FLOAT_EQ(sensors.battery.current, -1.25f);
  EXPECT_FLOAT_EQ(sensors.battery.temperature, 36.5f);

  EXPECT_EQ(sensors.frameInfo.frameNumber, 0u);
  EXPECT_EQ(sensors.frameInfo.time, 0.0);
  EXPECT_EQ(sensors.frameInfo.missedFrames, 0u);
  EXPECT_EQ(body.lastFrame().robotConfig[0].view(), "SIMULATOR-BODY-00001");

  JointRequest request;
  for (std::size_t j = 0; j < 25; ++j)
  {
    request.angles[j] = 0.1f * static_cast<float>(j) - 1.f;
    request.stiffnesses[j] = j % 3 == 0 ? 1.5f : j % 3 == 1 ? -0.2f : 0.5f;
  }
  request.angles[4] = std::numeric_limits<float>::quiet_NaN();
  request.stiffnesses[5] = std::numeric_limits<float>::infinity();
  body.send(request);
  ASSERT_EQ(server.receiveAnswer(LolaAnswerMode::lockStep), LolaAnswerStatus::answered);
  const LolaActuatorFrame& command = server.command();
  for (std::size_t j = 0; j < 25; ++j)
  {
    if (j == 4)
      EXPECT_EQ(command.position[j], frame.position[4]); // NaN replaced by the measured angle
    else
      EXPECT_EQ(command.position[j], request.angles[j]) << j;
    const float expected = j == 5 ? 0.f : j % 3 == 0 ? 1.f : j % 3 == 1 ? 0.f : 0.5f;
    EXPECT_EQ(command.stiffness[j], expected) << j;
  }
  EXPECT_EQ(body.statistics().invalidRequestValues, 2u);
  EXPECT_EQ(command.presentKeys, (1u << lolaActuatorKeyCount) - 1);
  EXPECT_EQ(command.lEye, (std::array<float, 24>{}));
  EXPECT_EQ(command.sonar, (std::array<bool, 2>{true, true}));
}

TEST(LolaBody, BadFramesAreCountedAndPreviousValuesKeptAndPartialReadsJoin)
{
  TempDirectory directory;
  RawLolaServer server(directory.socketPath());
  LolaBody body(optionsFor(directory));
  ASSERT_TRUE(body.connect());
  server.acceptClient();
  Sensors sensors;
  server.send(encoded(knownSensorFrame(1.f)));
  ASSERT_TRUE(body.waitForSensors(sensors.all));
  ASSERT_EQ(sensors.joints.angles[0], 1.f);
  EXPECT_EQ(sensors.unreadable.count, 0u);

  // A malformed frame is dropped whole: every value keeps its last good one.
  server.send(std::vector<std::uint8_t>{0xc1, 0x00});
  sensors.joints.angles[0] = 99.f; // the body must write the held values again
  sensors.inertial.gyro = {9.f, 9.f, 9.f};
  ASSERT_TRUE(body.waitForSensors(sensors.all));
  EXPECT_EQ(sensors.joints.angles[0], 1.f);
  EXPECT_EQ(sensors.inertial.gyro, knownSensorFrame(1.f).gyroscope);
  EXPECT_EQ(sensors.frameInfo.frameNumber, 1u);
  EXPECT_EQ(body.statistics().decodeErrors, 1u);

  // A value that cannot be read costs only itself: it keeps its last good value, the rest of the frame is used.
  LolaSensorFrame notFinite = knownSensorFrame(5.f);
  notFinite.position[3] = std::numeric_limits<float>::quiet_NaN();
  notFinite.battery[0] = std::numeric_limits<float>::infinity();
  LolaSensorFrame badStatus = knownSensorFrame(6.f);
  badStatus.status[2] = 7;
  const std::vector<std::pair<LolaSensorFrame, const char*>> cases = {
      {notFinite, "key 'Position' element 3 is not a finite number"},
      {badStatus, "key 'Status' element 2 is not a temperature status 0..3"}};
  const TemperatureStatus heldStatus = sensors.joints.status[2];
  for (std::size_t i = 0; i < cases.size(); ++i)
  {
    const LolaSensorFrame& frame = cases[i].first;
    server.send(encoded(frame));
    ASSERT_TRUE(body.waitForSensors(sensors.all));
    EXPECT_EQ(sensors.joints.angles[0], frame.position[0]) << i << ": the rest of the frame is used";
    EXPECT_EQ(sensors.inertial.gyro, frame.gyroscope) << i;
    EXPECT_EQ(sensors.frameInfo.frameNumber, i + 2);
    EXPECT_EQ(body.statistics().decodeErrors, 1u) << i;
    EXPECT_NE(std::string(body.lastError()).find(cases[i].second), std::string::npos) << body.lastError();
  }
  EXPECT_EQ(sensors.joints.angles[3], knownSensorFrame(6.f).position[3]);
  EXPECT_EQ(sensors.joints.status[2], heldStatus) << "7 is no status: the last good one is kept";
  EXPECT_TRUE(sensors.unreadable.jointStatus[2]);
  EXPECT_FALSE(sensors.unreadable.jointAngles[3]) << "the marks are this frame's";
  EXPECT_EQ(sensors.unreadable.count, 1u);
  EXPECT_EQ(body.statistics().unreadableValues, 3u);
  // The NaN frame again, after the frame of marker 6: its angle and charge keep marker 6's values.
  server.send(encoded(notFinite));
  ASSERT_TRUE(body.waitForSensors(sensors.all));
  EXPECT_EQ(sensors.joints.angles[3], knownSensorFrame(6.f).position[3]);
  EXPECT_EQ(sensors.battery.charge, knownSensorFrame(6.f).battery[0]);
  EXPECT_TRUE(sensors.unreadable.jointAngles[3]);
  EXPECT_TRUE(sensors.unreadable.battery[0]);
  EXPECT_EQ(sensors.unreadable.count, 2u);

  // A frame in three pieces with pauses: the body waits until it is complete.
  const std::vector<std::uint8_t> next = encoded(knownSensorFrame(2.f));
  std::thread writer(
      [&]
      {
        for (auto [begin, end] : {std::pair<std::size_t, std::size_t>{0, 1}, {1, 400}, {400, next.size()}})
        {
          server.send(std::span(next.data() + begin, end - begin));
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
      });
  ASSERT_TRUE(body.waitForSensors(sensors.all));
  writer.join();
  EXPECT_EQ(sensors.joints.angles[0], 2.f);
  EXPECT_EQ(body.statistics().decodeErrors, 1u);
  EXPECT_EQ(body.statistics().packets, 6u);
}

TEST(LolaBody, TakesTheNewestQueuedFrameAndCountsMissedFrames)
{
  TempDirectory directory;
  LolaServer server({directory.socketPath()});
  LolaBody body(optionsFor(directory));
  ASSERT_TRUE(body.connect());
  for (float marker : {1.f, 2.f, 3.f})
    ASSERT_TRUE(server.sendSensors(knownSensorFrame(marker)));
  Sensors sensors;
  ASSERT_TRUE(body.waitForSensors(sensors.all));
  EXPECT_EQ(sensors.joints.angles[0], 3.f);
  EXPECT_EQ(sensors.frameInfo.frameNumber, 2u);
  EXPECT_DOUBLE_EQ(sensors.frameInfo.time, 2 * 0.012);
  EXPECT_EQ(sensors.frameInfo.missedFrames, 2u);
  EXPECT_EQ(body.statistics().skippedFrames, 2u);

  // With wall-clock gap detection: a pause of at least 60 ms (5 frames) counts at least 4 missed frames.
  LolaBodyOptions options = optionsFor(directory);
  options.countWallClockGaps = true;
  LolaBody timedBody(options);
  ASSERT_TRUE(timedBody.connect());
  ASSERT_TRUE(server.sendSensors(knownSensorFrame(4.f))); // replaces the first client
  ASSERT_TRUE(timedBody.waitForSensors(sensors.all));
  EXPECT_EQ(sensors.frameInfo.missedFrames, 0u);
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  ASSERT_TRUE(server.sendSensors(knownSensorFrame(5.f)));
  ASSERT_TRUE(timedBody.waitForSensors(sensors.all));
  EXPECT_GE(sensors.frameInfo.missedFrames, 4u);
  EXPECT_EQ(sensors.frameInfo.frameNumber, 1u);
}

TEST(LolaBody, ReconnectsAfterALossAndEndsAtOnceWhenTheServerClosesInOrder)
{
  TempDirectory directory;
  LolaBodyOptions options = optionsFor(directory);
  options.reconnectAttempts = 200;
  options.reconnectIntervalSeconds = 0.01;
  std::vector<float> received;
  std::atomic<bool> bodyEnded{false};
  bool lost = true, closedByServer = false;
  std::uint64_t connections = 0;
  std::chrono::steady_clock::time_point ended;
  std::unique_ptr<LolaServer> server;
  auto raw = std::make_unique<RawLolaServer>(directory.socketPath());
  std::thread bodyThread(
      [&]
      {
        LolaBody body(options);
        Sensors sensors;
        JointRequest request;
        while (body.waitForSensors(sensors.all))
        {
          received.push_back(sensors.joints.angles[0]);
          request.angles[0] = sensors.joints.angles[0];
          body.send(request);
        }
        ended = std::chrono::steady_clock::now();
        connections = body.statistics().connections;
        lost = body.lost();
        closedByServer = body.closedByServer();
        bodyEnded = true;
      });
  StopAndJoin stopAndJoin(bodyThread, server);

  // A server that dies in the middle of its third frame: a loss, so the body reconnects.
  raw->acceptClient();
  LolaActuatorFrame answer;
  for (int i = 0; i < 2; ++i)
  {
    raw->send(encoded(knownSensorFrame(10.f + static_cast<float>(i))));
    ASSERT_TRUE(raw->readAnswer(answer));
  }
  const std::vector<std::uint8_t> third = encoded(knownSensorFrame(12.f));
  raw->send(std::span(third.data(), third.size() / 2));
  raw.reset();
  server = std::make_unique<LolaServer>(LolaServerOptions{directory.socketPath()});
  ASSERT_TRUE(server->waitForClient(10.0));
  for (int i = 0; i < 3; ++i)
  {
    const float marker = 20.f + static_cast<float>(i);
    ASSERT_TRUE(server->sendSensors(knownSensorFrame(marker)));
    ASSERT_EQ(server->receiveAnswer(LolaAnswerMode::lockStep), LolaAnswerStatus::answered);
    EXPECT_EQ(server->command().position[0], marker);
  }
  EXPECT_EQ(server->statistics().missingAnswers, 0u);
  // The simulator ends its run: the stream ends after a complete frame. The body ends at once, no reconnecting
  // (which would take 200 x 10 ms).
  const auto closed = std::chrono::steady_clock::now();
  server.reset();
  bodyThread.join();
  EXPECT_TRUE(bodyEnded);
  EXPECT_TRUE(closedByServer);
  EXPECT_FALSE(lost);
  EXPECT_LT(std::chrono::duration<double>(ended - closed).count(), 0.5);
  EXPECT_EQ(connections, 2u);
  EXPECT_EQ(received, (std::vector<float>{10, 11, 20, 21, 22}));
}

TEST(LolaBody, GivesUpWhenTheServerStaysAwayAfterALoss)
{
  TempDirectory directory;
  LolaBodyOptions options = optionsFor(directory);
  options.reconnectAttempts = 20;
  options.reconnectIntervalSeconds = 0.01;
  LolaBody body(options);
  Sensors sensors;
  {
    RawLolaServer raw(directory.socketPath());
    ASSERT_TRUE(body.connect());
    raw.acceptClient();
    const std::vector<std::uint8_t> frames = encoded(knownSensorFrame(1.f));
    raw.send(frames);
    ASSERT_TRUE(body.waitForSensors(sensors.all));
    raw.send(std::span(frames.data(), 100)); // and dies in the middle of the next frame
  }
  EXPECT_FALSE(body.waitForSensors(sensors.all));
  EXPECT_TRUE(body.lost());
  EXPECT_FALSE(body.closedByServer());
  EXPECT_NE(std::string(body.lastError()).find("after 20 tries"), std::string::npos) << body.lastError();
}

TEST(LolaBody, ReportsWhenNoServerEverAnswers)
{
  TempDirectory directory;
  LolaBodyOptions options = optionsFor(directory);
  options.connectAttempts = 3;
  options.connectIntervalSeconds = 0.001;
  LolaBody body(options);
  Sensors sensors;
  EXPECT_FALSE(body.waitForSensors(sensors.all));
  EXPECT_NE(std::string(body.lastError()).find("after 3 tries"), std::string::npos) << body.lastError();
  EXPECT_NE(std::string(body.lastError()).find(directory.socketPath()), std::string::npos);
  EXPECT_FALSE(body.waitForSensors(sensors.all));
}

TEST(LolaBody, NothingAllocatesAfterTheFirstFrameAndARoundTripIsMeasured)
{
  TempDirectory directory;
  auto server = std::make_unique<LolaServer>(LolaServerOptions{directory.socketPath()});
  LolaBodyOptions options = optionsFor(directory);
  options.reconnectAttempts = 2;
  options.reconnectIntervalSeconds = 0.001;
  constexpr int frames = 2000;
  std::size_t bodyAllocations = 0;
  int bodyFrames = 0;
  std::thread bodyThread(
      [&]
      {
        LolaBody body(options);
        Sensors sensors;
        JointRequest request;
        if (!body.waitForSensors(sensors.all)) return;
        body.send(request);
        ThreadAllocationCount count;
        while (body.waitForSensors(sensors.all))
        {
          request.angles[0] = sensors.joints.angles[0];
          request.stiffnesses.fill(0.5f);
          body.send(request);
          ++bodyFrames;
        }
        bodyAllocations = count.allocations();
      });
  StopAndJoin stopAndJoin(bodyThread, server);

  ASSERT_TRUE(server->waitForClient(10.0));
  LolaSensorFrame frame = knownSensorFrame(0.f);
  ASSERT_TRUE(server->sendSensors(frame));
  ASSERT_EQ(server->receiveAnswer(LolaAnswerMode::lockStep), LolaAnswerStatus::answered);
  std::vector<double> roundTrips(frames);
  std::size_t serverAllocations = 0, answered = 0;
  {
    ThreadAllocationCount count;
    for (int i = 0; i < frames; ++i)
    {
      frame.position[0] = static_cast<float>(i);
      const auto start = std::chrono::steady_clock::now();
      server->sendSensors(frame);
      answered += server->receiveAnswer(LolaAnswerMode::lockStep) == LolaAnswerStatus::answered &&
                  server->command().position[0] == static_cast<float>(i);
      roundTrips[static_cast<std::size_t>(i)] =
          std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    }
    serverAllocations = count.allocations();
  }
  std::sort(roundTrips.begin(), roundTrips.end());
  std::printf(
      "[ LoLA     ] lock-step round trip over the socket (server send -> body receive -> body send -> server "
      "receive), %d frames: median %.1f us, 99th percentile %.1f us, max %.1f us\n",
      frames, roundTrips[frames / 2], roundTrips[frames * 99 / 100], roundTrips.back());
  RecordProperty("roundTripMedianMicroseconds", std::to_string(roundTrips[frames / 2]));

  // Ends the body: the server closes the connection in order (that path must not allocate either).
  server.reset();
  bodyThread.join();
  EXPECT_EQ(answered, static_cast<std::size_t>(frames));
  EXPECT_EQ(bodyFrames, frames);
  EXPECT_EQ(bodyAllocations, 0u);
  EXPECT_EQ(serverAllocations, 0u);
}
} // namespace nao::test
