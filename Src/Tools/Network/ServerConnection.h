#pragma once
// FrameServer's state of one connection (internal to NaoNetwork), shared by Server.cpp and ServerAdmission.cpp.
#include "Tools/Network/OutputQueue.h"
#include "Tools/Network/Server.h"

#include <chrono>
#include <optional>

namespace nao::network
{
struct FrameServer::Connection
{
  ConnectionId id = 0;
  detail::FileDescriptor socket;
  FrameDecoder decoder;
  OutputQueue output;
  ConnectionStats stats;
  bool authenticated = false;
  std::optional<DisconnectReason> closeReason;
  std::chrono::steady_clock::time_point acceptedAt;
  std::chrono::steady_clock::time_point lastActivity; ///< last frame received or queued

  explicit Connection(std::size_t maxQueuedBytes) : output(maxQueuedBytes) {}
  std::size_t queuedBytes() const { return output.queuedBytes(); }
  bool open() const { return !closeReason.has_value(); }
};
} // namespace nao::network
