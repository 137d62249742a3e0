#include "Tools/Network/ServerTypes.h"

namespace nao::network
{
DisconnectReason disconnectReasonOf(FrameError error)
{
  switch (error)
  {
  case FrameError::BadMagic:
    return DisconnectReason::BadMagic;
  case FrameError::Oversize:
    return DisconnectReason::Oversize;
  case FrameError::Truncated:
    return DisconnectReason::Truncated;
  case FrameError::CrcMismatch:
    break;
  }
  return DisconnectReason::SocketError;
}

void DropCounters::count(FrameError error)
{
  switch (error)
  {
  case FrameError::CrcMismatch:
    ++crc;
    break;
  case FrameError::Oversize:
    ++oversize;
    break;
  case FrameError::BadMagic:
    ++badMagic;
    break;
  case FrameError::Truncated:
    ++truncated;
    break;
  }
}

std::string_view toString(DisconnectReason reason)
{
  switch (reason)
  {
  case DisconnectReason::PeerClosed:
    return "peer closed";
  case DisconnectReason::Truncated:
    return "truncated frame";
  case DisconnectReason::BadMagic:
    return "bad magic";
  case DisconnectReason::Oversize:
    return "oversize frame";
  case DisconnectReason::SocketError:
    return "socket error";
  case DisconnectReason::ClosedByServer:
    return "closed by server";
  case DisconnectReason::AuthRejected:
    return "authentication rejected";
  case DisconnectReason::Idle:
    return "idle";
  case DisconnectReason::Evicted:
    return "evicted for a newcomer";
  }
  return "unknown";
}

} // namespace nao::network
