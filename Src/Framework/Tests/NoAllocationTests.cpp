// The motion thread allocates nothing after start-up: the body marks the thread that calls it, the allocation
// counter (Tools/Testing) counts that thread only, and 1,000 frames run with the log writing, a debug-channel
// subscriber attached, a live parameter edit and a live provider switch.
#include "Framework/Client/DebugClient.h"
#include "Framework/Robot.h"
#include "Platform/StandIn/StandInBody.h"
#include "Tools/Testing/AllocationCounter.h"
#include <filesystem>
#include <gtest/gtest.h>
#include <optional>
#include <thread>

namespace
{
/// The stand-in body, counting the allocations of the thread that calls it (the motion thread) from the first
/// frame on.
class MarkingBody : public nao::StandInBody
{
public:
  using StandInBody::StandInBody;
  bool waitForSensors(nao::BodySensors& sensors) override
  {
    if (!motionThreadAllocations) motionThreadAllocations.emplace();
    return StandInBody::waitForSensors(sensors);
  }
  std::optional<nao::test::ThreadAllocationCount> motionThreadAllocations;
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
  // Every stage in the thread: smart stiffness (on by default) named, so that the test keeps it whatever the
  // default, and the opt-in limb stiffness.
  options.providerOverrides = {{"StiffnessJointRequest", "SmartStiffnessProvider", {"test", 1, 1}},
                               {"SmartStiffness", "SmartStiffnessProvider", {"test", 1, 1}},
                               {"LimbStiffness", "LimbStiffnessProvider", {"test", 1, 1}}};
  nao::Robot robot(body, options);
  const std::uint16_t port = robot.debugServer()->port();

  std::thread robotThread([&] { robot.run(); });
  std::uint64_t samples = 0;
  {
    nao::DebugClient client("127.0.0.1", port);
    ASSERT_TRUE(client.subscribe("JointSensorData", 0).ok);
    ASSERT_TRUE(client.subscribe("ModuleTimes", 50).ok);
    ASSERT_TRUE(client.subscribe("LimbStiffness", 20).ok);
    for (int i = 0; i < 100; ++i)
      samples += client.nextData(std::chrono::seconds(2)).has_value();
    EXPECT_TRUE(client.setParameter("StandPoseProvider", "angles.HeadYaw", "10.0").ok);
    EXPECT_TRUE(client.setProvider("FilteredCurrent", "FilteredCurrentProvider").ok); // a module joins
    EXPECT_TRUE(client.setProvider("FilteredCurrent", "off").ok);                     // and leaves
    EXPECT_TRUE(client.setProvider("JointRequest", "off").ok);
    for (int i = 0; i < 50; ++i)
      samples += client.nextData(std::chrono::seconds(2)).has_value();
  }
  robotThread.join();

  EXPECT_EQ(robot.motion().frames(), 1000u);
  EXPECT_GE(samples, 150u);
  EXPECT_GT(robot.logger().status().framesWritten, 900u) << "the log kept up with a 3 ms frame";
  ASSERT_TRUE(body.motionThreadAllocations.has_value());
  EXPECT_EQ(body.motionThreadAllocations->allocations(), 0u) << "the motion thread allocated after start-up";
  std::filesystem::remove(log);
}
