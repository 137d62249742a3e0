// The robot side of debug-channel subscriptions, as the robot's own code runs it: a Robot on the stand-in body,
// MotionLoop::runFrame (modules, then the tap copies) and DebugServer::poll (serialize and send every sample) on
// this thread, and DebugClients on other threads reading what is sent. Reported: the CPU time a frame costs with
// the subscriptions minus without them, measured in alternating blocks of frames so that both halves see the same
// machine, and that as a share of one core at 83 Hz (issue 14's goal: at most 1 %). A check fails the run if a
// client missed a sample or the robot dropped one.
#include "Framework/Client/DebugClient.h"
#include "Framework/Robot.h"
#include "Framework/Testing/TestRobot.h"
#include "Platform/StandIn/StandInBody.h"
#include <benchmark/benchmark.h>
#include <condition_variable>
#include <ctime>
#include <deque>
#include <future>
#include <mutex>

using namespace nao;

namespace
{
constexpr std::size_t blockFrames = 1000;
constexpr double framePeriodNs = 12e6; ///< LoLA's 12 ms

double threadCpuNs()
{
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e9 + static_cast<double>(now.tv_nsec);
}

/// One motion frame and one debug-thread round, as the robot's two threads do them.
void frame(Robot& robot)
{
  robot.motion().runFrame();
  robot.debugServer()->poll(0);
}

/// A DebugClient on a thread of its own: reads samples all the time, runs requests in between. The robot is served
/// on the caller's thread meanwhile (call()).
class ClientThread
{
public:
  ClientThread(Robot& robot, std::uint16_t port)
      : thread_(
            [this, port]
            {
              DebugClient client("127.0.0.1", port);
              connected_ = true;
              loop(client);
            })
  {
    while (!connected_)
      robot.debugServer()->poll(1);
  }
  ~ClientThread()
  {
    running_ = false;
    thread_.join();
  }

  debug::Reply call(Robot& robot, std::function<debug::Reply(DebugClient&)> job)
  {
    std::packaged_task<debug::Reply(DebugClient&)> task(std::move(job));
    std::future<debug::Reply> reply = task.get_future();
    {
      std::lock_guard lock(mutex_);
      jobs_.push_back(std::move(task));
    }
    // Served without motion frames: requests are answered by the debug thread alone, and no new samples crowd
    // the answer.
    while (reply.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
      robot.debugServer()->poll(1);
    return reply.get();
  }
  std::uint64_t received() const { return received_; }
  std::uint64_t dropped() const { return dropped_; }

private:
  void loop(DebugClient& client)
  {
    while (running_)
    {
      std::packaged_task<debug::Reply(DebugClient&)> job;
      {
        std::lock_guard lock(mutex_);
        if (!jobs_.empty())
        {
          job = std::move(jobs_.front());
          jobs_.pop_front();
        }
      }
      if (job.valid())
      {
        job(client);
        continue;
      }
      if (const auto data = client.nextData(std::chrono::milliseconds(1)))
      {
        ++received_;
        dropped_ = std::max<std::uint64_t>(dropped_, data->dropped);
      }
    }
  }

  std::mutex mutex_;
  std::deque<std::packaged_task<debug::Reply(DebugClient&)>> jobs_;
  std::atomic<bool> connected_{false}, running_{true};
  std::atomic<std::uint64_t> received_{0}, dropped_{0};
  std::thread thread_;
};

void subscriptionCost(benchmark::State& state, const std::vector<std::string>& representations)
{
  StandInBody::Options bodyOptions;
  bodyOptions.frames = 0xffffffffu;
  StandInBody body(bodyOptions);
  Robot robot(body, testRobotOptions("standin", true));
  // One client per maxSubscriptionsPerClient subscriptions (the robot's limit per client).
  std::vector<std::unique_ptr<ClientThread>> clients;
  std::vector<std::vector<std::string>> perClient;
  for (std::size_t i = 0; i < representations.size(); ++i)
  {
    if (i % DebugServer::maxSubscriptionsPerClient == 0)
    {
      clients.push_back(std::make_unique<ClientThread>(robot, robot.debugServer()->port()));
      perClient.emplace_back();
    }
    perClient.back().push_back(representations[i]);
  }
  for (std::size_t i = 0; i < 200; ++i) // start-up: the stand-in body's first frames, caches warm
    frame(robot);

  double withoutNs = 0, withNs = 0;
  std::uint64_t frames = 0;
  for (auto _ : state)
  {
    double start = threadCpuNs();
    for (std::size_t i = 0; i < blockFrames; ++i)
      frame(robot);
    withoutNs += threadCpuNs() - start;

    for (std::size_t c = 0; c < clients.size(); ++c)
      for (const std::string& name : perClient[c])
      {
        const debug::Reply reply =
            clients[c]->call(robot, [&name](DebugClient& client) { return client.subscribe(name, 0); });
        if (!reply.ok) return state.SkipWithError(("subscribe " + name + ": " + reply.message).c_str());
      }
    std::vector<std::uint64_t> before;
    for (const auto& client : clients)
      before.push_back(client->received());
    start = threadCpuNs();
    for (std::size_t i = 0; i < blockFrames; ++i)
      frame(robot);
    withNs += threadCpuNs() - start;
    for (std::size_t c = 0; c < clients.size(); ++c)
      for (const std::string& name : perClient[c])
        clients[c]->call(robot, [&name](DebugClient& client) { return client.unsubscribe(name); });
    frames += blockFrames;

    // Every frame of the block reached the clients: nothing was dropped to look cheap.
    for (std::size_t c = 0; c < clients.size(); ++c)
    {
      const std::uint64_t expected = before[c] + blockFrames * perClient[c].size();
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
      while (clients[c]->received() < expected && std::chrono::steady_clock::now() < deadline)
        robot.debugServer()->poll(1); // sends what is still queued
      if (clients[c]->received() < expected)
        return state.SkipWithError(("client " + std::to_string(c) + " received " +
                                    std::to_string(clients[c]->received() - before[c]) + " samples of " +
                                    std::to_string(expected - before[c]))
                                       .c_str());
      if (clients[c]->dropped() != 0) return state.SkipWithError("the robot dropped samples");
    }
  }
  const double perFrame = (withNs - withoutNs) / static_cast<double>(std::max<std::uint64_t>(frames, 1));
  state.counters["subscriptions"] = static_cast<double>(representations.size());
  state.counters["frameWithout_ns"] = withoutNs / static_cast<double>(std::max<std::uint64_t>(frames, 1));
  state.counters["subscriptions_ns_per_frame"] = perFrame;
  state.counters["core_percent_at_83Hz"] = 100.0 * perFrame / framePeriodNs;
}

void BM_OneSubscriptionJointSensorData(benchmark::State& state)
{
  subscriptionCost(state, {"JointSensorData"});
}
BENCHMARK(BM_OneSubscriptionJointSensorData)->Unit(benchmark::kMillisecond);

void BM_TenSubscriptions(benchmark::State& state)
{
  // The stand-in scenario's log set and the motion source's request: what a GUI session typically watches.
  subscriptionCost(state,
                   {"FrameInfo", "JointSensorData", "JointRequest", "FsrSensorData", "InertialSensorData",
                    "BatteryData", "ModuleTimes", "RobotModel", "JointTorques", "MotionJointRequest"});
}
BENCHMARK(BM_TenSubscriptions)->Unit(benchmark::kMillisecond);
} // namespace

BENCHMARK_MAIN();
