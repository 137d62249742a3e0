#pragma once
// Thin POSIX socket helpers shared by FrameServer and FrameClient (internal to NaoNetwork).
#include <cstdint>
#include <optional>
#include <string>
#include <sys/socket.h>

namespace nao::network::detail
{
/// Owns a file descriptor and closes it once.
class FileDescriptor
{
public:
  FileDescriptor() = default;
  explicit FileDescriptor(int fd) : fd_(fd) {}
  FileDescriptor(FileDescriptor&& other) noexcept : fd_(other.release()) {}
  FileDescriptor& operator=(FileDescriptor&& other) noexcept;
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor() { reset(); }

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  int release();
  void reset(int fd = -1);

private:
  int fd_ = -1;
};

struct SocketAddress
{
  sockaddr_storage storage{};
  socklen_t length = 0;
};

/// A numeric IPv4 or IPv6 address, "localhost" (127.0.0.1) or "" (all IPv4 interfaces) with port; nothing for
/// anything else. Needs no resolver, so the static robot binary's server uses it (glibc's name lookup would
/// load the build machine's NSS libraries at run time).
std::optional<SocketAddress> numericAddress(const std::string& host, std::uint16_t port);
/// numericAddress, else the name looked up (getaddrinfo: /etc/hosts, DNS) to its first IPv4/IPv6 stream address;
/// for clients on the development machine (NameResolution.cpp). An empty host with `passive` means "all
/// interfaces". Throws std::runtime_error naming the host.
SocketAddress resolveAddress(const std::string& host, std::uint16_t port, bool passive);
/// 127.0.0.0/8, ::1 and IPv4-mapped 127.x addresses.
bool isLoopback(const SocketAddress& address);
/// "127.0.0.1:4242" or "[::1]:4242".
std::string toString(const SocketAddress& address);
std::uint16_t localPort(int fd);

/// O_NONBLOCK and FD_CLOEXEC; throws std::runtime_error on failure.
void makeNonBlocking(int fd);
/// Small debug messages should leave at once instead of waiting for Nagle's algorithm.
void disableNagle(int fd);
/// "<what>: <strerror(error)>"
std::string systemErrorMessage(const std::string& what, int error);
} // namespace nao::network::detail
