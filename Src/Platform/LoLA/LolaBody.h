#pragma once
// The robot binary's body on a NAO V6 and in the simulator: a LoLA client on a Unix stream socket. Same code
// path for both. It connects with retries, turns each sensor frame into the representations, answers every
// frame with Position and Stiffness from the JointRequest, and survives bad frames and lost connections.
// After the first frame nothing allocates: every buffer is a member.
#include "Platform/Body.h"
#include "Platform/LoLA/LolaProtocol.h"
#include "Platform/LoLA/LolaSensorConversion.h"
#include "Platform/LoLA/LolaStream.h"
#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace nao
{
struct LolaBodyOptions
{
  std::string socketPath = "/tmp/robocup"; ///< LoLA's socket on the robot; the simulator serves any path
  /// Tries of the first connection. B-Human's 10 x 10 ms is too short for a simulator that loads a model
  /// first.
  unsigned connectAttempts = 100;
  double connectIntervalSeconds = 0.05; ///< s between tries
  /// Tries after a lost connection before waitForSensors() gives up and returns false.
  unsigned reconnectAttempts = 100;
  double reconnectIntervalSeconds = 0.05; ///< s between tries
  double sendTimeoutSeconds = 0.1; ///< s an answer may wait for room in the socket before the link is dropped
  double frameSeconds = lolaFrameSeconds; ///< s of body time per packet
  /// A wall-clock gap between packets longer than this many frames counts as missed frames. Set
  /// countWallClockGaps false in lock-step simulation, where wall-clock time says nothing about packets.
  double missedFrameGapFactor = 1.5;
  bool countWallClockGaps = true;
  LolaConversionParameters conversion;
  /// When set and true, (re)connecting and waiting for a packet give up within 50 ms: Ctrl-C or SIGTERM while LoLA
  /// is gone or silent ends the body now instead of after the retries or at the next packet (lock-free, so a
  /// signal handler may set it).
  const std::atomic<bool>* giveUp = nullptr;
};

struct LolaBodyStatistics
{
  std::uint64_t packets = 0;       ///< sensor frames received, good and bad
  std::uint64_t decodeErrors = 0;  ///< frames dropped as malformed (previous values kept)
  std::uint64_t skippedFrames = 0; ///< good frames overtaken by a newer one already queued
  std::uint64_t connections = 0;   ///< successful connects, the first one included
  std::uint64_t answersSent = 0;   ///< actuator frames written
  std::uint64_t sendFailures = 0;  ///< answers that could not be written (the link is then reconnected)
  std::uint64_t invalidRequestValues = 0; ///< non-finite angles or stiffnesses replaced before sending
  /// sensor values that could not be read (not finite, a Status outside 0..3): each kept its last good value
  std::uint64_t unreadableValues = 0;
};

/// The robot binary's last line about LoLA (stdout, after a run), e.g. "LoLA: 5000 packets, 0 bad, 0 skipped,
/// 5000 answers sent, 0 send failures, 1 connections, 0 invalid request values, 0 unreadable values": the simulator
/// reads it back to
/// account for every frame on both ends.
std::string describeLolaStatistics(const LolaBodyStatistics& statistics);
/// The counts of a describeLolaStatistics() line; empty if `line` is not one.
std::optional<LolaBodyStatistics> parseLolaStatistics(std::string_view line);

class LolaBody : public Body
{
public:
  explicit LolaBody(LolaBodyOptions options = {});

  /// First connection with options.connectAttempts tries; waitForSensors() calls it if nobody did. False (and
  /// lastError()) if the server never accepted.
  bool connect();
  /// Blocks until the next sensor packet. A malformed packet is counted and the previous readings are filled
  /// again; a value that cannot be read keeps its last good value and is marked (UnreadableReadings); if newer packets are already queued, the newest wins. A lost connection is retried
  /// options.reconnectAttempts times; false when that fails (the motion thread then stops). False at once after
  /// the server closed the connection in order (closedByServer()).
  bool waitForSensors(BodySensors& sensors) override;
  /// Answers with Position and Stiffness from `request` (stiffness clamped to 0..1; a non-finite angle
  /// becomes the measured angle, a non-finite stiffness 0), LEDs off and both sonars on.
  void send(const JointRequest& request) override;
  const char* name() const override { return "LoLA"; }

  bool connected() const { return socket_.valid(); }
  const LolaBodyStatistics& statistics() const { return statistics_; }
  /// The last problem (connection, decode error, invalid value), empty if none.
  std::string_view lastError() const { return lastError_.view(); }
  /// The connection was lost and every reconnect attempt failed: the body has ended (lastError() says why).
  bool lost() const { return ended_ && !closedByServer_; }
  /// The server ended the connection in order: the end of the stream right after a complete frame, once frames
  /// had come on it (a simulator that finished its run, LoLA shutting down). The body has ended without
  /// reconnecting. An end in the middle of a frame, before any frame, or a socket error is a loss instead.
  bool closedByServer() const { return closedByServer_; }
  /// The last sensor frame that decoded (e.g. for RobotConfig).
  const LolaSensorFrame& lastFrame() const { return lastFrame_; }

private:
  bool connectWithRetries(unsigned attempts, double intervalSeconds);
  /// Decodes every complete frame buffered; counts packets and sets `good` when one passed all checks.
  /// The first connection, or a reconnection after a loss (retried); false, and the body ends, when it fails.
  bool connectOrEnd();
  /// Blocks until a packet is complete, reconnecting after a loss; false when the body ends.
  bool awaitPacket(std::uint32_t& packets, bool& good);
  /// The packets already queued behind it, without blocking; notes an orderly close or drops a lost connection.
  void takeQueuedPackets(std::uint32_t& packets, bool& good);
  void takeBufferedFrames(std::uint32_t& packets, bool& good);
  void dropConnection();
  /// After the peer closed the stream: an orderly close when it ended at a frame boundary after frames.
  bool endedAtFrameBoundary() const { return connectionPackets_ > 0 && stream_.buffered() == 0; }
  /// Ends the body after an orderly close by the server.
  void endClosedByServer();
  /// Until the socket has data (or hangs up); false once giveUp is set.
  bool waitReadable();
  void fillFrameInfo(std::uint32_t packets, FrameInfo& frameInfo);

  LolaBodyOptions options_;
  UnixSocket socket_;
  LolaStreamBuffer stream_;
  LolaSensorFrame scratch_;   ///< decode target; may be half-written by a bad frame
  LolaSensorFrame lastFrame_; ///< last good frame
  LolaBodyReadings readings_; ///< representations of the frames so far (each value its last good reading)
  bool haveReadings_ = false;
  LolaActuatorFrame answer_;
  std::array<std::uint8_t, lolaActuatorFrameMaxBytes> answerBytes_{};
  LolaBodyStatistics statistics_;
  FixedString<159> lastError_;
  bool ended_ = false;
  bool closedByServer_ = false;
  bool closePending_ = false;           ///< the orderly end was read after the frame just delivered
  std::uint64_t connectionPackets_ = 0; ///< packets on the current connection
  std::uint64_t missedFrames_ = 0;
  bool haveArrival_ = false;
  std::chrono::steady_clock::time_point lastArrival_;
};
} // namespace nao
