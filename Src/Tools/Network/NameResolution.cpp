// Host names for clients on the development machine. Its own file, so that the static robot binary, whose server
// takes numeric addresses only (numericAddress), does not link glibc's resolver.
#include "Tools/Network/Socket.h"

#include <cstring>
#include <netdb.h>
#include <stdexcept>

namespace nao::network::detail
{
SocketAddress resolveAddress(const std::string& host, std::uint16_t port, bool passive)
{
  if (const std::optional<SocketAddress> numeric = numericAddress(host, port)) return *numeric;
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0);
  addrinfo* results = nullptr;
  const std::string service = std::to_string(port);
  const int status = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &results);
  if (status != 0 || results == nullptr)
    throw std::runtime_error("cannot resolve address '" + host + "': " + ::gai_strerror(status));
  SocketAddress address;
  std::memcpy(&address.storage, results->ai_addr, results->ai_addrlen);
  address.length = results->ai_addrlen;
  ::freeaddrinfo(results);
  return address;
}
} // namespace nao::network::detail
