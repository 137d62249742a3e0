#pragma once
// The simulator's side of LoLA: a Unix stream socket server that sends a sensor frame every simulated 12 ms
// and reads the client's answers, as the robot's LoLA does. One client at a time; a NEWER CONNECTION REPLACES
// the current client (the old one is closed and reads the end of the stream): the simulator cannot tell a
// hung client from a slow one, and a restarted robot binary must get control without waiting for the old
// connection to time out.
//
// Missing answers: the last command is kept (what real LoLA does is not documented, NaoFacts.md §8) and the
// miss is counted. A malformed answer is dropped and counted; the last command is kept and the simulation
// goes on.
// Answers carry no frame number: an answer that arrives after its frame's lock-step timeout is applied at the
// next frame.
#include "Platform/LoLA/LolaProtocol.h"
#include "Platform/LoLA/LolaStream.h"
#include <cstdint>
#include <string>

namespace nao
{
enum class LolaAnswerMode : std::uint8_t
{
  lockStep, ///< wait (up to answerTimeoutSeconds of wall time) for the client's answer to the frame just sent
  realTime, ///< take whatever arrived by now, never wait
};

enum class LolaAnswerStatus : std::uint8_t
{
  answered,     ///< at least one valid answer arrived and was applied to command()
  missing,      ///< nothing arrived in time: command() unchanged
  malformed,    ///< only malformed answers arrived: dropped, command() unchanged
  noClient,     ///< nobody connected
  disconnected, ///< the client went away while we waited (counted as a missing answer)
};
const char* describe(LolaAnswerStatus status);

struct LolaServerOptions
{
  std::string socketPath = "/tmp/robocup";
  double answerTimeoutSeconds = 1.0; ///< s of wall time a lock-step frame waits for the answer
  /// s a sensor frame waits for room in a client's socket; then it is dropped.
  double sendTimeoutSeconds = 1.0;
};

struct LolaServerStatistics
{
  std::uint64_t framesSent = 0;
  std::uint64_t framesWithoutClient = 0; ///< sendSensors() calls with nobody connected
  std::uint64_t answers = 0;             ///< valid answers applied
  std::uint64_t missingAnswers = 0;      ///< frames whose answer did not come (command kept)
  /// Answers that came after their frame had ended: each one beyond the first taken for a frame (answers carry no
  /// frame number, and one client answers each frame at most once), and every one drainAnswers() took.
  std::uint64_t lateAnswers = 0;
  std::uint64_t malformedAnswers = 0; ///< answers dropped as malformed
  std::uint64_t clientsAccepted = 0;
  std::uint64_t clientsReplaced = 0; ///< clients closed because a newer one connected
  std::uint64_t clientsLost = 0;     ///< clients that closed, failed or stalled
};

class LolaServer
{
public:
  /// Listens at options.socketPath (a stale socket file there is removed). Throws std::runtime_error if the
  /// path is unusable or another server is live on it.
  explicit LolaServer(LolaServerOptions options = {});
  ~LolaServer(); ///< closes the connections and removes the socket file
  LolaServer(const LolaServer&) = delete;
  LolaServer& operator=(const LolaServer&) = delete;

  /// Waits up to timeoutSeconds (< 0: no limit) for a client; true if one is connected.
  bool waitForClient(double timeoutSeconds);
  bool hasClient() const { return client_.valid(); }

  /// Sends one sensor frame to the client, accepting a waiting connection first. False if nobody got it (no
  /// client, client lost, or a frame that does not encode to exactly lolaSensorFrameBytes: see lastError()).
  bool sendSensors(const LolaSensorFrame& frame);
  /// Reads the client's answers; valid ones are merged into command() in arrival order (a partial map changes
  /// only its keys). Call once per sent frame.
  LolaAnswerStatus receiveAnswer(LolaAnswerMode mode);
  /// After the last frame: takes the answers still on their way (counted as answers and late answers) until every
  /// frame sent has one, none has come for quietSeconds of wall time, or the client left. Real time ends a run so
  /// that every answer the client sent is counted.
  void drainAnswers(double quietSeconds);

  /// The command in force: the merge of every valid answer so far. presentKeys 0 until the first answer.
  const LolaActuatorFrame& command() const { return command_; }
  const LolaServerStatistics& statistics() const { return statistics_; }
  std::string_view lastError() const { return lastError_.view(); }
  const std::string& socketPath() const { return options_.socketPath; }

private:
  void acceptWaitingClients();
  void loseClient(const char* why, int error);
  /// Applies every complete answer buffered; counts the valid ones in `valid`, sets `malformed` if it found such.
  void takeBufferedAnswers(std::uint64_t& valid, bool& malformed);
  /// Reads what the socket holds, without waiting, and takes the answers in it (takeBufferedAnswers); false when
  /// the client closed the connection or the read failed: the client is then lost.
  bool takeWaitingAnswers(std::uint64_t& valid, bool& malformed);

  LolaServerOptions options_;
  /// Held while serving: an abstract Unix socket named after the socket path's canonical form. A second server
  /// for the same path cannot bind it and stops before touching the path: connecting to the path to see whether
  /// it is served would make this server take the probe for its new client and lose the robot.
  UnixSocket instanceLock_;
  UnixSocket listener_;
  UnixSocket client_;
  LolaStreamBuffer stream_;
  LolaActuatorFrame scratch_;
  LolaActuatorFrame command_;
  std::array<std::uint8_t, lolaSensorFrameMaxBytes> frameBytes_{};
  LolaServerStatistics statistics_;
  FixedString<159> lastError_;
};
} // namespace nao
