#include "Tools/Network/OutputQueue.h"

#include "Tools/Network/Frame.h"

#include <cerrno>
#include <sys/socket.h>

namespace nao::network
{
bool OutputQueue::push(std::uint16_t messageType, std::span<const char> payload)
{
  if (queuedBytes() + frameHeaderBytes + payload.size() > maxQueuedBytes_) return false;
  encodeFrame(messageType, payload, bytes_);
  return true;
}

OutputQueue::WriteStatus OutputQueue::writeTo(int socket, std::uint64_t& bytesWritten)
{
  WriteStatus status = WriteStatus::Drained;
  while (queuedBytes() > 0)
  {
    // MSG_NOSIGNAL: a peer that vanished must cost an EPIPE, not the process (SIGPIPE).
    const ssize_t sent = ::send(socket, bytes_.data() + writeOffset_, queuedBytes(), MSG_NOSIGNAL);
    if (sent > 0)
    {
      writeOffset_ += static_cast<std::size_t>(sent);
      bytesWritten += static_cast<std::uint64_t>(sent);
      continue;
    }
    if (sent < 0 && errno == EINTR) continue;
    status =
        sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) ? WriteStatus::WouldBlock : WriteStatus::Failed;
    break;
  }
  // Dropping the written prefix once it is the larger part keeps the buffer near the bound while
  // moving each byte at most once on average.
  if (writeOffset_ == bytes_.size())
  {
    bytes_.clear();
    writeOffset_ = 0;
  }
  else if (writeOffset_ > bytes_.size() / 2)
  {
    bytes_.erase(bytes_.begin(), bytes_.begin() + static_cast<std::ptrdiff_t>(writeOffset_));
    writeOffset_ = 0;
  }
  return status;
}
} // namespace nao::network
