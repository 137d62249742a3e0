#pragma once
// Configuration, counters and event types of FrameServer.
#include "Tools/Network/Frame.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace nao::network
{
using ConnectionId = std::uint64_t;

struct ServerConfig
{
  /// Numeric address or name. Anything but loopback requires a token.
  std::string host = "127.0.0.1";
  /// 0 picks an ephemeral port; FrameServer::port() tells which.
  std::uint16_t port = 0;
  /// Empty: no authentication (only allowed on loopback). Otherwise the first frame of every connection
  /// must be a Hello frame whose payload equals the token, or the connection is closed.
  std::string token;
  std::uint16_t helloMessageType = 1;
  /// Nonzero: a connection refused for its token is first sent one frame of this type whose payload is the
  /// reason as text ("wrong token", ...), so that the client can say why instead of "connection closed".
  std::uint16_t refusedMessageType = 0;
  /// Incoming frames announcing a larger payload close the connection; at most maxFramePayloadBytes.
  std::uint32_t maxPayloadBytes = maxFramePayloadBytes;
  /// Bytes a connection may have waiting to be written; a frame that would exceed it is dropped.
  std::size_t maxOutputQueueBytes = 4u << 20;
  /// Connections beyond this are accepted and closed at once (counted as connectionsRejected) — unless a slot
  /// is held by a connection that has not proven itself: then the newcomer takes it (see idleEvictMs).
  std::size_t maxConnections = 8;
  /// ms: a connection that neither sent a frame nor had one sent to it for this long is closed, so idle peers
  /// cannot hold the slots for ever.
  int idleTimeoutMs = 60000;
  /// ms: when every slot is taken, a newcomer replaces a connection that has not authenticated yet (the oldest),
  /// or else the authenticated connection idle the longest if it has been idle this long. A peer that keeps
  /// reconnecting therefore only ever replaces its own unproven connections, never a working client.
  int idleEvictMs = 1000;
  /// Time a connection may take to authenticate, in ms.
  int authTimeoutMs = 5000;
  /// Upper bound of bytes read from one connection per round, so one fast sender cannot starve others.
  std::size_t maxReadBytesPerRound = 256u << 10;
};

/// Frames dropped on receipt, by reason.
struct DropCounters
{
  std::uint64_t crc = 0;
  std::uint64_t oversize = 0;
  std::uint64_t badMagic = 0;
  std::uint64_t truncated = 0;
  std::uint64_t total() const { return crc + oversize + badMagic + truncated; }
  void count(FrameError error);
};

struct ConnectionStats
{
  std::uint64_t framesReceived = 0; ///< valid frames, the Hello frame included
  DropCounters framesDropped;
  std::uint64_t bytesIn = 0;
  std::uint64_t bytesOut = 0;
  std::uint64_t framesSent = 0; ///< frames queued for sending
  std::uint64_t sendDrops = 0;  ///< frames not sent because the output queue was full
};

struct ServerStats : ConnectionStats
{
  std::uint64_t connectionsAccepted = 0;
  std::uint64_t connectionsRejected = 0; ///< over maxConnections
  std::uint64_t connectionsEvicted = 0;  ///< closed to make room for a newcomer (idleEvictMs)
  std::uint64_t authRejected = 0;        ///< wrong or missing token, or no Hello in time
};

enum class DisconnectReason : std::uint8_t
{
  PeerClosed,     ///< orderly close between frames
  Truncated,      ///< peer closed in the middle of a frame
  BadMagic,       ///< stream desynchronised
  Oversize,       ///< a header announced more than maxPayloadBytes
  SocketError,    ///< reset or other socket failure
  ClosedByServer, ///< FrameServer::disconnect()
  AuthRejected,   ///< never reported through callbacks: the connection had not authenticated
  Idle,           ///< no frame in either direction for idleTimeoutMs
  Evicted,        ///< its slot went to a newcomer (it was unauthenticated, or idle for idleEvictMs)
};

std::string_view toString(DisconnectReason reason);
/// Why a connection closes after a fatal frame error.
DisconnectReason disconnectReasonOf(FrameError error);

} // namespace nao::network
