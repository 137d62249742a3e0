// The debug channel end to end: a robot process with the stand-in body, real TCP clients.
#include "Framework/Client/DebugClient.h"
#include "Framework/Robot.h"
#include "Platform/StandIn/StandInBody.h"
#include "Tools/Network/Client.h"
#include "Tools/Network/Frame.h"
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

using namespace nao;
using ::testing::HasSubstr;

namespace
{
struct RunningRobot
{
  explicit RunningRobot(DebugSettings debug)
  {
    StandInBody::Options bodyOptions;
    bodyOptions.frames = 100000; // ends when the test stops it
    bodyOptions.realTime = true;
    bodyOptions.frameSeconds = 0.004;
    body = std::make_unique<StandInBody>(bodyOptions);
    RobotOptions options;
    options.config = {NAO_CONFIG_DIR, "Default"};
    options.scenario = "standin";
    options.debug = debug;
    robot = std::make_unique<Robot>(*body, options);
    thread = std::thread([this] { robot->run(); });
  }
  ~RunningRobot()
  {
    robot->stop();
    if (thread.joinable()) thread.join();
  }
  std::uint16_t port() { return robot->debugServer()->port(); }

  std::unique_ptr<StandInBody> body;
  std::unique_ptr<Robot> robot;
  std::thread thread;
};

template<class T>
T decode(const debug::Data& data)
{
  T value;
  binaryio::deserialize(data.payload, value);
  return value;
}
} // namespace

TEST(DebugChannel, ListNamesProvidersFieldsAndModules)
{
  RunningRobot robot({"127.0.0.1", 0, ""});
  DebugClient client("127.0.0.1", robot.port());
  const auto list = client.list();
  EXPECT_EQ(list.scenario, "standin");
  EXPECT_THAT(list.plan, HasSubstr("StandPoseProvider -> MotionJointRequest"));
  EXPECT_THAT(list.plan, HasSubstr("PassThrough(JointRequest) -> JointRequest"));
  bool sawRequest = false;
  for (const auto& representation : list.representations)
    if (representation.name == "JointRequest")
    {
      sawRequest = true;
      EXPECT_EQ(representation.provider, "off (pass-through from StiffnessJointRequest)");
      ASSERT_EQ(representation.fields.size(), 50u);
      EXPECT_EQ(representation.fields[10].path, "angles.LKneePitch");
      EXPECT_EQ(representation.fields[10].type, "float");
      EXPECT_EQ(representation.fields[10].unit, "rad") << "units come with the field list";
      EXPECT_EQ(representation.fields[35].unit, "") << "stiffness is a dimensionless fraction";
    }
  EXPECT_TRUE(sawRequest);
  bool sawModule = false;
  for (const auto& module : list.modules)
    if (module.name == "StandPoseProvider")
    {
      sawModule = true;
      EXPECT_TRUE(module.active);
      EXPECT_EQ(module.provides, std::vector<std::string>{"MotionJointRequest"});
      ASSERT_FALSE(module.parameters.empty());
      EXPECT_EQ(module.parameters.front().unit, "deg");
    }
  EXPECT_TRUE(sawModule);
}

// The list reply is serialized once per plan: a provider switch must show in the next list.
TEST(DebugChannel, ListFollowsAProviderSwitch)
{
  RunningRobot robot({"127.0.0.1", 0, ""});
  DebugClient client("127.0.0.1", robot.port());
  auto providerOf = [&](const std::string& name)
  {
    for (const auto& representation : client.list().representations)
      if (representation.name == name) return representation.provider;
    return std::string("(not listed)");
  };
  const std::string before = providerOf("StiffnessJointRequest");
  ASSERT_EQ(before, "SmartStiffnessProvider");
  const std::string planBefore = client.list().plan;
  auto reply = client.setProvider("StiffnessJointRequest", "off");
  ASSERT_TRUE(reply.ok) << reply.message;
  EXPECT_THAT(providerOf("StiffnessJointRequest"), ::testing::StartsWith("off"));
  EXPECT_NE(client.list().plan, planBefore);
  reply = client.setProvider("StiffnessJointRequest", "SmartStiffnessProvider");
  ASSERT_TRUE(reply.ok) << reply.message;
  EXPECT_EQ(providerOf("StiffnessJointRequest"), "SmartStiffnessProvider");
  EXPECT_EQ(client.list().plan, planBefore);
}

