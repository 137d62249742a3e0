#include "Platform/LoLA/LolaStream.h"

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace nao
{
namespace
{
bool fillAddress(const char* path, sockaddr_un& address)
{
  address = {};
  address.sun_family = AF_UNIX;
  const std::size_t length = std::strlen(path);
  if (length == 0 || length >= sizeof(address.sun_path)) return false;
  std::memcpy(address.sun_path, path, length + 1);
  return true;
}

int pollMilliseconds(double timeoutSeconds)
{
  if (timeoutSeconds < 0) return -1;
  return static_cast<int>(std::min(std::ceil(timeoutSeconds * 1000.0), 2147483647.0));
}
} // namespace

UnixSocket& UnixSocket::operator=(UnixSocket&& other) noexcept
{
  if (this != &other)
  {
    close();
    fd_ = other.release();
  }
  return *this;
}

int UnixSocket::release()
{
  const int fd = fd_;
  fd_ = -1;
  return fd;
}

void UnixSocket::close()
{
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

UnixSocket UnixSocket::connectTo(const char* path)
{
  sockaddr_un address;
  if (!fillAddress(path, address))
  {
    errno = ENAMETOOLONG;
    return {};
  }
  UnixSocket socket(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!socket.valid()) return {};
  if (::connect(socket.fd(), reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0)
  {
    const int error = errno;
    socket.close();
    errno = error;
    return {};
  }
  return socket;
}

UnixSocket UnixSocket::listenAt(const std::string& path, int backlog)
{
  sockaddr_un address;
  if (!fillAddress(path.c_str(), address))
    throw std::runtime_error("LoLA socket path '" + path + "' is empty or longer than " +
                             std::to_string(sizeof(address.sun_path) - 1) + " characters");
  struct stat status;
  if (::lstat(path.c_str(), &status) == 0)
  {
    if (!S_ISSOCK(status.st_mode))
      throw std::runtime_error("LoLA socket path '" + path + "' exists and is not a socket; not removing it");
    if (connectTo(path.c_str()).valid())
      throw std::runtime_error("LoLA socket path '" + path + "' is in use by a running server");
    ::unlink(path.c_str()); // stale: left behind by a server that did not clean up
  }
  UnixSocket socket(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (!socket.valid())
    throw std::runtime_error("LoLA server: socket(): " + std::string(std::strerror(errno)));
  if (::bind(socket.fd(), reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0)
    throw std::runtime_error("LoLA server: bind('" + path + "'): " + std::string(std::strerror(errno)));
  if (::listen(socket.fd(), backlog) != 0)
    throw std::runtime_error("LoLA server: listen('" + path + "'): " + std::string(std::strerror(errno)));
  return socket;
}

UnixSocket UnixSocket::acceptPending() const
{
  return UnixSocket(::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC));
}

bool waitReadable(int fd, double timeoutSeconds)
{
  pollfd entry{fd, POLLIN, 0};
  while (true)
  {
    const int ready = ::poll(&entry, 1, pollMilliseconds(timeoutSeconds));
    if (ready >= 0) return ready > 0;
    if (errno != EINTR) return true; // let the following read report the error
  }
}

bool writeAll(int fd, std::span<const std::uint8_t> bytes, double timeoutSeconds)
{
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(std::max(0.0, timeoutSeconds));
  std::size_t written = 0;
  while (written < bytes.size())
  {
    const ssize_t count =
        ::send(fd, bytes.data() + written, bytes.size() - written, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (count > 0)
    {
      written += static_cast<std::size_t>(count);
      continue;
    }
    if (count < 0 && errno == EINTR) continue;
    if (count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
    {
      double remaining = -1.0;
      if (timeoutSeconds >= 0)
      {
        remaining = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
        if (remaining <= 0)
        {
          errno = ETIMEDOUT;
          return false;
        }
      }
      pollfd entry{fd, POLLOUT, 0};
      if (::poll(&entry, 1, pollMilliseconds(remaining)) < 0 && errno != EINTR) return false;
      continue;
    }
    return false;
  }
  return true;
}

void describeSystemError(const char* what, int error, FixedString<159>& out)
{
  char reason[96];
  const char* text = ::strerror_r(error, reason, sizeof(reason)); // GNU variant: may return a static string
  char message[160];
  std::snprintf(message, sizeof(message), "%s: %s", what, text);
  out = std::string_view(message);
}

LolaReadResult LolaStreamBuffer::readFrom(int fd, bool block)
{
  if (begin_ > 0)
  {
    std::memmove(bytes_.data(), bytes_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == capacity) return LolaReadResult::data; // full: extract() will report the oversized frame
  while (true)
  {
    const ssize_t count = ::recv(fd, bytes_.data() + end_, capacity - end_, block ? 0 : MSG_DONTWAIT);
    if (count > 0)
    {
      end_ += static_cast<std::size_t>(count);
      return LolaReadResult::data;
    }
    if (count == 0) return LolaReadResult::closed;
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return LolaReadResult::wouldBlock;
    return LolaReadResult::failed;
  }
}

void LolaStreamBuffer::clear()
{
  begin_ = end_ = 0;
  resynchronising_ = false;
}

void LolaStreamBuffer::skipToNextMapHeader()
{
  const std::size_t start = begin_;
  ++begin_; // the failed frame's first byte
  while (begin_ < end_)
  {
    const std::uint8_t byte = bytes_[begin_];
    // Non-empty fixmap, map16, map32. Not 0x80: an empty map is a valid (empty) answer, and the byte is
    // common inside float32 values, so resynchronising on it would "find" frames in garbage.
    if ((byte >= 0x81 && byte <= 0x8f) || byte == 0xde || byte == 0xdf) break;
    ++begin_;
  }
  droppedBytes_ += begin_ - start;
}

bool LolaStreamBuffer::handle(const LolaDecodeResult& decoded, LolaExtractResult& result)
{
  result = LolaExtractResult{};
  switch (decoded.status)
  {
  case LolaDecodeStatus::ok:
    begin_ += decoded.consumed;
    resynchronising_ = false;
    result.status = LolaExtractStatus::frame;
    result.decode = decoded;
    return true;
  case LolaDecodeStatus::incomplete:
    if (begin_ == end_)
    {
      clear(); // empty: whatever arrives next starts a new frame
      return true;
    }
    if (end_ - begin_ < capacity) return true; // wait for more bytes
    {
      // A "frame" that fills the whole buffer cannot be one: drop it all.
      const bool report = !resynchronising_;
      droppedBytes_ += end_ - begin_;
      clear();
      if (report)
      {
        result.status = LolaExtractStatus::malformed;
        result.decode.status = LolaDecodeStatus::malformed;
        result.decode.error = std::string_view("frame larger than the 8192-byte receive buffer");
      }
      return true;
    }
  case LolaDecodeStatus::malformed:
  {
    const bool report = !resynchronising_;
    resynchronising_ = true;
    skipToNextMapHeader();
    if (begin_ == end_) clear();
    if (report)
    {
      result.status = LolaExtractStatus::malformed;
      result.decode = decoded;
      return true;
    }
    return false;
  }
  }
  return true;
}
} // namespace nao
