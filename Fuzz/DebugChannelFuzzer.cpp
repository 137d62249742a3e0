// The debug channel from a hostile client: the byte stream is cut into frames by the server's FrameDecoder and
// each frame goes to the robot's DebugServer (list, subscribe, parameters, live edits, provider switches, logs)
// of a robot on the stand-in body. This thread also plays the motion thread, frame by frame: it runs a motion
// frame (every module) after a message that left commands for the motion thread (a subscription, a parameter
// or provider change, a tap to let go of), after every 32nd message while taps are live (subscriptions stream),
// and whenever the robot's code waits for the motion thread (Controller::setMotionWait: a log closing, a full
// command queue). So the hand-over (post, apply at the frame boundary, retire, service) runs as on the robot,
// the same way for the same input, without a frame after every message (35 inputs/s when it ran one after
// each, and slept in 5 ms steps while a log waited for a motion thread that was not running). Streaming frames
// were every 8th message until 2026-11: 84 % of all frames on the grown corpus (17,146 of 20,494), each running
// every module; 32 messages a frame is still far slower than a client's burst over a network. One robot serves
// every input, like a robot that meets many clients.
//
// Input: byte 0 chooses how the stream arrives: bit 0 set, the rest of the input is the raw byte stream (bad
// magic, CRCs, lengths); clear, the rest is a list of messages [type u8][length u16 LE][payload] that the harness
// frames with valid CRCs, so that mutations reach the commands. Bits 1..7 give the size of the pieces the
// stream is fed in (1..128 bytes: TCP splits and merges writes).
#include "Framework/DebugServer.h"
#include "Framework/Robot.h"
#include "FuzzSupport.h"
#include "Platform/StandIn/StandInBody.h"
#include "Tools/Network/Frame.h"
#include <cstdlib>
#include <limits>
#include <memory>

namespace nao
{
struct DebugServerFuzzAccess
{
  static void frame(DebugServer& server, network::ConnectionId client, std::uint16_t type,
                    std::span<const char> payload)
  {
    server.onFrame(client, type, payload);
  }
  static void disconnected(DebugServer& server, network::ConnectionId client)
  {
    server.onDisconnected(client);
  }
  static void stream(DebugServer& server) { server.streamSubscriptions(); }
};
} // namespace nao

namespace
{
struct Fixture
{
  Fixture()
  {
    nao::StandInBody::Options bodyOptions;
    bodyOptions.frames = std::numeric_limits<std::uint32_t>::max();
    body = std::make_unique<nao::StandInBody>(bodyOptions);
    logs = nao::fuzz::scratchFolder() / "Logs";
    std::filesystem::create_directories(logs);
    nao::RobotOptions options;
    options.config = {NAO_CONFIG_DIR, "Default"};
    options.scenario = "standin";
    nao::DebugSettings debug;
    debug.port = 0;
    debug.logDirectory = logs;
    options.debug = debug;
    // The smallest ring settings.toml allows (16 frames; the robot's 1024 made every log a client started cost
    // a 1024-frame allocation, a third of the harness's time): the same logger code, and a ring that fills.
    options.logBufferFrames = 16;
    robot = std::make_unique<nao::Robot>(*body, options);
    robot->controller().setMotionWait([this] { motionFrame(); });
  }

  void motionFrame()
  {
    if (!robot->motion().runFrame()) std::abort(); // the body never ends
  }

  /// What the motion thread and the debug thread's loop do between two messages.
  void runFrame()
  {
    motionFrame();
    nao::DebugServerFuzzAccess::stream(*robot->debugServer());
    robot->controller().service();
  }

  std::unique_ptr<nao::StandInBody> body;
  std::unique_ptr<nao::Robot> robot;
  std::filesystem::path logs;
};

constexpr nao::network::ConnectionId client = 1;
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  static nao::fuzz::ScratchCleanup cleanup;
  static Fixture& fixture = *new Fixture; // reachable until exit: never reported as a leak
  if (size == 0) return 0;
  const bool raw = data[0] & 1;
  const std::size_t piece = 1 + (data[0] >> 1);
  const std::span<const std::uint8_t> rest(data + 1, size - 1);

  const std::vector<char> stream = nao::fuzz::frameStream(raw, rest);

  nao::network::FrameDecoder decoder;
  std::size_t messages = 0;
  nao::DebugServer& server = *fixture.robot->debugServer();
  for (std::size_t at = 0; at < stream.size() && !decoder.failed(); at += piece)
  {
    decoder.feed(std::span<const char>(stream).subspan(at, std::min(piece, stream.size() - at)));
    for (nao::network::DecodeResult result = decoder.next();
         result.kind != nao::network::DecodeResult::Kind::NeedMoreData; result = decoder.next())
    {
      if (result.kind == nao::network::DecodeResult::Kind::Error)
      {
        if (nao::network::isFatal(result.error)) break;
        continue;
      }
      if (result.frame.payload.size() > decoder.maxPayloadBytes()) std::abort();
      nao::DebugServerFuzzAccess::frame(server, client, result.frame.messageType, result.frame.payload);
      const nao::Controller& controller = fixture.robot->controller();
      const bool streamingFrame = ++messages % 32 == 0;
      if (controller.unansweredCommands() > 0 || (streamingFrame && controller.liveTapCount() > 0))
        fixture.runFrame();
    }
  }
  if (!raw && !decoder.failed() && decoder.finish().kind != nao::network::DecodeResult::Kind::NeedMoreData)
    std::abort(); // whole frames, nothing left over

  // The client leaves: its subscriptions end, and a log it started is closed and removed.
  nao::DebugServerFuzzAccess::disconnected(server, client);
  if (fixture.robot->logger().status().active) fixture.robot->logger().stop(fixture.robot->controller());
  if (fixture.robot->controller().unansweredCommands() > 0)
    fixture.runFrame(); // lets go of the client's taps
  if (fixture.robot->controller().unansweredCommands() != 0 ||
      fixture.robot->controller().liveTapCount() != 0)
    std::abort(); // nothing of the client is left on either side
  std::error_code ignored;
  for (const auto& entry : std::filesystem::directory_iterator(fixture.logs, ignored))
    std::filesystem::remove_all(entry.path(), ignored);
  return 0;
}
