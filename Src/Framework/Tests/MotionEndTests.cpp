// A robot whose body ends (LoLA gone, the stand-in's last frame) while clients keep asking: every request that
// arrives after the motion thread has ended is answered at once by the debug thread, and Robot::run() returns
// within a second. A subscription used to wait up to 1 s for a motion thread that no longer ran, one after
// another, so a client that kept subscribing kept the binary up for good.
#include "Framework/Client/DebugClient.h"
#include "Framework/Robot.h"
#include "Framework/Testing/TestRobot.h"
#include "Platform/StandIn/StandInBody.h"
#include "Tools/BinaryIO/BoundedArchive.h"
#include "Tools/Build/Sanitized.h"
#include "Tools/Network/Client.h"
#include "Tools/Network/Frame.h"
#include <atomic>
#include <gtest/gtest.h>
#include <thread>

using namespace nao;
using namespace std::chrono_literals;

namespace
{
using Clock = std::chrono::steady_clock;

template<class T>
void appendFrame(std::vector<char>& out, debug::MessageType type, const T& message)
{
  std::vector<char> payload;
  binaryio::serializeInto(payload, message);
  network::encodeFrame(static_cast<std::uint16_t>(type), payload, out);
}

/// Subscribes and unsubscribes in a loop and reads the answers, like a GUI whose user clicks fast.
void politeClient(std::uint16_t port, const std::atomic<bool>& stop, std::atomic<std::uint64_t>& answered)
{
  while (!stop)
  {
    try
    {
      DebugClient client("127.0.0.1", port, {}, 500ms);
      while (!stop)
      {
        client.subscribe("JointRequest", 0.f);
        client.unsubscribe("JointRequest");
        answered += 2;
      }
    }
    catch (const std::exception&)
    {
      std::this_thread::sleep_for(2ms); // closed or refused: connect again
    }
  }
}

/// Pipelines subscriptions of every representation and never reads: requests pile up on the robot.
void floodingClient(std::uint16_t port, const std::vector<std::string>& names, const std::atomic<bool>& stop,
                    std::atomic<std::uint64_t>& sent)
{
  while (!stop)
  {
    try
    {
      network::FrameClient client("127.0.0.1", port, 500ms);
      while (!stop)
      {
        std::vector<char> batch;
        for (const std::string& name : names)
          appendFrame(batch, debug::MessageType::subscribe, debug::Subscribe{name, 0.f});
        for (const std::string& name : names)
          appendFrame(batch, debug::MessageType::unsubscribe, debug::Name{name});
        client.sendRaw(batch, 100ms);
        sent += 2 * names.size();
      }
    }
    catch (const std::exception&)
    {
      std::this_thread::sleep_for(2ms);
    }
  }
}
} // namespace

TEST(MotionEnd, ClientsThatKeepSubscribingDoNotKeepARobotWhoseBodyEndedRunning)
{
  constexpr std::uint32_t frames = 250; // 1 s at 4 ms: the clients are busy long before the end
  std::atomic<Clock::rep> lastFrame{0};
  StandInBody::Options bodyOptions;
  bodyOptions.frames = frames;
  bodyOptions.realTime = true;
  bodyOptions.frameSeconds = 0.004;
  bodyOptions.script = [&](std::uint32_t frame, JointSensorData&)
  {
    if (frame + 1 == frames) lastFrame = Clock::now().time_since_epoch().count();
  };
  StandInBody body(bodyOptions);
  Robot robot(body, testRobotOptions("standin", true));
  const std::uint16_t port = robot.debugServer()->port();
  std::vector<std::string> names;
  const auto& registry = RepresentationRegistry::instance();
  for (std::size_t id = 0; id < registry.size(); ++id)
    names.push_back(registry.info(static_cast<RepresentationId>(id)).name);
  ASSERT_GT(names.size(), 10u);

  std::atomic<bool> stop{false};
  std::atomic<std::uint64_t> answered{0}, sent{0};
  std::vector<std::thread> clients;
  for (int i = 0; i < 2; ++i)
    clients.emplace_back(politeClient, port, std::cref(stop), std::ref(answered));
  for (int i = 0; i < 3; ++i)
    clients.emplace_back(floodingClient, port, std::cref(names), std::cref(stop), std::ref(sent));

  std::atomic<bool> ended{false};
  std::thread runner(
      [&]
      {
        robot.run();
        ended = true;
      });
  // The bound is generous for a loaded machine; run() takes about 10 ms after the last frame, and the waits this
  // test guards against added up to a second per queued subscription.
  const auto deadline = Clock::now() + 30s;
  while (!ended && Clock::now() < deadline)
    std::this_thread::sleep_for(1ms);
  const auto returned = Clock::now();
  const bool returnedInTime = ended.load();
  stop = true;
  for (auto& client : clients)
    client.join();
  if (!returnedInTime) robot.stop(); // the body has ended anyway; run() must end for the thread to join
  runner.join();

  ASSERT_TRUE(returnedInTime) << "Robot::run() did not return within 30 s after its body's last frame";
  ASSERT_NE(lastFrame.load(), 0) << "the body never reached its last frame";
  EXPECT_EQ(body.framesSent(), frames);
  const double afterEnd =
      std::chrono::duration<double>(returned - Clock::time_point(Clock::duration(lastFrame.load()))).count();
  RecordProperty("secondsAfterLastFrame", std::to_string(afterEnd));
  // Sanitizer builds run 5 to 15 times slower (Make/sanitize runs this test under ThreadSanitizer).
  const double bound = NAO_SANITIZED ? 10.0 : 1.0;
  EXPECT_LT(afterEnd, bound) << "Robot::run() returned " << afterEnd << " s after the body's last frame";
  EXPECT_GT(answered.load(), 0u) << "the polite clients were answered while the robot ran";
  EXPECT_GT(sent.load(), 1000u) << "the flooding clients kept requests queued on the robot";
  // Nothing the clients asked for is left waiting between the threads.
  EXPECT_EQ(robot.controller().unansweredCommands(), 0u);
}
