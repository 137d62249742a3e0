// The motion thread allocates nothing after start-up: global operator new/delete are replaced by counting
// versions that count only on the motion thread, and 1,000 frames run with the log writing, a debug-channel
// subscriber attached, a live parameter edit and a live provider switch.
#include "Framework/Robot.h"
#include "Platform/StandIn/StandInBody.h"
#include "Util/DebugClient/DebugClient.h"
#include <atomic>
#include <cstdlib>
#include <gtest/gtest.h>
#include <new>

namespace
{
thread_local bool countThisThread = false;
std::atomic<std::uint64_t> motionAllocations{0};

void* allocate(std::size_t size)
{
  if (countThisThread) motionAllocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
} // namespace

void* operator new(std::size_t size)
{
  return allocate(size);
}
void* operator new[](std::size_t size)
{
  return allocate(size);
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept
{
  if (countThisThread) motionAllocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(size ? size : 1);
}
void* operator new(std::size_t size, std::align_val_t alignment)
{
  if (countThisThread) motionAllocations.fetch_add(1, std::memory_order_relaxed);
  const std::size_t a = static_cast<std::size_t>(alignment);
  if (void* p = std::aligned_alloc(a, (size + a - 1) / a * a)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept
{
  std::free(p);
}
void operator delete[](void* p) noexcept
{
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept
{
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept
{
  std::free(p);
}
void operator delete(void* p, std::align_val_t) noexcept
{
  std::free(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept
{
  std::free(p);
}

namespace
{
/// The stand-in body, marking the thread that calls it as the motion thread.
class MarkingBody : public nao::StandInBody
{
public:
  using StandInBody::StandInBody;
  bool waitForSensors(nao::BodySensors& sensors) override
  {
    countThisThread = true;
    return StandInBody::waitForSensors(sensors);
  }
};
} // namespace

TEST(MotionThread, AllocatesNothingWithLoggingSubscriberAndLiveEdits)
{
  const auto log = std::filesystem::temp_directory_path() / "nao-noalloc-test.log";
  nao::StandInBody::Options bodyOptions;
  bodyOptions.frames = 1000;
  bodyOptions.realTime = true; // paced, so that the subscriber and edits happen while frames run
  bodyOptions.frameSeconds = 0.003;
  MarkingBody body(bodyOptions);
  nao::RobotOptions options;
  options.config = {NAO_CONFIG_DIR, "Default"};
  options.scenario = "standin";
  options.log = log;
  options.debug = nao::DebugSettings{"127.0.0.1", 0, ""};
  nao::Robot robot(body, options);
  const std::uint16_t port = robot.debugServer()->port();

  std::thread robotThread([&] { robot.run(); });
  std::uint64_t samples = 0;
  {
    nao::DebugClient client("127.0.0.1", port);
    ASSERT_TRUE(client.subscribe("JointSensorData", 0).ok);
    ASSERT_TRUE(client.subscribe("ModuleTimes", 50).ok);
    for (int i = 0; i < 100; ++i)
      samples += client.nextData(std::chrono::seconds(2)).has_value();
    EXPECT_TRUE(client.setParameter("StandPoseProvider", "angles.HeadYaw", "10.0").ok);
    EXPECT_TRUE(client.setProvider("MotionJointRequest", "off").ok);
    EXPECT_TRUE(client.setProvider("MotionJointRequest", "StandPoseProvider").ok);
    for (int i = 0; i < 50; ++i)
      samples += client.nextData(std::chrono::seconds(2)).has_value();
  }
  robotThread.join();

  EXPECT_EQ(robot.motion().frames(), 1000u);
  EXPECT_GE(samples, 150u);
  EXPECT_GT(robot.logger().status().framesWritten, 900u) << "the log kept up with a 3 ms frame";
  EXPECT_EQ(motionAllocations.load(), 0u) << "the motion thread allocated after start-up";
  std::filesystem::remove(log);
}
