#include "Tools/Network/Server.h"

#include "Tools/Network/ServerConnection.h"

#include <algorithm>
#include <cerrno>
#include <stdexcept>
#include <sys/socket.h>
#include <unistd.h>

namespace nao::network
{
namespace
{
constexpr std::size_t readChunkBytes = 64u << 10;
constexpr int listenBacklog = 16;
/// Accepting is bounded per round so that a connection flood cannot starve the open connections.
constexpr int maxAcceptsPerRound = 32;

bool wouldBlock(int error)
{
  return error == EAGAIN || error == EWOULDBLOCK;
}

} // namespace

FrameServer::FrameServer(ServerConfig config, ServerCallbacks callbacks)
    : config_(std::move(config)), callbacks_(std::move(callbacks)), readBuffer_(readChunkBytes)
{
  if (config_.maxPayloadBytes > maxFramePayloadBytes)
    throw std::invalid_argument("FrameServer: maxPayloadBytes " + std::to_string(config_.maxPayloadBytes) +
                                " exceeds the protocol limit of " + std::to_string(maxFramePayloadBytes));
  if (config_.token.size() > config_.maxPayloadBytes)
    throw std::invalid_argument("FrameServer: the token is longer than maxPayloadBytes");

  const std::optional<detail::SocketAddress> numeric = detail::numericAddress(config_.host, config_.port);
  if (!numeric)
    throw std::runtime_error("FrameServer: '" + config_.host + "' is not a numeric IPv4 or IPv6 address, " +
                             "'localhost' or empty (all interfaces); the server looks up no host names");
  const detail::SocketAddress& address = *numeric;
  const std::string where = "'" + config_.host + "' (" + detail::toString(address) + ")";
  if (!detail::isLoopback(address) && config_.token.empty())
    throw std::runtime_error("FrameServer: refusing to bind the debug server to non-loopback address " +
                             where + " without a token");

  listenSocket_.reset(::socket(address.storage.ss_family, SOCK_STREAM, 0));
  if (!listenSocket_.valid())
    throw std::runtime_error(detail::systemErrorMessage("FrameServer: socket() for " + where, errno));
  const int enable = 1;
  // Lets a restarted robot binary bind again while old connections linger in TIME_WAIT.
  ::setsockopt(listenSocket_.get(), SOL_SOCKET, SO_REUSEADDR, &enable, sizeof(enable));
  if (::bind(listenSocket_.get(), reinterpret_cast<const sockaddr*>(&address.storage), address.length) != 0)
  {
    const int error = errno;
    throw std::runtime_error(
        detail::systemErrorMessage("FrameServer: cannot bind " + where, error) +
        (error == EADDRINUSE ? " (another robot binary running? --debug-port 0 picks a free port)" : ""));
  }
  if (::listen(listenSocket_.get(), listenBacklog) != 0)
    throw std::runtime_error(detail::systemErrorMessage("FrameServer: cannot listen on " + where, errno));
  detail::makeNonBlocking(listenSocket_.get());
  port_ = detail::localPort(listenSocket_.get());

  int wakePipe[2];
  if (::pipe(wakePipe) != 0)
    throw std::runtime_error(detail::systemErrorMessage("FrameServer: pipe()", errno));
  wakeReadEnd_.reset(wakePipe[0]);
  wakeWriteEnd_.reset(wakePipe[1]);
  detail::makeNonBlocking(wakeReadEnd_.get());
  detail::makeNonBlocking(wakeWriteEnd_.get());
}

FrameServer::~FrameServer() = default;

void FrameServer::wake()
{
  const char byte = 1;
  // A full pipe means a wake-up is already pending, so a failed write loses nothing.
  [[maybe_unused]] const ssize_t written = ::write(wakeWriteEnd_.get(), &byte, 1);
}

void FrameServer::poll(int timeoutMs)
{
  pollFds_.clear();
  polledConnections_.clear();
  pollFds_.push_back({wakeReadEnd_.get(), POLLIN, 0});
  pollFds_.push_back({listenSocket_.get(), POLLIN, 0});
  auto earliestAuthDeadline = std::chrono::steady_clock::time_point::max();
  for (auto& [id, connection] : connections_)
  {
    const short events = static_cast<short>(POLLIN | (connection->queuedBytes() > 0 ? POLLOUT : 0));
    pollFds_.push_back({connection->socket.get(), events, 0});
    polledConnections_.push_back(connection.get());
    if (!connection->authenticated)
      earliestAuthDeadline = std::min(
          earliestAuthDeadline, connection->acceptedAt + std::chrono::milliseconds(config_.authTimeoutMs));
  }
  if (earliestAuthDeadline != std::chrono::steady_clock::time_point::max())
  {
    const auto untilDeadline =
        std::chrono::ceil<std::chrono::milliseconds>(earliestAuthDeadline - std::chrono::steady_clock::now());
    const int untilDeadlineMs = static_cast<int>(std::max<std::int64_t>(0, untilDeadline.count()));
    timeoutMs = timeoutMs < 0 ? untilDeadlineMs : std::min(timeoutMs, untilDeadlineMs);
  }

  const int ready = ::poll(pollFds_.data(), pollFds_.size(), timeoutMs);
  if (ready < 0) return; // EINTR, or a resource shortage the next round may not have
  if (pollFds_[0].revents != 0)
  {
    char drain[64];
    while (::read(wakeReadEnd_.get(), drain, sizeof(drain)) > 0)
    {
    }
  }
  if ((pollFds_[1].revents & POLLIN) != 0) acceptPending();
  for (std::size_t i = 0; i < polledConnections_.size(); ++i)
    if ((pollFds_[i + 2].revents & (POLLIN | POLLHUP | POLLERR)) != 0 && polledConnections_[i]->open())
      readFrom(*polledConnections_[i]);
  expireUnauthenticated();
  expireIdle();
  // Written after reading so that answers queued by the frame callbacks leave in the same round.
  for (auto& [id, connection] : connections_)
    if (connection->open() && connection->queuedBytes() > 0) writeTo(*connection);
  removeClosed();
}

void FrameServer::acceptPending()
{
  for (int accepted = 0; accepted < maxAcceptsPerRound; ++accepted)
  {
    detail::FileDescriptor socket(::accept(listenSocket_.get(), nullptr, nullptr));
    if (!socket.valid())
    {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      return; // EAGAIN: nothing left; EMFILE and friends: retry next round
    }
    if (openConnections() >= config_.maxConnections && !evictForNewcomer())
    {
      ++stats_.connectionsRejected;
      continue; // closing the socket tells the client at once instead of leaving it in the backlog
    }
    try
    {
      detail::makeNonBlocking(socket.get());
    }
    catch (const std::runtime_error&)
    {
      continue; // a blocking socket could stall the Debug thread: refuse it
    }
    detail::disableNagle(socket.get());
    ++stats_.connectionsAccepted;

    auto connection = std::make_unique<Connection>(config_.maxOutputQueueBytes);
    connection->id = nextId_++;
    connection->socket = std::move(socket);
    connection->acceptedAt = std::chrono::steady_clock::now();
    connection->lastActivity = connection->acceptedAt;
    connection->authenticated = config_.token.empty();
    // Before the Hello nothing longer than the token is worth buffering.
    connection->decoder.setMaxPayloadBytes(connection->authenticated
                                               ? config_.maxPayloadBytes
                                               : static_cast<std::uint32_t>(config_.token.size()));
    const ConnectionId id = connection->id;
    const bool authenticated = connection->authenticated;
    connections_.emplace(id, std::move(connection));
    if (authenticated && callbacks_.connected) callbacks_.connected(id);
  }
}

void FrameServer::readFrom(Connection& connection)
{
  std::size_t budget = config_.maxReadBytesPerRound;
  while (budget > 0 && connection.open())
  {
    const ssize_t received =
        ::recv(connection.socket.get(), readBuffer_.data(), std::min(readBuffer_.size(), budget), 0);
    if (received > 0)
    {
      const auto count = static_cast<std::size_t>(received);
      budget -= std::min(budget, count);
      connection.stats.bytesIn += count;
      stats_.bytesIn += count;
      connection.decoder.feed(std::span<const char>(readBuffer_.data(), count));
      while (connection.open())
      {
        const DecodeResult result = connection.decoder.next();
        if (result.kind == DecodeResult::Kind::NeedMoreData) break;
        handleDecoded(connection, result);
      }
      continue;
    }
    if (received == 0)
    {
      const DecodeResult result = connection.decoder.finish();
      if (result.kind == DecodeResult::Kind::Error)
        handleDecoded(connection, result);
      else
        close(connection, DisconnectReason::PeerClosed);
      return;
    }
    if (errno == EINTR) continue;
    if (!wouldBlock(errno)) close(connection, DisconnectReason::SocketError);
    return;
  }
}

void FrameServer::handleDecoded(Connection& connection, const DecodeResult& result)
{
  if (result.kind == DecodeResult::Kind::Frame)
  {
    connection.lastActivity = std::chrono::steady_clock::now();
    ++connection.stats.framesReceived;
    ++stats_.framesReceived;
    if (connection.authenticated)
    {
      if (callbacks_.frame) callbacks_.frame(connection.id, result.frame.messageType, result.frame.payload);
    }
    else
      authenticate(connection, result.frame);
    return;
  }
  connection.stats.framesDropped.count(result.error);
  stats_.framesDropped.count(result.error);
  if (!connection.authenticated)
  {
    ++stats_.authRejected; // anything but a valid Hello first is a rejection
    // Before the Hello the payload bound is the token's length: a longer frame is a longer, wrong token
    // (or another message in its place).
    refuse(connection,
           result.error == FrameError::Oversize && result.frame.messageType == config_.helloMessageType
               ? "wrong token"
               : "a token is required: the first frame was not a Hello");
  }
  else if (isFatal(result.error))
    close(connection, disconnectReasonOf(result.error));
}

void FrameServer::writeTo(Connection& connection)
{
  const std::uint64_t bytesBefore = connection.stats.bytesOut;
  if (connection.output.writeTo(connection.socket.get(), connection.stats.bytesOut) ==
      OutputQueue::WriteStatus::Failed)
    close(connection, DisconnectReason::SocketError);
  stats_.bytesOut += connection.stats.bytesOut - bytesBefore;
}

void FrameServer::close(Connection& connection, DisconnectReason reason)
{
  if (connection.open()) connection.closeReason = reason;
}

void FrameServer::removeClosed()
{
  for (auto it = connections_.begin(); it != connections_.end();)
  {
    Connection& connection = *it->second;
    if (connection.open())
    {
      ++it;
      continue;
    }
    // Unauthenticated connections were never announced, so their end is not announced either.
    if (connection.authenticated && callbacks_.disconnected)
      callbacks_.disconnected(connection.id, *connection.closeReason);
    it = connections_.erase(it);
  }
}

bool FrameServer::send(ConnectionId id, std::uint16_t messageType, std::span<const char> payload)
{
  const auto it = connections_.find(id);
  if (it == connections_.end()) return false;
  return enqueue(*it->second, messageType, payload);
}

std::size_t FrameServer::broadcast(std::uint16_t messageType, std::span<const char> payload)
{
  std::size_t accepted = 0;
  for (auto& [id, connection] : connections_)
    if (enqueue(*connection, messageType, payload)) ++accepted;
  return accepted;
}

bool FrameServer::enqueue(Connection& connection, std::uint16_t messageType, std::span<const char> payload)
{
  if (payload.size() > maxFramePayloadBytes)
    throw std::length_error("FrameServer::send: payload exceeds maxFramePayloadBytes");
  if (!connection.open() || !connection.authenticated) return false;
  if (!connection.output.push(messageType, payload))
  {
    ++connection.stats.sendDrops;
    ++stats_.sendDrops;
    return false;
  }
  ++connection.stats.framesSent;
  ++stats_.framesSent;
  connection.lastActivity = std::chrono::steady_clock::now();
  return true;
}

void FrameServer::disconnect(ConnectionId id)
{
  const auto it = connections_.find(id);
  if (it != connections_.end()) close(*it->second, DisconnectReason::ClosedByServer);
}

std::optional<ConnectionStats> FrameServer::connectionStats(ConnectionId id) const
{
  const auto it = connections_.find(id);
  if (it == connections_.end()) return std::nullopt;
  return it->second->stats;
}

std::vector<ConnectionId> FrameServer::connectionIds() const
{
  std::vector<ConnectionId> ids;
  for (const auto& [id, connection] : connections_)
    if (connection->authenticated && connection->open()) ids.push_back(id);
  return ids;
}

std::size_t FrameServer::queuedOutputBytes(ConnectionId id) const
{
  const auto it = connections_.find(id);
  return it == connections_.end() ? 0 : it->second->queuedBytes();
}
} // namespace nao::network
