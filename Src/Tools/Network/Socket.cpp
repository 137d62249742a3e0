#include "Tools/Network/Socket.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdexcept>
#include <unistd.h>

namespace nao::network::detail
{
FileDescriptor& FileDescriptor::operator=(FileDescriptor&& other) noexcept
{
  if (this != &other) reset(other.release());
  return *this;
}

int FileDescriptor::release()
{
  const int fd = fd_;
  fd_ = -1;
  return fd;
}

void FileDescriptor::reset(int fd)
{
  if (fd_ >= 0) ::close(fd_);
  fd_ = fd;
}

std::optional<SocketAddress> numericAddress(const std::string& host, std::uint16_t port)
{
  SocketAddress address;
  sockaddr_in ipv4{};
  ipv4.sin_family = AF_INET;
  ipv4.sin_port = htons(port);
  if (host.empty() || host == "localhost" || ::inet_pton(AF_INET, host.c_str(), &ipv4.sin_addr) == 1)
  {
    if (host.empty()) ipv4.sin_addr.s_addr = htonl(INADDR_ANY);
    if (host == "localhost") ipv4.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    std::memcpy(&address.storage, &ipv4, sizeof(ipv4));
    address.length = sizeof(ipv4);
    return address;
  }
  sockaddr_in6 ipv6{};
  ipv6.sin6_family = AF_INET6;
  ipv6.sin6_port = htons(port);
  if (::inet_pton(AF_INET6, host.c_str(), &ipv6.sin6_addr) == 1)
  {
    std::memcpy(&address.storage, &ipv6, sizeof(ipv6));
    address.length = sizeof(ipv6);
    return address;
  }
  return std::nullopt;
}

bool isLoopback(const SocketAddress& address)
{
  if (address.storage.ss_family == AF_INET)
  {
    const auto& ipv4 = reinterpret_cast<const sockaddr_in&>(address.storage);
    return (ntohl(ipv4.sin_addr.s_addr) >> 24) == 127;
  }
  if (address.storage.ss_family == AF_INET6)
  {
    const auto& ipv6 = reinterpret_cast<const sockaddr_in6&>(address.storage);
    if (IN6_IS_ADDR_LOOPBACK(&ipv6.sin6_addr)) return true;
    return IN6_IS_ADDR_V4MAPPED(&ipv6.sin6_addr) && ipv6.sin6_addr.s6_addr[12] == 127;
  }
  return false;
}

std::string toString(const SocketAddress& address)
{
  char text[INET6_ADDRSTRLEN] = {};
  if (address.storage.ss_family == AF_INET)
  {
    const auto& ipv4 = reinterpret_cast<const sockaddr_in&>(address.storage);
    ::inet_ntop(AF_INET, &ipv4.sin_addr, text, sizeof(text));
    return std::string(text) + ":" + std::to_string(ntohs(ipv4.sin_port));
  }
  if (address.storage.ss_family == AF_INET6)
  {
    const auto& ipv6 = reinterpret_cast<const sockaddr_in6&>(address.storage);
    ::inet_ntop(AF_INET6, &ipv6.sin6_addr, text, sizeof(text));
    return "[" + std::string(text) + "]:" + std::to_string(ntohs(ipv6.sin6_port));
  }
  return "<unknown address family>";
}

std::uint16_t localPort(int fd)
{
  SocketAddress address;
  address.length = sizeof(address.storage);
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&address.storage), &address.length) != 0)
    throw std::runtime_error(systemErrorMessage("getsockname", errno));
  if (address.storage.ss_family == AF_INET)
    return ntohs(reinterpret_cast<const sockaddr_in&>(address.storage).sin_port);
  return ntohs(reinterpret_cast<const sockaddr_in6&>(address.storage).sin6_port);
}

void makeNonBlocking(int fd)
{
  const int statusFlags = ::fcntl(fd, F_GETFL, 0);
  if (statusFlags < 0 || ::fcntl(fd, F_SETFL, statusFlags | O_NONBLOCK) != 0)
    throw std::runtime_error(systemErrorMessage("fcntl(O_NONBLOCK)", errno));
  const int descriptorFlags = ::fcntl(fd, F_GETFD, 0);
  if (descriptorFlags < 0 || ::fcntl(fd, F_SETFD, descriptorFlags | FD_CLOEXEC) != 0)
    throw std::runtime_error(systemErrorMessage("fcntl(FD_CLOEXEC)", errno));
}

void disableNagle(int fd)
{
  const int enable = 1;
  // Best effort: a socket without TCP_NODELAY still works, only with more latency.
  (void)::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &enable, sizeof(enable));
}

std::string systemErrorMessage(const std::string& what, int error)
{
  return what + ": " + std::strerror(error);
}
} // namespace nao::network::detail
