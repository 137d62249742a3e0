#pragma once
// Helpers of the LoLA tests (LolaProtocolTests here, LolaServerAndBodyTests with the simulator's server):
// temporary socket paths, recognisable frames, and bare socket peers written without the code under test's
// session logic (they use only the socket handle and the stream buffer).
#include "Platform/LoLA/LolaProtocol.h"
#include "Platform/LoLA/LolaStream.h"
#include <cstdint>
#include <string>
#include <vector>

namespace nao::test
{
/// A fresh directory under /tmp, removed with its contents at destruction.
class TempDirectory
{
public:
  TempDirectory();
  ~TempDirectory();
  const std::string& path() const { return path_; }
  std::string socketPath() const { return path_ + "/robocup"; }

private:
  std::string path_;
};

/// A frame in which every value differs and encodes `marker`: position[0] == marker.
LolaSensorFrame knownSensorFrame(float marker);
std::vector<std::uint8_t> encoded(const LolaSensorFrame& frame);
std::vector<std::uint8_t> encoded(const LolaActuatorFrame& frame);

/// A client on a LoLA socket, as a robot binary would be, without LolaBody.
class RawLolaClient
{
public:
  /// Connects, retrying for up to 5 s; throws std::runtime_error if it cannot.
  explicit RawLolaClient(const std::string& path);
  /// Blocks for the next sensor frame; false if the server closed the connection.
  bool readSensorFrame(LolaSensorFrame& frame);
  void send(std::span<const std::uint8_t> bytes);
  void answer(const LolaActuatorFrame& frame) { send(encoded(frame)); }
  /// True if the server closed this connection (reads the end of the stream within 5 s).
  bool closedByServer();
  void close() { socket_.close(); }

private:
  UnixSocket socket_;
  LolaStreamBuffer stream_;
};

/// A server on a LoLA socket that writes whatever bytes a test wants, without LolaServer.
class RawLolaServer
{
public:
  explicit RawLolaServer(const std::string& path);
  ~RawLolaServer();
  /// Waits up to 5 s for a client; throws std::runtime_error if none comes.
  void acceptClient();
  void send(std::span<const std::uint8_t> bytes);
  /// Blocks for the client's next answer; false if the client closed the connection.
  bool readAnswer(LolaActuatorFrame& frame);

private:
  std::string path_;
  UnixSocket listener_;
  UnixSocket client_;
  LolaStreamBuffer stream_;
};
} // namespace nao::test
