#include "ServerThread.h"
#include "Tools/Network/Socket.h"

#include <gtest/gtest.h>

namespace nao::network::test
{
namespace
{
ServerConfig tokenConfig(const std::string& host = "127.0.0.1")
{
  ServerConfig config;
  config.host = host;
  config.token = "s3cret-token";
  config.helloMessageType = helloType;
  return config;
}

std::size_t connectedEvents(ServerThread& server)
{
  std::size_t count = 0;
  for (const ServerEvent& event : server.events())
    count += event.kind == ServerEvent::Kind::Connected ? 1 : 0;
  return count;
}

/// Connects, sends a first frame and an echo request, and reports whether the server closed the
/// connection without answering.
bool rejected(ServerThread& server, std::uint16_t type, const std::string& payload)
{
  FrameClient client = connectClient(server.port());
  try
  {
    client.sendFrame(type, bytesOf(payload));
    client.sendFrame(echoType, bytesOf("are you there?"));
    (void)client.receiveFrame(patience);
    return false; // answered, or left open for a long time
  }
  catch (const ConnectionClosedError&)
  {
    return true;
  }
}
} // namespace

TEST(FrameServerAuth, RightTokenIsAcceptedAndThenServed)
{
  ServerThread server(tokenConfig());
  FrameClient client = connectClient(server.port());
  client.sendFrame(helloType, bytesOf("s3cret-token"));
  const ConnectionId id = server.waitForConnection(1);
  ASSERT_NE(id, 0u);
  EXPECT_TRUE(echoWorks(client, "authenticated"));
  // The Hello is consumed by the server, not passed on as a frame.
  for (const ServerEvent& event : server.events())
    EXPECT_NE(event.messageType, helloType);
  EXPECT_EQ(server.stats().authRejected, 0u);
}

TEST(FrameServerAuth, WrongMissingOrMalformedHelloIsRejected)
{
  ServerThread server(tokenConfig());
  EXPECT_TRUE(rejected(server, helloType, "wrong-token!"));
  EXPECT_TRUE(rejected(server, helloType, "s3cret-toke"));   // a prefix
  EXPECT_TRUE(rejected(server, helloType, "s3cret-token!")); // longer than the token
  EXPECT_TRUE(rejected(server, helloType, ""));
  EXPECT_TRUE(rejected(server, echoType, "s3cret-token")); // right token, not a Hello
  EXPECT_EQ(server.stats().authRejected, 5u);
  EXPECT_EQ(connectedEvents(server), 0u);
  EXPECT_EQ(server.stats().framesReceived, 4u); // the over-long Hello is refused from its header
  EXPECT_EQ(server.stats().framesDropped.oversize, 1u);
  EXPECT_EQ(server.run([](FrameServer& frameServer) { return frameServer.connectionIds().size(); }), 0u);
}

TEST(FrameServerAuth, DamagedHelloIsRejected)
{
  ServerThread server(tokenConfig());
  FrameClient client = connectClient(server.port());
  std::vector<char> hello;
  encodeFrame(helloType, bytesOf("s3cret-token"), hello);
  hello.back() ^= 0x01;
  client.sendRaw(hello);
  EXPECT_TRUE(serverClosed(client));
  EXPECT_EQ(server.stats().authRejected, 1u);
  EXPECT_EQ(server.stats().framesDropped.crc, 1u);
}

TEST(FrameServerAuth, UnauthenticatedConnectionsGetNothingAndTimeOut)
{
  ServerConfig config = tokenConfig();
  config.authTimeoutMs = 300;
  ServerThread server(config);
  FrameClient silent = connectClient(server.port());
  ASSERT_TRUE(server.waitUntil([](FrameServer& frameServer)
                               { return frameServer.stats().connectionsAccepted == 1; }));
  EXPECT_EQ(
      server.run([](FrameServer& frameServer) { return frameServer.broadcast(30, bytesOf("secret data")); }),
      0u);
  EXPECT_TRUE(serverClosed(silent)); // closed by the timeout, having received no frame
  EXPECT_EQ(server.stats().authRejected, 1u);
  EXPECT_EQ(server.stats().bytesOut, 0u);
}

TEST(FrameServerAuth, NonLoopbackWithoutTokenIsRefusedNamingTheAddress)
{
  ServerConfig config;
  config.host = "0.0.0.0";
  try
  {
    FrameServer server(config, {});
    FAIL() << "bound 0.0.0.0 without a token";
  }
  catch (const std::runtime_error& error)
  {
    EXPECT_NE(std::string(error.what()).find("0.0.0.0"), std::string::npos) << error.what();
  }
  config.host = "192.0.2.1"; // refused before any bind is attempted, so the address need not exist here
  EXPECT_THROW({ FrameServer server(config, {}); }, std::runtime_error);
}

TEST(FrameServerAuth, NonLoopbackWithTokenBindsAndAuthenticates)
{
  ServerThread server(tokenConfig("0.0.0.0"));
  FrameClient client = connectClient(server.port());
  client.sendFrame(helloType, bytesOf("s3cret-token"));
  ASSERT_NE(server.waitForConnection(1), 0u);
  EXPECT_TRUE(echoWorks(client, "over any interface"));
}

TEST(FrameServerAuth, ARefusedClientIsToldWhyBeforeTheClose)
{
  constexpr std::uint16_t refusedType = 9;
  ServerConfig config = tokenConfig();
  config.refusedMessageType = refusedType;
  ServerThread server(config);
  auto reasonFor = [&](std::uint16_t type, const std::string& payload)
  {
    FrameClient client = connectClient(server.port());
    client.sendFrame(type, bytesOf(payload));
    const auto frame = client.receiveFrame(patience);
    if (!frame || frame->messageType != refusedType) return std::string("no refusal");
    EXPECT_TRUE(serverClosed(client)) << "the refusal is the last frame";
    return std::string(frame->payload.begin(), frame->payload.end());
  };
  EXPECT_EQ(reasonFor(helloType, "s3cret-tokex"), "wrong token");
  EXPECT_EQ(reasonFor(helloType, "a guess longer than the token"), "wrong token");
  EXPECT_EQ(reasonFor(echoType, "hi"), "a token is required: the first frame was not a Hello");
  EXPECT_EQ(connectedEvents(server), 0u);
}

TEST(SocketAddress, LoopbackClassification)
{
  const auto loopback = [](const std::string& host)
  { return detail::isLoopback(detail::resolveAddress(host, 0, true)); };
  EXPECT_TRUE(loopback("127.0.0.1"));
  EXPECT_TRUE(loopback("127.255.10.3"));
  EXPECT_TRUE(loopback("::1"));
  EXPECT_TRUE(loopback("::ffff:127.0.0.1"));
  EXPECT_FALSE(loopback("0.0.0.0"));
  EXPECT_FALSE(loopback("10.0.0.1"));
  EXPECT_FALSE(loopback("::"));
  EXPECT_FALSE(loopback("::ffff:10.0.0.1"));
  EXPECT_FALSE(loopback("128.0.0.1"));
}
} // namespace nao::network::test
