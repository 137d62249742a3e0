// FrameServer's admission (Server.h): who may connect and stay. The token check of the first frame, the eviction
// that makes room for a newcomer, the idle and authentication timeouts, and the refusal that tells a client why.
#include "Tools/Network/Server.h"
#include "Tools/Network/ServerConnection.h"

#include <string>

namespace nao::network
{
namespace
{
/// Compares every byte whatever the first difference, so the time taken does not tell an attacker
/// how much of a guessed token was right.
bool tokensEqual(std::span<const char> presented, std::string_view expected)
{
  std::size_t difference = presented.size() ^ expected.size();
  for (std::size_t i = 0; i < expected.size(); ++i)
  {
    const char presentedByte = i < presented.size() ? presented[i] : '\0';
    difference |= static_cast<unsigned char>(presentedByte ^ expected[i]);
  }
  return difference == 0;
}
} // namespace

void FrameServer::authenticate(Connection& connection, const FrameView& frame)
{
  if (frame.messageType != config_.helloMessageType)
  {
    ++stats_.authRejected;
    refuse(connection, "a token is required: the first frame was not a Hello");
    return;
  }
  if (!tokensEqual(frame.payload, config_.token))
  {
    ++stats_.authRejected;
    refuse(connection, "wrong token");
    return;
  }
  connection.authenticated = true;
  connection.decoder.setMaxPayloadBytes(config_.maxPayloadBytes);
  if (callbacks_.connected) callbacks_.connected(connection.id);
}

std::size_t FrameServer::openConnections() const
{
  std::size_t open = 0;
  for (const auto& [id, connection] : connections_)
    open += connection->open();
  return open;
}

bool FrameServer::evictForNewcomer()
{
  Connection* victim = nullptr;
  for (auto& [id, connection] : connections_) // the oldest unauthenticated one first
    if (connection->open() && !connection->authenticated &&
        (!victim || connection->acceptedAt < victim->acceptedAt))
      victim = connection.get();
  if (!victim)
  {
    const auto now = std::chrono::steady_clock::now();
    for (auto& [id, connection] : connections_)
      if (connection->open() &&
          now - connection->lastActivity >= std::chrono::milliseconds(config_.idleEvictMs) &&
          (!victim || connection->lastActivity < victim->lastActivity))
        victim = connection.get();
  }
  if (!victim) return false;
  ++stats_.connectionsEvicted;
  close(*victim, DisconnectReason::Evicted);
  return true;
}

void FrameServer::expireIdle()
{
  const auto now = std::chrono::steady_clock::now();
  for (auto& [id, connection] : connections_)
    if (connection->open() && connection->queuedBytes() == 0 &&
        now - connection->lastActivity >= std::chrono::milliseconds(config_.idleTimeoutMs))
      close(*connection, DisconnectReason::Idle);
}

void FrameServer::expireUnauthenticated()
{
  if (config_.token.empty()) return;
  const auto now = std::chrono::steady_clock::now();
  for (auto& [id, connection] : connections_)
    if (!connection->authenticated && connection->open() &&
        now - connection->acceptedAt >= std::chrono::milliseconds(config_.authTimeoutMs))
    {
      ++stats_.authRejected;
      refuse(*connection, "no token within " + std::to_string(config_.authTimeoutMs) + " ms");
    }
}

void FrameServer::refuse(Connection& connection, std::string_view reason)
{
  if (config_.refusedMessageType != 0 && connection.open())
  {
    // A few bytes into a fresh socket's empty send buffer: one non-blocking write sends them (best effort;
    // the connection is closed either way).
    connection.output.push(config_.refusedMessageType, std::span<const char>(reason.data(), reason.size()));
    writeTo(connection);
  }
  close(connection, DisconnectReason::AuthRejected);
}
} // namespace nao::network
