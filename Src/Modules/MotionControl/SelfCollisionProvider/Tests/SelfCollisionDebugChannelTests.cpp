// NAOqi's setCollisionProtectionEnabled through the debug channel: a running robot (stand-in body, the default
// graph with the stage) takes a live edit of a protection group, and refuses a value that is not a boolean.
#include "Framework/Client/DebugClient.h"
#include "Framework/Robot.h"
#include "Platform/StandIn/StandInBody.h"

#include <gtest/gtest.h>
#include <thread>

TEST(SelfCollisionDebugChannel, ProtectionGroupsSwitchLive)
{
  nao::StandInBody::Options bodyOptions;
  bodyOptions.frames = 300;
  bodyOptions.realTime = true; // paced, so that the edits arrive while frames run
  bodyOptions.frameSeconds = 0.003;
  nao::StandInBody body(bodyOptions);
  nao::RobotOptions options;
  options.config = {NAO_CONFIG_DIR, "Default"};
  options.scenario = "standin";
  options.debug = nao::DebugSettings{"127.0.0.1", 0, ""};
  nao::Robot robot(body, options);
  const std::uint16_t port = robot.debugServer()->port();
  std::thread robotThread([&] { robot.run(); });
  {
    nao::DebugClient client("127.0.0.1", port);
    EXPECT_TRUE(client.setParameter("SelfCollisionProvider", "protection.LArm", "false").ok);
    EXPECT_TRUE(client.setParameter("SelfCollisionProvider", "protection.Arms", "false").ok);
    EXPECT_FALSE(client.setParameter("SelfCollisionProvider", "protection.Arms", "3").ok) << "not a boolean";
    EXPECT_FALSE(client.setParameter("SelfCollisionProvider", "protection.Tail", "true").ok)
        << "no such group";
    EXPECT_TRUE(client.setParameter("SelfCollisionProvider", "protection.Arms", "true").ok);
  }
  robotThread.join();
  EXPECT_EQ(robot.motion().frames(), 300u);
}
