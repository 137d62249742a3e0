// Figures for the debug channel: framing cost (CRC dominated) and the round trip of an echo over
// loopback TCP through FrameServer and FrameClient.
#include "Tools/Network/Client.h"
#include "Tools/Network/Server.h"

#include <atomic>
#include <benchmark/benchmark.h>
#include <thread>

namespace nao::network
{
namespace
{
void encodeDecode(benchmark::State& state)
{
  const std::vector<char> payload(static_cast<std::size_t>(state.range(0)), 'p');
  std::vector<char> stream;
  FrameDecoder decoder;
  for (auto _ : state)
  {
    stream.clear();
    encodeFrame(3, payload, stream);
    decoder.feed(stream);
    const DecodeResult result = decoder.next();
    benchmark::DoNotOptimize(result.frame.payload.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}
BENCHMARK(encodeDecode)->Arg(64)->Arg(1024)->Arg(64 << 10);

void echoRoundTrip(benchmark::State& state)
{
  std::unique_ptr<FrameServer> server;
  ServerCallbacks callbacks;
  callbacks.frame = [&server](ConnectionId id, std::uint16_t type, std::span<const char> payload)
  { server->send(id, type, payload); };
  server = std::make_unique<FrameServer>(ServerConfig{}, std::move(callbacks));
  std::atomic<bool> stop{false};
  std::thread serverThread(
      [&]
      {
        while (!stop)
          server->poll(20);
      });
  FrameClient client("127.0.0.1", server->port(), std::chrono::seconds(5));
  const std::vector<char> payload(static_cast<std::size_t>(state.range(0)), 'e');
  for (auto _ : state)
  {
    client.sendFrame(2, payload);
    const std::optional<Frame> answer = client.receiveFrame(std::chrono::seconds(5));
    if (!answer) state.SkipWithError("no echo");
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0) * 2);
  client.close();
  stop = true;
  server->wake();
  serverThread.join();
}
BENCHMARK(echoRoundTrip)->Arg(64)->Arg(64 << 10)->UseRealTime();
} // namespace
} // namespace nao::network

BENCHMARK_MAIN();
