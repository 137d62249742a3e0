// The server's connection slots against peers that hold them: a full server refuses newcomers, idle peers make
// room or time out, and peers that never prove themselves cannot starve a client with the token.
#include "ServerThread.h"

#include <atomic>
#include <gtest/gtest.h>
#include <thread>

namespace nao::network::test
{
TEST(FrameServer, ConnectionsBeyondTheLimitAreRefused)
{
  ServerConfig config;
  config.maxConnections = 2;
  ServerThread server(config);
  FrameClient first = connectClient(server.port());
  FrameClient second = connectClient(server.port());
  ASSERT_NE(server.waitForConnection(2), 0u);
  FrameClient third = connectClient(server.port()); // the kernel accepts; the server closes at once
  EXPECT_TRUE(serverClosed(third));
  EXPECT_EQ(server.stats().connectionsRejected, 1u);
  EXPECT_TRUE(echoWorks(first, "one"));
  EXPECT_TRUE(echoWorks(second, "two"));
}

TEST(FrameServer, IdleConnectionsDoNotLockEveryoneOut)
{
  ServerConfig config;
  config.maxConnections = 3;
  config.idleEvictMs = 200;
  ServerThread server(config);
  std::vector<FrameClient> idle;
  for (int i = 0; i < 3; ++i)
    idle.push_back(connectClient(server.port()));
  ASSERT_NE(server.waitForConnection(3), 0u);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  FrameClient newcomer = connectClient(server.port());
  EXPECT_TRUE(echoWorks(newcomer, "served")) << "an idle connection made room";
  EXPECT_EQ(server.stats().connectionsEvicted, 1u);
  EXPECT_EQ(server.stats().connectionsRejected, 0u);
}

TEST(FrameServer, IdleConnectionsAreClosedAfterTheIdleTimeout)
{
  ServerConfig config;
  config.idleTimeoutMs = 200;
  ServerThread server(config);
  FrameClient silent = connectClient(server.port());
  FrameClient talking = connectClient(server.port());
  const ConnectionId silentId = server.waitForConnection(1);
  ASSERT_NE(server.waitForConnection(2), 0u);
  for (int i = 0; i < 6; ++i)
  {
    std::this_thread::sleep_for(std::chrono::milliseconds(60));
    ASSERT_TRUE(echoWorks(talking, "still here")) << "a connection that talks stays";
  }
  EXPECT_EQ(server.waitForDisconnect(silentId), DisconnectReason::Idle);
  EXPECT_TRUE(serverClosed(silent));
}

TEST(FrameServer, AReconnectFloodCannotStarveTheTokenHolder)
{
  ServerConfig config;
  config.token = "secret";
  config.maxConnections = 4;
  ServerThread server(config);
  std::vector<FrameClient> squatters; // every slot taken by a peer that never says hello
  for (int i = 0; i < 4; ++i)
    squatters.push_back(connectClient(server.port()));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  std::atomic<bool> flooding = true;
  std::thread flood(
      [&]
      {
        std::vector<FrameClient> pending;
        while (flooding)
        {
          try
          {
            pending.push_back(connectClient(server.port())); // never says hello
          }
          catch (const std::exception&)
          {
          }
          if (pending.size() > 16) pending.erase(pending.begin());
          std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
      });
  int served = 0;
  for (int request = 0; request < 20; ++request)
  {
    try
    {
      FrameClient holder = connectClient(server.port());
      holder.sendFrame(config.helloMessageType, std::span(config.token.data(), config.token.size()));
      served += echoWorks(holder, "mine");
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    catch (const std::exception&)
    {
    }
  }
  flooding = false;
  flood.join();
  EXPECT_EQ(served, 20) << "unproven connections give way to the token holder";
  EXPECT_GT(server.stats().connectionsEvicted, 0u) << "the flood did fill the slots";
}
} // namespace nao::network::test
