#include "Tools/Network/Client.h"

#include <algorithm>
#include <cerrno>
#include <poll.h>
#include <sys/socket.h>

namespace nao::network
{
namespace
{
constexpr std::size_t receiveChunkBytes = 64u << 10;

bool peerGone(int error)
{
  return error == EPIPE || error == ECONNRESET || error == ENOTCONN || error == ECONNABORTED;
}
} // namespace

FrameClient::FrameClient(const std::string& host, std::uint16_t port, std::chrono::milliseconds timeout)
{
  connect(host, port, timeout);
}

void FrameClient::connect(const std::string& host, std::uint16_t port, std::chrono::milliseconds timeout)
{
  close();
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  const detail::SocketAddress address = detail::resolveAddress(host, port, false);
  const std::string where = "'" + host + "' (" + detail::toString(address) + ")";
  detail::FileDescriptor socket(::socket(address.storage.ss_family, SOCK_STREAM, 0));
  if (!socket.valid())
    throw std::runtime_error(detail::systemErrorMessage("FrameClient: socket() for " + where, errno));
  // Non-blocking so that connecting, sending and receiving can all honour their timeouts.
  detail::makeNonBlocking(socket.get());
  if (::connect(socket.get(), reinterpret_cast<const sockaddr*>(&address.storage), address.length) != 0)
  {
    if (errno != EINPROGRESS)
      throw std::runtime_error(detail::systemErrorMessage("FrameClient: cannot connect to " + where, errno));
    socket_ = std::move(socket);
    if (!waitFor(POLLOUT, deadline))
    {
      close();
      throw std::runtime_error("FrameClient: connecting to " + where + " timed out");
    }
    int error = 0;
    socklen_t length = sizeof(error);
    if (::getsockopt(socket_.get(), SOL_SOCKET, SO_ERROR, &error, &length) != 0) error = errno;
    if (error != 0)
    {
      close();
      throw std::runtime_error(detail::systemErrorMessage("FrameClient: cannot connect to " + where, error));
    }
  }
  else
    socket_ = std::move(socket);
  detail::disableNagle(socket_.get());
  receiveBuffer_.resize(receiveChunkBytes);
}

void FrameClient::close()
{
  socket_.reset();
  decoder_ = FrameDecoder(decoder_.maxPayloadBytes());
}

void FrameClient::sendFrame(std::uint16_t messageType, std::span<const char> payload,
                            std::chrono::milliseconds timeout)
{
  sendBuffer_.clear();
  encodeFrame(messageType, payload, sendBuffer_);
  sendRaw(sendBuffer_, timeout);
}

void FrameClient::sendRaw(std::span<const char> bytes, std::chrono::milliseconds timeout)
{
  if (!connected()) throw ConnectionClosedError("FrameClient: not connected");
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!bytes.empty())
  {
    // MSG_NOSIGNAL: a server that went away must cost an exception, not the process (SIGPIPE).
    const ssize_t sent = ::send(socket_.get(), bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (sent > 0)
    {
      bytes = bytes.subspan(static_cast<std::size_t>(sent));
      continue;
    }
    if (sent < 0 && errno == EINTR) continue;
    if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
    {
      if (!waitFor(POLLOUT, deadline)) throw std::runtime_error("FrameClient: sending timed out");
      continue;
    }
    if (sent < 0 && peerGone(errno))
      failClosed(detail::systemErrorMessage("FrameClient: the server closed the connection", errno));
    throw std::runtime_error(detail::systemErrorMessage("FrameClient: send failed", errno));
  }
}

void FrameClient::shutdownSending()
{
  if (connected()) ::shutdown(socket_.get(), SHUT_WR);
}

std::optional<Frame> FrameClient::receiveFrame(std::chrono::milliseconds timeout)
{
  if (!connected()) throw ConnectionClosedError("FrameClient: not connected");
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true)
  {
    const DecodeResult result = decoder_.next();
    if (result.kind == DecodeResult::Kind::Frame)
      return Frame{result.frame.messageType,
                   std::vector<char>(result.frame.payload.begin(), result.frame.payload.end())};
    if (result.kind == DecodeResult::Kind::Error)
    {
      if (!isFatal(result.error))
      {
        ++crcDrops_;
        continue;
      }
      close();
      throw std::runtime_error("FrameClient: received a bad frame (" + std::string(toString(result.error)) +
                               ")");
    }

    const ssize_t received = ::recv(socket_.get(), receiveBuffer_.data(), receiveBuffer_.size(), 0);
    if (received > 0)
    {
      decoder_.feed(std::span<const char>(receiveBuffer_.data(), static_cast<std::size_t>(received)));
      continue;
    }
    if (received == 0)
    {
      const bool truncated = decoder_.finish().kind == DecodeResult::Kind::Error;
      failClosed(truncated ? "FrameClient: the server closed the connection in the middle of a frame"
                           : "FrameClient: the server closed the connection");
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK)
    {
      if (!waitFor(POLLIN, deadline)) return std::nullopt;
      continue;
    }
    if (peerGone(errno))
      failClosed(detail::systemErrorMessage("FrameClient: the server reset the connection", errno));
    throw std::runtime_error(detail::systemErrorMessage("FrameClient: receive failed", errno));
  }
}

bool FrameClient::waitFor(short events, std::chrono::steady_clock::time_point deadline) const
{
  while (true)
  {
    const auto remaining =
        std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    pollfd descriptor{socket_.get(), events, 0};
    const int ready =
        ::poll(&descriptor, 1, static_cast<int>(std::clamp<std::int64_t>(remaining, 0, 1 << 30)));
    if (ready > 0) return true; // also on POLLERR / POLLHUP: the next send or recv reports what happened
    if (ready == 0) return false;
    if (errno != EINTR)
      throw std::runtime_error(detail::systemErrorMessage("FrameClient: poll failed", errno));
  }
}

void FrameClient::failClosed(const std::string& what)
{
  close();
  throw ConnectionClosedError(what);
}
} // namespace nao::network
