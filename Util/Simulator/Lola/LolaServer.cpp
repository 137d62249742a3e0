#include "Util/Simulator/Lola/LolaServer.h"
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace nao
{
const char* describe(LolaAnswerStatus status)
{
  switch (status)
  {
  case LolaAnswerStatus::answered:
    return "answered";
  case LolaAnswerStatus::missing:
    return "missing";
  case LolaAnswerStatus::malformed:
    return "malformed";
  case LolaAnswerStatus::noClient:
    return "no client";
  case LolaAnswerStatus::disconnected:
    return "disconnected";
  }
  return "unknown";
}

namespace
{
/// Binds the abstract socket that says "a simulator serves this path"; throws when another one does.
UnixSocket lockInstance(const std::string& socketPath)
{
  std::error_code ignored;
  const std::filesystem::path path = std::filesystem::absolute(socketPath, ignored);
  const std::filesystem::path folder = std::filesystem::weakly_canonical(path.parent_path(), ignored);
  const std::string name = "nao-simulator-lola:" + (folder / path.filename()).string();
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const std::size_t length = std::min(name.size(), sizeof(address.sun_path) - 1);
  std::memcpy(address.sun_path + 1, name.data(), length); // sun_path[0] == 0: the abstract namespace
  UnixSocket lock(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  const auto size = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + length);
  if (lock.valid() && ::bind(lock.fd(), reinterpret_cast<const sockaddr*>(&address), size) != 0 &&
      errno == EADDRINUSE)
    throw std::runtime_error("LoLA socket path '" + socketPath +
                             "' is served by another running Simulator serve: not taking it over (its robot "
                             "would move to this one); choose another --socket");
  return lock;
}
} // namespace

LolaServer::LolaServer(LolaServerOptions options)
    : options_(std::move(options)), instanceLock_(lockInstance(options_.socketPath)),
      listener_(UnixSocket::listenAt(options_.socketPath))
{
}

LolaServer::~LolaServer()
{
  // Listener first: a client that sees its connection end and reconnects at once must not reach a listener
  // that is about to close.
  ::unlink(options_.socketPath.c_str());
  listener_.close();
  client_.close();
}

void LolaServer::acceptWaitingClients()
{
  while (true)
  {
    UnixSocket incoming = listener_.acceptPending();
    if (!incoming.valid()) return;
    if (client_.valid()) ++statistics_.clientsReplaced;
    client_ = std::move(incoming); // closes the previous client
    stream_.clear();
    ++statistics_.clientsAccepted;
  }
}

void LolaServer::loseClient(const char* why, int error)
{
  if (error != 0)
    describeSystemError(why, error, lastError_);
  else
    lastError_ = std::string_view(why);
  client_.close();
  stream_.clear();
  ++statistics_.clientsLost;
}

bool LolaServer::waitForClient(double timeoutSeconds)
{
  acceptWaitingClients();
  if (client_.valid()) return true;
  if (waitReadable(listener_.fd(), timeoutSeconds)) acceptWaitingClients();
  return client_.valid();
}

bool LolaServer::sendSensors(const LolaSensorFrame& frame)
{
  const std::size_t size = encodeSensorFrame(frame, frameBytes_);
  if (size != lolaSensorFrameBytes)
  {
    char message[160];
    std::snprintf(
        message, sizeof(message),
        "sensor frame encodes to %zu bytes, not %zu: Status must be 0..127 and the four RobotConfig strings "
        "must total 50 characters",
        size, lolaSensorFrameBytes);
    lastError_ = std::string_view(message);
    return false;
  }
  acceptWaitingClients();
  if (!client_.valid())
  {
    ++statistics_.framesWithoutClient;
    return false;
  }
  if (!writeAll(client_.fd(), std::span(frameBytes_.data(), size), options_.sendTimeoutSeconds))
  {
    const int error = errno;
    if (error == ETIMEDOUT)
      loseClient("LoLA client stalled: its socket stayed full", 0);
    else
      loseClient("LoLA send to client", error);
    return false;
  }
  ++statistics_.framesSent;
  return true;
}

void LolaServer::takeBufferedAnswers(std::uint64_t& valid, bool& malformed)
{
  while (true)
  {
    const LolaExtractResult result = stream_.extract(scratch_, &decodeActuatorFrame);
    if (result.status == LolaExtractStatus::needMore) return;
    if (result.status == LolaExtractStatus::malformed)
    {
      ++statistics_.malformedAnswers;
      lastError_ = result.decode.error;
      malformed = true;
      continue;
    }
    mergeActuatorFrame(scratch_, command_);
    ++statistics_.answers;
    ++valid;
  }
}

bool LolaServer::takeWaitingAnswers(std::uint64_t& valid, bool& malformed)
{
  LolaReadResult read;
  while ((read = stream_.readFrom(client_.fd(), false)) == LolaReadResult::data)
    takeBufferedAnswers(valid, malformed);
  if (read == LolaReadResult::wouldBlock) return true;
  loseClient(read == LolaReadResult::closed ? "LoLA client closed the connection"
                                            : "LoLA receive from client",
             read == LolaReadResult::closed ? 0 : errno);
  return false;
}

LolaAnswerStatus LolaServer::receiveAnswer(LolaAnswerMode mode)
{
  if (!client_.valid()) return LolaAnswerStatus::noClient;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(options_.answerTimeoutSeconds);
  std::uint64_t valid = 0;
  bool malformed = false;
  // Answers beyond the first for this frame belong to earlier frames: they came late.
  const auto answered = [&]
  {
    statistics_.lateAnswers += valid - 1;
    return LolaAnswerStatus::answered;
  };
  takeBufferedAnswers(valid, malformed);
  while (true)
  {
    if (!takeWaitingAnswers(valid, malformed))
    {
      if (valid) return answered();
      ++statistics_.missingAnswers;
      return LolaAnswerStatus::disconnected;
    }
    if (valid) return answered();
    if (malformed) return LolaAnswerStatus::malformed;
    const double remaining =
        std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
    if (mode == LolaAnswerMode::realTime || remaining <= 0 || !waitReadable(client_.fd(), remaining))
    {
      ++statistics_.missingAnswers;
      return LolaAnswerStatus::missing;
    }
  }
}

void LolaServer::drainAnswers(double quietSeconds)
{
  std::uint64_t valid = 0;
  bool malformed = false;
  takeBufferedAnswers(valid, malformed);
  // A client answers each frame at most once: with as many answers as frames sent, nothing more can come.
  while (client_.valid() && statistics_.answers < statistics_.framesSent)
  {
    if (!takeWaitingAnswers(valid, malformed) || !waitReadable(client_.fd(), quietSeconds))
      break; // the client left, or nothing more came
  }
  statistics_.lateAnswers += valid;
}
} // namespace nao