TEST(DebugChannel, SubscribeSetAndSwitchProvider)
{
  RunningRobot robot({"127.0.0.1", 0, ""});
  DebugClient client("127.0.0.1", robot.port());
  ASSERT_TRUE(client.subscribe("JointRequest", 0).ok);
  auto sample = client.nextData(std::chrono::seconds(2));
  ASSERT_TRUE(sample);
  EXPECT_EQ(sample->representation, "JointRequest");
  const std::uint32_t firstFrame = sample->frameNumber;
  sample = client.nextData(std::chrono::seconds(2));
  ASSERT_TRUE(sample);
  EXPECT_EQ(sample->frameNumber, firstFrame + 1) << "rate 0 streams every frame";

  // Valid edit: the stiffness of the knee changes in the stream within a few frames.
  auto reply = client.setParameter("StandPoseProvider", "stiffnesses.LKneePitch", "0.5");
  ASSERT_TRUE(reply.ok) << reply.message;
  EXPECT_EQ(reply.message, "StandPoseProvider.stiffnesses.LKneePitch = 0.5") << "dimensionless: no unit";
  // The reply names the unit the value was taken in: the file's (ms here, s in the code).
  reply = client.setParameter("StandPoseProvider", "transitionTime", "1000");
  EXPECT_EQ(reply.message, "StandPoseProvider.transitionTime [ms] = 1000");
  bool changed = false;
  for (int i = 0; i < 50 && !changed; ++i)
    if (auto data = client.nextData(std::chrono::seconds(2)))
      changed = decode<JointRequest>(*data).stiffnesses[Joint::LKneePitch] == 0.5f;
  EXPECT_TRUE(changed);

  // Invalid edits are refused with the reason, and the old value stays.
  reply = client.setParameter("StandPoseProvider", "stiffnesses.LKneePitch", "1.5");
  EXPECT_FALSE(reply.ok);
  EXPECT_THAT(reply.message, HasSubstr("old value kept"));
  EXPECT_THAT(reply.message, HasSubstr("stiffnesses.LKneePitch"));
  EXPECT_THAT(reply.message, HasSubstr("debug channel: set StandPoseProvider stiffnesses.LKneePitch 1.5: key "
                                       "'stiffnesses.LKneePitch': expected value in [0, 1]"));
  EXPECT_THAT(reply.message, ::testing::Not(HasSubstr("<edit>")));
  reply = client.setParameter("StandPoseProvider", "noSuchKey", "1");
  EXPECT_FALSE(reply.ok);
  EXPECT_THAT(client.parameters("StandPoseProvider").toml, HasSubstr("LKneePitch = 0.5"));

  // Motion source off would send the default request (stiffness 0) and drop a standing robot: refused, and the
  // stream goes on with the motion source's stiffness. A stage set off passes its input through: accepted.
  reply = client.setProvider("MotionJointRequest", "off");
  EXPECT_FALSE(reply.ok);
  EXPECT_THAT(reply.message, HasSubstr("would collapse"));
  for (int i = 0; i < 10; ++i)
  {
    auto data = client.nextData(std::chrono::seconds(2));
    ASSERT_TRUE(data);
    EXPECT_EQ(decode<JointRequest>(*data).stiffnesses[Joint::LKneePitch], 0.5f);
  }
  reply = client.setProvider("JointRequest", "off");
  EXPECT_TRUE(reply.ok) << reply.message;
  for (int i = 0; i < 10; ++i)
  {
    auto data = client.nextData(std::chrono::seconds(2));
    ASSERT_TRUE(data);
    EXPECT_EQ(decode<JointRequest>(*data).stiffnesses[Joint::LKneePitch], 0.5f);
  }
  reply = client.setProvider("MotionJointRequest", "NoSuchModule");
  EXPECT_FALSE(reply.ok);
  EXPECT_THAT(reply.message, HasSubstr("not a module"));
  // It says where the choice came from, without a made-up file position.
  EXPECT_EQ(reply.message.rfind("debug channel: provider 'NoSuchModule' of 'MotionJointRequest'", 0), 0u)
      << reply.message;
  EXPECT_THAT(reply.message, ::testing::Not(HasSubstr(":1:1")));
}

