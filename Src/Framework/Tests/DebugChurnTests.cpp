// Hostile subscription churn on the debug channel: several clients at once subscribe and unsubscribe every
// representation as fast as TCP carries the frames (pipelined, without waiting for answers), mixed with damaged
// frames, garbage payloads, clients that never read and clients that leave in the middle of a frame with their
// subscriptions open. The robot's memory must stay under a flat ceiling, and nothing may be left once they are
// gone. Its own executable: the heap figures are of this process, so no other test may run beside it.
#include "Framework/Client/DebugClient.h"
#include "Framework/Robot.h"
#include "Framework/Testing/TestRobot.h"
#include "Platform/StandIn/StandInBody.h"
#include "Tools/BinaryIO/BoundedArchive.h"
#include "Tools/Build/Sanitized.h"
#include "Tools/Network/Client.h"
#include "Tools/Network/Frame.h"
#include <algorithm>
#include <atomic>
#include <fstream>
#include <gtest/gtest.h>
#include <malloc.h>
#include <random>
#include <unistd.h>

using namespace nao;
using namespace std::chrono_literals;

namespace
{
struct Memory
{
  std::size_t heapBytes = 0;     ///< allocated and not freed (every arena, mmapped blocks included)
  std::size_t residentBytes = 0; ///< RSS
};

Memory memoryNow()
{
  const struct mallinfo2 info = ::mallinfo2();
  std::ifstream statm("/proc/self/statm");
  std::size_t size = 0, resident = 0;
  statm >> size >> resident;
  return {info.uordblks + info.hblkhd, resident * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE))};
}

constexpr std::size_t megabyte = 1u << 20;

template<class Message>
void appendFrame(std::vector<char>& batch, debug::MessageType type, const Message& message)
{
  std::vector<char> payload;
  binaryio::serializeInto(payload, message);
  network::encodeFrame(static_cast<std::uint16_t>(type), payload, batch);
}

/// How a churning client misbehaves besides churning.
enum class Mode
{
  Reads,        ///< reads every answer and sample it can
  NeverReads,   ///< never reads: its output queue on the robot fills up
  Garbage,      ///< also sends damaged frames and payloads that are not the message they claim
  LeavesMidway, ///< leaves in the middle of a frame, with subscriptions open
};

/// One client's loop: connects, churns a few hundred subscriptions, leaves, connects again, until `stop`.
void churn(std::uint16_t port, Mode mode, unsigned seed, const std::vector<std::string>& names,
           const std::atomic<bool>& stop, std::atomic<std::uint64_t>& framesSent,
           std::atomic<std::uint64_t>& subscribed)
{
  std::mt19937 random(seed);
  const float rates[] = {0.f, 1.f, 10.f, 83.f, 1000.f, -1.f, std::numeric_limits<float>::quiet_NaN()};
  while (!stop)
  {
    try
    {
      network::FrameClient client("127.0.0.1", port, 1s);
      const int rounds = std::uniform_int_distribution(5, 40)(random);
      for (int round = 0; round < rounds && !stop; ++round)
      {
        std::vector<char> batch;
        std::size_t frames = 0;
        // A few subscriptions, then their end, pipelined; a few unsubscribes of anything on top.
        std::vector<std::string> picked;
        for (int i = 0; i < 5; ++i)
          picked.push_back(names[random() % names.size()]);
        for (const std::string& name : picked)
          appendFrame(batch, debug::MessageType::subscribe, debug::Subscribe{name, rates[random() % 7]});
        for (const std::string& name : picked)
          if (random() % 8 != 0) // some stay open, to be replaced or left behind
            appendFrame(batch, debug::MessageType::unsubscribe, debug::Name{name});
        for (int i = 0; i < 3; ++i)
          appendFrame(batch, debug::MessageType::unsubscribe, debug::Name{names[random() % names.size()]});
        frames += 2 * picked.size() + 3;
        if (mode == Mode::Garbage)
        {
          std::vector<char> garbage(random() % 64);
          for (char& byte : garbage)
            byte = static_cast<char>(random());
          network::encodeFrame(static_cast<std::uint16_t>(debug::MessageType::subscribe), garbage, batch);
          std::vector<char> damaged;
          appendFrame(damaged, debug::MessageType::subscribe, debug::Subscribe{names.front(), 0.f});
          damaged.back() ^= 0x21; // the payload no longer matches its CRC
          batch.insert(batch.end(), damaged.begin(), damaged.end());
          frames += 2;
        }
        client.sendRaw(batch, 1s);
        framesSent += frames;
        if (mode != Mode::NeverReads)
          while (auto frame = client.receiveFrame(round % 4 == 0 ? 2ms : 0ms))
            if (frame->messageType == static_cast<std::uint16_t>(debug::MessageType::reply) &&
                binaryio::deserialize<debug::Reply>(frame->payload).message.starts_with("subscribed"))
              ++subscribed;
      }
      if (mode == Mode::LeavesMidway)
      {
        std::vector<char> last;
        appendFrame(last, debug::MessageType::subscribe, debug::Subscribe{names.back(), 0.f});
        client.sendRaw(std::span(last).first(last.size() / 2), 1s);
      }
    }
    catch (const std::exception&)
    {
      // Refused (all slots taken), closed by the robot or timed out: connect again.
      std::this_thread::sleep_for(5ms);
    }
  }
}
} // namespace

