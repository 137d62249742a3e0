#include "Platform/LoLA/Tests/LolaTestSupport.h"
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <thread>
#include <unistd.h>

namespace nao::test
{
TempDirectory::TempDirectory()
{
  char pattern[] = "/tmp/lolatest-XXXXXX"; // short: a Unix socket path has at most 107 characters
  if (!::mkdtemp(pattern)) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

TempDirectory::~TempDirectory()
{
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

LolaSensorFrame knownSensorFrame(float marker)
{
  LolaSensorFrame frame;
  for (std::size_t j = 0; j < lolaJointCount; ++j)
  {
    frame.position[j] = marker + 0.01f * static_cast<float>(j);
    frame.stiffness[j] = 0.04f * static_cast<float>(j);
    frame.temperature[j] = 30.f + 0.5f * static_cast<float>(j);
    frame.current[j] = 0.1f + 0.02f * static_cast<float>(j);
    frame.status[j] = static_cast<std::int32_t>(j % 4);
  }
  frame.battery = {0.75f, 128.f + 3.f, -1.25f, 36.5f}; // status word with the charging bit 0x80
  frame.accelerometer = {0.5f, -0.25f, -9.75f};
  frame.gyroscope = {0.01f, -0.02f, 0.03f};
  frame.angles = {0.05f, -0.04f};
  frame.sonar = {0.8f, 1.2f};
  frame.fsr = {0.9f, 0.7f, 0.5f, 0.3f, 1.1f, 0.6f, 0.4f, 0.2f};
  for (std::size_t i = 0; i < frame.touch.size(); ++i)
    frame.touch[i] = static_cast<float>(i % 2);
  return frame;
}

std::vector<std::uint8_t> encoded(const LolaSensorFrame& frame)
{
  std::vector<std::uint8_t> bytes(lolaSensorFrameMaxBytes);
  bytes.resize(encodeSensorFrame(frame, bytes));
  return bytes;
}

std::vector<std::uint8_t> encoded(const LolaActuatorFrame& frame)
{
  std::vector<std::uint8_t> bytes(lolaActuatorFrameMaxBytes);
  bytes.resize(encodeActuatorFrame(frame, bytes));
  return bytes;
}

RawLolaClient::RawLolaClient(const std::string& path)
{
  for (int attempt = 0; attempt < 500 && !socket_.valid(); ++attempt)
  {
    socket_ = UnixSocket::connectTo(path.c_str());
    if (!socket_.valid()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!socket_.valid()) throw std::runtime_error("RawLolaClient: cannot connect to " + path);
}

bool RawLolaClient::readSensorFrame(LolaSensorFrame& frame)
{
  while (true)
  {
    const LolaExtractResult result = stream_.extract(frame, &decodeSensorFrame);
    if (result.status == LolaExtractStatus::frame) return true;
    if (result.status == LolaExtractStatus::malformed)
      throw std::runtime_error("RawLolaClient: malformed frame: " + std::string(result.decode.error.view()));
    if (stream_.readFrom(socket_.fd(), true) != LolaReadResult::data) return false;
  }
}

void RawLolaClient::send(std::span<const std::uint8_t> bytes)
{
  if (!writeAll(socket_.fd(), bytes, 5.0)) throw std::runtime_error("RawLolaClient: write failed");
}

bool RawLolaClient::closedByServer()
{
  while (waitReadable(socket_.fd(), 5.0))
  {
    const LolaReadResult read = stream_.readFrom(socket_.fd(), false);
    if (read == LolaReadResult::closed || read == LolaReadResult::failed) return true;
    stream_.clear(); // frames sent before the close
  }
  return false;
}

RawLolaServer::RawLolaServer(const std::string& path) : path_(path), listener_(UnixSocket::listenAt(path)) {}

RawLolaServer::~RawLolaServer()
{
  ::unlink(path_.c_str());
}

void RawLolaServer::acceptClient()
{
  if (!waitReadable(listener_.fd(), 5.0)) throw std::runtime_error("RawLolaServer: no client within 5 s");
  client_ = listener_.acceptPending();
  if (!client_.valid()) throw std::runtime_error("RawLolaServer: accept failed");
}

void RawLolaServer::send(std::span<const std::uint8_t> bytes)
{
  if (!writeAll(client_.fd(), bytes, 5.0)) throw std::runtime_error("RawLolaServer: write failed");
}

bool RawLolaServer::readAnswer(LolaActuatorFrame& frame)
{
  while (true)
  {
    const LolaExtractResult result = stream_.extract(frame, &decodeActuatorFrame);
    if (result.status == LolaExtractStatus::frame) return true;
    if (result.status == LolaExtractStatus::malformed)
      throw std::runtime_error("RawLolaServer: malformed answer: " + std::string(result.decode.error.view()));
    if (!waitReadable(client_.fd(), 5.0) || stream_.readFrom(client_.fd(), false) != LolaReadResult::data)
      return false;
  }
}
} // namespace nao::test