TEST(DebugChannel, TokenIsRequiredWhenConfigured)
{
  RunningRobot robot({"127.0.0.1", 0, "secret"});
  // Refused clients are told why before the connection closes, not left with "connection closed".
  auto refusal = [&](const std::string& token)
  {
    DebugClient client("127.0.0.1", robot.port(), token, std::chrono::milliseconds(2000));
    try
    {
      client.list();
    }
    catch (const std::exception& error)
    {
      return std::string(error.what());
    }
    return std::string("accepted");
  };
  EXPECT_THAT(refusal("guess"), HasSubstr("the robot refused the connection: wrong token"));
  EXPECT_THAT(refusal("a much longer guess than the token"),
              HasSubstr("refused the connection: wrong token"));
  EXPECT_THAT(refusal(""), HasSubstr("refused the connection: a token is required"));
  DebugClient right("127.0.0.1", robot.port(), "secret");
  EXPECT_EQ(right.list().scenario, "standin");
  EXPECT_GE(robot.robot->debugServer()->networkStats().authRejected, 2u);
}

TEST(DebugChannel, NonLoopbackWithoutTokenDoesNotStart)
{
  StandInBody body({});
  RobotOptions options;
  options.config = {NAO_CONFIG_DIR, "Default"};
  options.scenario = "standin";
  options.debug = DebugSettings{"0.0.0.0", 0, ""};
  try
  {
    Robot robot(body, options);
    FAIL() << "expected a start-up error";
  }
  catch (const StartupError& error)
  {
    EXPECT_THAT(error.what(), HasSubstr("0.0.0.0"));
  }
}

TEST(DebugChannel, BadFramesAreDroppedAndCountedWhileOthersAreServed)
{
  RunningRobot robot({"127.0.0.1", 0, ""});
  DebugClient good("127.0.0.1", robot.port());
  const auto& stats = robot.robot->debugServer()->networkStats();
  const auto timeout = std::chrono::seconds(2);

  {
    // Wrong CRC: dropped, the connection survives.
    network::FrameClient bad("127.0.0.1", robot.port(), timeout);
    std::vector<char> frame;
    network::encodeFrame(static_cast<std::uint16_t>(debug::MessageType::listRequest), {}, frame);
    std::vector<char> damaged = frame;
    damaged[12] ^= 0x5a; // a CRC byte
    bad.sendRaw(damaged);
    bad.sendRaw(frame);
    auto answer = bad.receiveFrame(timeout);
    ASSERT_TRUE(answer);
    EXPECT_EQ(answer->messageType, static_cast<std::uint16_t>(debug::MessageType::listReply));
  }
  EXPECT_EQ(good.list().scenario, "standin");
  {
    // Oversize length: the connection is closed, nothing is allocated for it.
    network::FrameClient bad("127.0.0.1", robot.port(), timeout);
    char header[16] = {};
    const std::uint32_t magic = network::frameMagic, length = 0x7fffffff;
    std::memcpy(header, &magic, 4);
    header[4] = 2;
    std::memcpy(header + 8, &length, 4);
    bad.sendRaw(header);
    EXPECT_THROW(bad.receiveFrame(timeout), network::ConnectionClosedError);
  }
  EXPECT_EQ(good.list().scenario, "standin");
  {
    // Truncated: half a frame, then the client goes away.
    network::FrameClient bad("127.0.0.1", robot.port(), timeout);
    std::vector<char> frame;
    network::encodeFrame(static_cast<std::uint16_t>(debug::MessageType::setProvider),
                         std::vector<char>(100, 'x'), frame);
    bad.sendRaw(std::span(frame).first(40));
  }
  {
    // A valid frame whose payload is not the message it claims: answered with an error, counted.
    network::FrameClient bad("127.0.0.1", robot.port(), timeout);
    std::vector<char> frame;
    network::encodeFrame(static_cast<std::uint16_t>(debug::MessageType::setParameter),
                         std::vector<char>(7, '\xff'), frame);
    bad.sendRaw(frame);
    auto answer = bad.receiveFrame(timeout);
    ASSERT_TRUE(answer);
    const auto reply = binaryio::deserialize<debug::Reply>(answer->payload);
    EXPECT_FALSE(reply.ok);
    EXPECT_THAT(reply.message, HasSubstr("bad message"));
  }
  EXPECT_EQ(good.list().scenario, "standin");
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_GE(stats.framesDropped.crc, 1u);
  EXPECT_GE(stats.framesDropped.oversize, 1u);
  EXPECT_GE(stats.framesDropped.truncated, 1u);
  EXPECT_GE(robot.robot->debugServer()->badMessages(), 1u);
}

