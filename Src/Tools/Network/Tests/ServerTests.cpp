#include "ServerThread.h"
#include "Tools/Testing/AllocationCounter.h"

#include <cstring>
#include <gtest/gtest.h>
#include <thread>

namespace nao::network::test
{
namespace
{
std::vector<char> framed(std::uint16_t type, const std::vector<char>& payload)
{
  std::vector<char> bytes;
  encodeFrame(type, payload, bytes);
  return bytes;
}

std::vector<char> largePayload(std::size_t size)
{
  std::vector<char> payload(size);
  for (std::size_t i = 0; i < size; ++i)
    payload[i] = static_cast<char>((i * 131 + i / 251) & 0xFF);
  return payload;
}

std::vector<ServerEvent> framesOf(const std::vector<ServerEvent>& events, ConnectionId id)
{
  std::vector<ServerEvent> frames;
  for (const ServerEvent& event : events)
    if (event.kind == ServerEvent::Kind::Frame && event.id == id) frames.push_back(event);
  return frames;
}
} // namespace

TEST(FrameServer, FramesRoundTripWithSplitAndMergedWrites)
{
  ServerThread server;
  FrameClient client = connectClient(server.port());
  const ConnectionId id = server.waitForConnection(1);
  ASSERT_NE(id, 0u);

  // Three frames merged into one buffer, written in pieces that cut headers and payloads.
  const std::vector<std::vector<char>> payloads{{}, bytesOf("hello"), largePayload(300000)};
  std::vector<char> stream;
  for (const auto& payload : payloads)
    encodeFrame(echoType, payload, stream);
  for (std::size_t offset = 0, piece = 1; offset < stream.size(); offset += piece, piece = piece * 3 + 1)
  {
    piece = std::min(piece, stream.size() - offset);
    client.sendRaw(std::span<const char>(stream.data() + offset, piece));
    std::this_thread::sleep_for(std::chrono::milliseconds(1)); // lets pieces arrive as separate reads
  }
  // The largest frame the protocol allows goes both ways, split by TCP on the way.
  const std::vector<char> maximal = largePayload(maxFramePayloadBytes);
  client.sendFrame(echoType, maximal);

  std::vector<std::vector<char>> expected = payloads;
  expected.push_back(maximal);
  for (const auto& payload : expected)
  {
    const std::optional<Frame> answer = client.receiveFrame(patience);
    ASSERT_TRUE(answer.has_value());
    EXPECT_EQ(answer->messageType, echoType);
    EXPECT_EQ(answer->payload, payload);
  }
  const std::vector<ServerEvent> received = framesOf(server.events(), id);
  ASSERT_EQ(received.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i)
    EXPECT_EQ(received[i].payload, expected[i]) << "frame " << i;

  const ServerStats stats = server.stats();
  EXPECT_EQ(stats.framesReceived, expected.size());
  EXPECT_EQ(stats.framesDropped.total(), 0u);
  EXPECT_EQ(stats.bytesIn, stream.size() + frameHeaderBytes + maximal.size());
  EXPECT_EQ(stats.bytesOut, stats.bytesIn); // an echo returns every byte
}

TEST(FrameServer, ServerMergesSeveralFramesIntoOneRound)
{
  ServerThread server;
  FrameClient client = connectClient(server.port());
  const ConnectionId id = server.waitForConnection(1);
  // Queued in one round, so they leave merged in as few writes as the kernel allows.
  server.run(
      [id](FrameServer& frameServer)
      {
        for (char i = 0; i < 50; ++i)
          frameServer.send(id, 10, std::vector<char>(static_cast<std::size_t>(i), i));
      });
  for (char i = 0; i < 50; ++i)
  {
    const std::optional<Frame> frame = client.receiveFrame(patience);
    ASSERT_TRUE(frame.has_value());
    EXPECT_EQ(frame->messageType, 10);
    EXPECT_EQ(frame->payload, std::vector<char>(static_cast<std::size_t>(i), i));
  }
}

TEST(FrameServer, TruncatedFrameThenCloseIsCountedAndOthersAreServed)
{
  ServerThread server;
  FrameClient good = connectClient(server.port());
  FrameClient bad = connectClient(server.port());
  server.waitForConnection(1);
  const ConnectionId badId = server.waitForConnection(2);
  ASSERT_TRUE(echoWorks(good, "before"));

  const std::vector<char> frame = framed(echoType, largePayload(1000));
  bad.sendRaw(std::span<const char>(frame.data(), frameHeaderBytes + 400));
  bad.close();

  EXPECT_EQ(server.waitForDisconnect(badId), DisconnectReason::Truncated);
  EXPECT_EQ(server.stats().framesDropped.truncated, 1u);
  EXPECT_TRUE(framesOf(server.events(), badId).empty());
  EXPECT_TRUE(echoWorks(good, "after"));
}

TEST(FrameServer, WrongCrcIsDroppedAndTheConnectionKeepsWorking)
{
  ServerThread server;
  FrameClient good = connectClient(server.port());
  FrameClient sender = connectClient(server.port());
  server.waitForConnection(1);
  const ConnectionId senderId = server.waitForConnection(2);

  std::vector<char> damaged = framed(echoType, bytesOf("damaged payload"));
  damaged[frameHeaderBytes + 3] ^= 0x01;
  sender.sendRaw(damaged);
  EXPECT_TRUE(echoWorks(good, "meanwhile"));
  EXPECT_TRUE(echoWorks(sender, "next valid frame"));

  const ServerStats stats = server.stats();
  EXPECT_EQ(stats.framesDropped.crc, 1u);
  EXPECT_EQ(stats.framesDropped.total(), 1u);
  const std::optional<ConnectionStats> senderStats =
      server.run([senderId](FrameServer& frameServer) { return frameServer.connectionStats(senderId); });
  ASSERT_TRUE(senderStats.has_value());
  EXPECT_EQ(senderStats->framesDropped.crc, 1u);
  EXPECT_EQ(senderStats->framesReceived, 1u);
  const std::vector<ServerEvent> frames = framesOf(server.events(), senderId);
  ASSERT_EQ(frames.size(), 1u); // the damaged frame never reached the application
  EXPECT_EQ(frames[0].payload, bytesOf("next valid frame"));
}

TEST(FrameServer, OversizeLengthClosesWithoutALargeAllocation)
{
  ServerConfig config;
  config.maxPayloadBytes = 64u << 10;
  ServerThread server(config);
  FrameClient good = connectClient(server.port());
  FrameClient bad = connectClient(server.port());
  server.waitForConnection(1);
  const ConnectionId badId = server.waitForConnection(2);
  ASSERT_TRUE(echoWorks(good, "before"));

  const nao::test::ProcessAllocationCount allocations; // the server thread's included
  std::vector<char> header = framed(echoType, {});
  const std::uint32_t announced = 512u << 20; // 512 MiB
  for (int i = 0; i < 4; ++i)
    header[8 + i] = static_cast<char>((announced >> (8 * i)) & 0xFF);
  const std::vector<char> someOfThePayload = largePayload(20000);
  header.insert(header.end(), someOfThePayload.begin(), someOfThePayload.end());
  bad.sendRaw(header);

  EXPECT_EQ(server.waitForDisconnect(badId), DisconnectReason::Oversize);
  EXPECT_TRUE(serverClosed(bad));
  EXPECT_LT(allocations.largestBytes(), std::size_t{1} << 20);
  EXPECT_EQ(server.stats().framesDropped.oversize, 1u);
  EXPECT_TRUE(echoWorks(good, "after"));
}

TEST(FrameServer, WritingToAClosedConnectionThrowsInsteadOfRaisingSigpipe)
{
  ServerThread server;
  FrameClient client = connectClient(server.port());
  const ConnectionId id = server.waitForConnection(1);
  server.run([id](FrameServer& frameServer) { frameServer.disconnect(id); });
  EXPECT_EQ(server.waitForDisconnect(id), DisconnectReason::ClosedByServer);
  // The first writes may still be accepted by the kernel; once the reset arrives, send() fails with
  // EPIPE, which without MSG_NOSIGNAL would end this process.
  bool threw = false;
  for (int attempt = 0; attempt < 200 && !threw; ++attempt)
  {
    try
    {
      client.sendRaw(largePayload(1000));
    }
    catch (const ConnectionClosedError&)
    {
      threw = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_TRUE(threw);
  EXPECT_FALSE(client.connected());
}

TEST(FrameServer, BadMagicClosesTheConnectionAfterItsValidFrames)
{
  ServerThread server;
  FrameClient good = connectClient(server.port());
  FrameClient bad = connectClient(server.port());
  server.waitForConnection(1);
  const ConnectionId badId = server.waitForConnection(2);

  std::vector<char> stream = framed(echoType, bytesOf("valid first"));
  const std::string http = "GET /debug HTTP/1.1\r\nHost: nao\r\n\r\n";
  stream.insert(stream.end(), http.begin(), http.end());
  bad.sendRaw(stream);

  EXPECT_EQ(server.waitForDisconnect(badId), DisconnectReason::BadMagic);
  EXPECT_EQ(server.stats().framesDropped.badMagic, 1u);
  const std::vector<ServerEvent> frames = framesOf(server.events(), badId);
  ASSERT_EQ(frames.size(), 1u);
  EXPECT_EQ(frames[0].payload, bytesOf("valid first"));
  EXPECT_TRUE(echoWorks(good, "after"));
}

TEST(FrameServer, AWellBehavedClientIsAnsweredWhileOthersMisbehave)
{
  ServerConfig config;
  config.maxPayloadBytes = 64u << 10;
  ServerThread server(config);
  FrameClient good = connectClient(server.port());
  ASSERT_NE(server.waitForConnection(1), 0u);
  for (int round = 0; round < 5; ++round)
  {
    FrameClient truncating = connectClient(server.port());
    FrameClient damaging = connectClient(server.port());
    FrameClient oversize = connectClient(server.port());
    FrameClient desynced = connectClient(server.port());
    const std::vector<char> valid = framed(echoType, largePayload(5000));
    truncating.sendRaw(std::span<const char>(valid.data(), 2000));
    std::vector<char> damaged = valid;
    damaged[frameHeaderBytes + 10] ^= 0x40;
    damaging.sendRaw(damaged);
    std::vector<char> huge = framed(echoType, {});
    huge[11] = 0x7F;
    oversize.sendRaw(huge);
    desynced.sendRaw(std::vector<char>{'\x00', '\x01', 'x', 'y', 'z'});
    ASSERT_TRUE(echoWorks(good, "round " + std::to_string(round)));
    truncating.close();
    ASSERT_TRUE(echoWorks(damaging, "still here " + std::to_string(round)));
    ASSERT_TRUE(echoWorks(good, "after round " + std::to_string(round)));
  }
  ASSERT_TRUE(server.waitUntil(
      [](FrameServer& frameServer)
      {
        const DropCounters& dropped = frameServer.stats().framesDropped;
        return dropped.truncated == 5 && dropped.oversize == 5 && dropped.badMagic == 5;
      }));
  const ServerStats stats = server.stats();
  EXPECT_EQ(stats.framesDropped.crc, 5u);
  EXPECT_EQ(stats.connectionsAccepted, 21u);
}

TEST(FrameServer, SlowReaderLosesWholeFramesAndNeverStallsTheServer)
{
  ServerConfig config;
  config.maxOutputQueueBytes = 256u << 10;
  ServerThread server(config);
  FrameClient slow = connectClient(server.port());
  const ConnectionId slowId = server.waitForConnection(1);
  FrameClient good = connectClient(server.port());
  ASSERT_NE(server.waitForConnection(2), 0u);

  // The slow client reads nothing while the server sends; kernel buffers fill, then the queue.
  constexpr std::size_t frameBytes = 16u << 10;
  std::uint32_t attempted = 0;
  std::uint64_t drops = 0;
  while (drops < 20 && attempted < 8000)
  {
    drops = server.run(
        [&attempted, slowId](FrameServer& frameServer)
        {
          for (int i = 0; i < 4; ++i, ++attempted)
          {
            std::vector<char> payload(frameBytes, static_cast<char>(attempted & 0x7F));
            std::memcpy(payload.data(), &attempted, sizeof(attempted));
            frameServer.send(slowId, 20, payload);
          }
          return frameServer.stats().sendDrops;
        });
  }
  ASSERT_GE(drops, 20u);
  EXPECT_LE(server.run([slowId](FrameServer& frameServer) { return frameServer.queuedOutputBytes(slowId); }),
            config.maxOutputQueueBytes);
  EXPECT_TRUE(echoWorks(good, "not stalled by the slow reader"));

  // Every frame the slow client gets is intact and in order; the drops are whole frames.
  std::uint64_t received = 0;
  std::int64_t lastSequence = -1;
  bool gapSeen = false;
  const auto receiveOne = [&]() -> ::testing::AssertionResult
  {
    const std::optional<Frame> frame = slow.receiveFrame(patience);
    if (!frame || frame->payload.size() != frameBytes)
      return ::testing::AssertionFailure() << "missing or cut frame after " << received;
    std::uint32_t sequence = 0;
    std::memcpy(&sequence, frame->payload.data(), sizeof(sequence));
    if (static_cast<std::int64_t>(sequence) <= lastSequence ||
        frame->payload.back() != static_cast<char>(sequence & 0x7F))
      return ::testing::AssertionFailure() << "frame " << sequence << " out of order or damaged";
    gapSeen |= static_cast<std::int64_t>(sequence) > lastSequence + 1;
    lastSequence = sequence;
    ++received;
    return ::testing::AssertionSuccess();
  };
  // The reader catches up until the queue has room again; frames sent then arrive after a gap.
  const auto queueHasRoom = [slowId, &config](FrameServer& frameServer)
  {
    return frameServer.queuedOutputBytes(slowId) + frameHeaderBytes + frameBytes <=
           config.maxOutputQueueBytes;
  };
  while (!server.run(queueHasRoom))
  {
    ASSERT_LT(received + drops, attempted);
    ASSERT_TRUE(receiveOne());
  }
  const std::uint64_t dropsBefore = drops;
  drops = server.run(
      [&attempted, slowId](FrameServer& frameServer)
      {
        std::vector<char> payload(frameBytes, static_cast<char>(attempted & 0x7F));
        std::memcpy(payload.data(), &attempted, sizeof(attempted));
        frameServer.send(slowId, 20, payload);
        ++attempted;
        return frameServer.stats().sendDrops;
      });
  EXPECT_EQ(drops, dropsBefore);
  while (received + drops < attempted)
    ASSERT_TRUE(receiveOne());
  EXPECT_TRUE(gapSeen);
  EXPECT_EQ(lastSequence, attempted - 1);
  const std::optional<ConnectionStats> slowStats =
      server.run([slowId](FrameServer& frameServer) { return frameServer.connectionStats(slowId); });
  ASSERT_TRUE(slowStats.has_value());
  EXPECT_EQ(slowStats->sendDrops, drops);
  EXPECT_EQ(slowStats->framesSent, received);
}

TEST(FrameServer, OrderlyCloseIsReportedAsPeerClosed)
{
  ServerThread server;
  FrameClient client = connectClient(server.port());
  const ConnectionId id = server.waitForConnection(1);
  ASSERT_TRUE(echoWorks(client, "bye"));
  client.close();
  EXPECT_EQ(server.waitForDisconnect(id), DisconnectReason::PeerClosed);
  EXPECT_EQ(server.stats().framesDropped.total(), 0u);
  EXPECT_TRUE(server.run([](FrameServer& frameServer) { return frameServer.connectionIds().empty(); }));
}
} // namespace nao::network::test