TEST(DebugChurn, ManyHostileClientsChurningSubscriptionsKeepMemoryFlat)
{
  StandInBody::Options bodyOptions;
  bodyOptions.frames = 1'000'000; // ends when the test stops it
  bodyOptions.realTime = true;
  bodyOptions.frameSeconds = 0.004;
  StandInBody body(bodyOptions);
  Robot robot(body, testRobotOptions("standin", true));
  std::thread robotThread([&] { robot.run(); });
  const std::uint16_t port = robot.debugServer()->port();

  std::vector<std::string> names;
  {
    DebugClient lister("127.0.0.1", port);
    for (const auto& representation : lister.list().representations)
      names.push_back(representation.name);
  }
  ASSERT_GE(names.size(), 15u);
  std::this_thread::sleep_for(200ms);
  const Memory idle = memoryNow();

  std::atomic<bool> stop{false};
  std::atomic<std::uint64_t> framesSent{0}, subscribed{0};
  const Mode modes[] = {Mode::Reads,   Mode::Reads,        Mode::NeverReads,
                        Mode::Garbage, Mode::LeavesMidway, Mode::LeavesMidway};
  std::vector<std::thread> clients;
  for (unsigned i = 0; i < std::size(modes); ++i)
    clients.emplace_back(churn, port, modes[i], 1234 + i, std::cref(names), std::cref(stop),
                         std::ref(framesSent), std::ref(subscribed));

  // Warm-up: every per-connection buffer and subscription ring reaches its working size. Then the ceiling is
  // measured against the end of the warm-up, every half second, for at least 20 s and until the clients have done
  // enough to prove something (a loaded machine grants fewer subscriptions per second; the test then runs longer,
  // up to 2 minutes, instead of proving less).
  constexpr auto warmUp = 4s, shortestRun = 20s, longestRun = 120s;
  constexpr std::uint64_t enoughFrames = 20'000, enoughSubscriptions = 500;
  std::this_thread::sleep_for(warmUp);
  const Memory warm = memoryNow();
  const std::uint64_t framesAtWarm = framesSent, grantedAtWarm = robot.debugServer()->subscriptionsGranted();
  const auto grantedSinceWarm = [&] { return robot.debugServer()->subscriptionsGranted() - grantedAtWarm; };
  Memory highest = warm;
  auto run = 0ms;
  while (run < shortestRun || (run < longestRun && (framesSent - framesAtWarm < enoughFrames ||
                                                    grantedSinceWarm() < enoughSubscriptions)))
  {
    std::this_thread::sleep_for(500ms);
    run += 500ms;
    const Memory now = memoryNow();
    highest.heapBytes = std::max(highest.heapBytes, now.heapBytes);
    highest.residentBytes = std::max(highest.residentBytes, now.residentBytes);
  }
  stop = true;
  for (std::thread& client : clients)
    client.join();
  const std::uint64_t churned = framesSent - framesAtWarm, subscriptions = grantedSinceWarm();

  // The channel still serves a well-behaved client after all that.
  {
    DebugClient good("127.0.0.1", port);
    ASSERT_TRUE(good.subscribe("JointRequest", 0).ok);
    EXPECT_TRUE(good.nextData(2s)) << "no sample after the churn";
  }
  std::this_thread::sleep_for(300ms); // the robot notices the last client leaving
  const Memory afterClients = memoryNow();
  robot.stop();
  robotThread.join();

  std::printf("churn: %llu frames (%llu subscriptions granted, %llu confirmations read by clients) in %.1f s "
              "after warm-up; "
              "heap idle %.1f MB, "
              "warm %.1f MB, highest %.1f MB, "
              "after %.1f MB; RSS warm %.1f MB, highest %.1f MB; %llu bad messages, %llu send drops\n",
              static_cast<unsigned long long>(churned), static_cast<unsigned long long>(subscriptions),
              static_cast<unsigned long long>(subscribed.load()), run.count() / 1000.0,
              double(idle.heapBytes) / megabyte, double(warm.heapBytes) / megabyte,
              double(highest.heapBytes) / megabyte, double(afterClients.heapBytes) / megabyte,
              double(warm.residentBytes) / megabyte, double(highest.residentBytes) / megabyte,
              static_cast<unsigned long long>(robot.debugServer()->badMessages()),
              static_cast<unsigned long long>(robot.debugServer()->networkStats().sendDrops));
  EXPECT_GE(churned, enoughFrames) << "the clients hardly churned: the test proves nothing";
  EXPECT_GE(subscriptions, enoughSubscriptions)
      << "hardly a subscription was granted: the test proves nothing";
#if !NAO_SANITIZED
  // Tolerance 16 MB over the warm level: more than glibc's arena slack, far less than one second of the reported
  // growth (16 MB/s).
  EXPECT_LT(highest.heapBytes, warm.heapBytes + 16 * megabyte) << "heap grew under churn";
  EXPECT_LT(highest.residentBytes, warm.residentBytes + 16 * megabyte) << "RSS grew under churn";
  // Gone clients leave nothing behind: their connections, subscriptions and taps are freed.
  EXPECT_LT(afterClients.heapBytes, idle.heapBytes + 4 * megabyte) << "memory kept after the clients left";
#endif
  EXPECT_EQ(robot.controller().liveTapCount(), 0u);
  EXPECT_EQ(robot.motion().retireDrops(), 0u);
}