TEST(DebugChannel, LogStartAndStop)
{
  const auto folder =
      std::filesystem::temp_directory_path() / ("nao-debug-logs-" + std::to_string(::getpid()));
  std::filesystem::remove_all(folder);
  RunningRobot robot({"127.0.0.1", 0, "", folder});
  DebugClient client("127.0.0.1", robot.port());
  auto reply = client.startLog("run.log");
  ASSERT_TRUE(reply.ok) << reply.message;
  EXPECT_THAT(reply.message, HasSubstr((folder / "run.log").string()));
  EXPECT_FALSE(client.startLog("other.log").ok) << "one log at a time";
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  reply = client.stopLog();
  ASSERT_TRUE(reply.ok) << reply.message;
  EXPECT_THAT(reply.message, HasSubstr("frames"));
  EXPECT_FALSE(client.stopLog().ok) << "nothing to stop";
  const auto size = std::filesystem::file_size(folder / "run.log");
  EXPECT_GT(size, 1000u);

  // Never over an existing file, never outside the folder: the robot's files stay as they are.
  reply = client.startLog("run.log");
  EXPECT_FALSE(reply.ok);
  EXPECT_THAT(reply.message, HasSubstr("exists; logs are never overwritten"));
  EXPECT_EQ(std::filesystem::file_size(folder / "run.log"), size);
  const auto outside = folder.parent_path() / ("nao-debug-outside-" + std::to_string(::getpid()));
  std::ofstream(outside) << "a file of the robot";
  for (const std::string& name :
       {outside.string(), "../" + outside.filename().string(), std::string("a/../../x.log")})
  {
    reply = client.startLog(name);
    EXPECT_FALSE(reply.ok) << name;
    EXPECT_THAT(reply.message, HasSubstr("log directory")) << name;
  }
  std::filesystem::create_directory_symlink(folder.parent_path(), folder / "up");
  reply = client.startLog("up/" + outside.filename().string() + ".log");
  EXPECT_FALSE(reply.ok) << "a link inside the folder leads out of it";
  EXPECT_EQ(std::filesystem::file_size(outside), std::string("a file of the robot").size());
  std::filesystem::remove(outside);

  reply = client.startLog("");
  ASSERT_TRUE(reply.ok) << reply.message;
  EXPECT_THAT(reply.message, HasSubstr((folder / "standin-").string()))
      << "named after the scenario and time";
  ASSERT_TRUE(client.stopLog().ok);
  std::filesystem::remove_all(folder);
}

namespace
{
/// Resident memory of this process, in bytes (Linux).
std::size_t residentBytes()
{
  std::ifstream statm("/proc/self/statm");
  std::size_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
}
} // namespace

TEST(DebugChannel, SubscriptionChurnLeavesNothingBehind)
{
  RunningRobot robot({"127.0.0.1", 0, ""});
  const auto churn = [&](int cycles)
  {
    DebugClient client("127.0.0.1", robot.port());
    for (int i = 0; i < cycles; ++i)
    {
      ASSERT_TRUE(client.subscribe(i % 2 ? "JointRequest" : "JointSensorData", 0).ok);
      ASSERT_TRUE(client.unsubscribe(i % 2 ? "JointRequest" : "JointSensorData").ok);
    }
  };
  churn(500); // warm-up: buffers of the first subscriptions
  const std::size_t before = residentBytes();
  for (int round = 0; round < 4; ++round)
    churn(1000);
  {
    DebugClient leaver("127.0.0.1", robot.port()); // a client that leaves with subscriptions open
    ASSERT_TRUE(leaver.subscribe("JointRequest", 0).ok);
    ASSERT_TRUE(leaver.subscribe("ModuleTimes", 0).ok);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300)); // the server notices the leaver
  robot.robot->stop();
  robot.thread.join();
  EXPECT_EQ(robot.robot->controller().liveTapCount(), 0u) << "every subscription's tap was retired and freed";
  EXPECT_EQ(robot.robot->motion().retireDrops(), 0u);
  EXPECT_LT(residentBytes(), before + (16u << 20)) << "4000 subscribe/unsubscribe cycles grew memory";
}

TEST(DebugChannel, SubscriptionsAreBoundedPerClientAndInTotal)
{
  RunningRobot robot({"127.0.0.1", 0, ""});
  std::vector<std::string> names;
  std::vector<std::unique_ptr<DebugClient>> clients;
  clients.push_back(std::make_unique<DebugClient>("127.0.0.1", robot.port()));
  for (const auto& representation : clients.front()->list().representations)
    names.push_back(representation.name);
  ASSERT_GT(names.size(), DebugServer::maxSubscriptionsPerClient);
  for (std::size_t i = 0; i < DebugServer::maxSubscriptionsPerClient; ++i)
    ASSERT_TRUE(clients.front()->subscribe(names[i], 1).ok) << names[i];
  auto reply = clients.front()->subscribe(names[DebugServer::maxSubscriptionsPerClient], 1);
  EXPECT_FALSE(reply.ok);
  EXPECT_THAT(reply.message,
              HasSubstr("a client may hold " + std::to_string(DebugServer::maxSubscriptionsPerClient) +
                        " subscriptions"));
  EXPECT_TRUE(clients.front()->subscribe(names[0], 2).ok) << "a new rate replaces a subscription";

  // Other clients fill the rest; the last tap stays free for a log.
  std::size_t granted = DebugServer::maxSubscriptionsPerClient;
  while (granted < DebugServer::maxSubscriptions)
  {
    clients.push_back(std::make_unique<DebugClient>("127.0.0.1", robot.port()));
    for (std::size_t i = 0;
         i < DebugServer::maxSubscriptionsPerClient && granted < DebugServer::maxSubscriptions;
         ++i, ++granted)
      ASSERT_TRUE(clients.back()->subscribe(names[i], 1).ok);
  }
  clients.push_back(std::make_unique<DebugClient>("127.0.0.1", robot.port()));
  reply = clients.back()->subscribe(names[0], 1);
  EXPECT_FALSE(reply.ok);
  EXPECT_THAT(reply.message, HasSubstr("serves 31 subscriptions at once"));

  // A client that leaves frees its share at once.
  clients.front().reset();
  bool freed = false;
  for (int i = 0; i < 100 && !freed; ++i)
  {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    freed = clients.back()->subscribe(names[0], 1).ok;
  }
  EXPECT_TRUE(freed);
}
