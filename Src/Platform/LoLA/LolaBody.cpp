#include "Platform/LoLA/LolaBody.h"
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <poll.h>
#include <thread>

namespace nao
{
namespace
{
constexpr const char* statisticsFormat =
    "LoLA: %llu packets, %llu bad, %llu skipped, %llu answers sent, %llu send "
    "failures, %llu connections, %llu invalid request values, %llu unreadable values";
} // namespace

std::string describeLolaStatistics(const LolaBodyStatistics& s)
{
  char line[300];
  std::snprintf(
      line, sizeof(line), statisticsFormat, static_cast<unsigned long long>(s.packets),
      static_cast<unsigned long long>(s.decodeErrors), static_cast<unsigned long long>(s.skippedFrames),
      static_cast<unsigned long long>(s.answersSent), static_cast<unsigned long long>(s.sendFailures),
      static_cast<unsigned long long>(s.connections), static_cast<unsigned long long>(s.invalidRequestValues),
      static_cast<unsigned long long>(s.unreadableValues));
  return line;
}

std::optional<LolaBodyStatistics> parseLolaStatistics(std::string_view line)
{
  const std::string text(line);
  unsigned long long values[8];
  int end = 0;
  const std::string format = std::string(statisticsFormat) + "%n";
  if (std::sscanf(text.c_str(), format.c_str(), &values[0], &values[1], &values[2], &values[3], &values[4],
                  &values[5], &values[6], &values[7], &end) != 8 ||
      static_cast<std::size_t>(end) != text.size())
    return std::nullopt;
  return LolaBodyStatistics{values[0], values[1], values[2], values[5],
                            values[3], values[4], values[6], values[7]};
}

LolaBody::LolaBody(LolaBodyOptions options) : options_(std::move(options))
{
  answer_.setAllPresent(); // every key, like HULKs: LEDs stay 0 (off), sonars on
  answer_.sonar = {true, true};
}

bool LolaBody::connect()
{
  if (socket_.valid()) return true;
  return connectWithRetries(options_.connectAttempts, options_.connectIntervalSeconds);
}

bool LolaBody::connectWithRetries(unsigned attempts, double intervalSeconds)
{
  for (unsigned attempt = 0; attempt < attempts; ++attempt)
  {
    if (attempt > 0 && options_.giveUp && options_.giveUp->load()) break;
    if (attempt > 0) std::this_thread::sleep_for(std::chrono::duration<double>(intervalSeconds));
    socket_ = UnixSocket::connectTo(options_.socketPath.c_str());
    if (socket_.valid())
    {
      stream_.clear();
      connectionPackets_ = 0;
      ++statistics_.connections;
      return true;
    }
    describeSystemError("LoLA connect", errno, lastError_);
  }
  char message[160];
  std::snprintf(message, sizeof(message), "no LoLA server at '%s' after %u tries: %.*s",
                options_.socketPath.c_str(), attempts, static_cast<int>(lastError_.view().size()),
                lastError_.view().data());
  lastError_ = std::string_view(message);
  return false;
}

void LolaBody::dropConnection()
{
  socket_.close();
  stream_.clear();
}

void LolaBody::endClosedByServer()
{
  lastError_ = std::string_view("LoLA server closed the connection after a complete frame");
  closedByServer_ = true;
  ended_ = true;
  dropConnection();
}

void LolaBody::takeBufferedFrames(std::uint32_t& packets, bool& good)
{
  while (true)
  {
    const LolaExtractResult result = stream_.extract(scratch_, &decodeSensorFrame);
    if (result.status == LolaExtractStatus::needMore) return;
    ++packets;
    ++statistics_.packets;
    ++connectionPackets_;
    if (result.status == LolaExtractStatus::malformed)
    {
      ++statistics_.decodeErrors;
      lastError_ = result.decode.error;
      continue;
    }
    // A value that cannot be read costs only itself: it keeps its last good value, the rest of the frame is used.
    statistics_.unreadableValues += convertSensorFrame(scratch_, options_.conversion, readings_, lastError_);
    if (good) ++statistics_.skippedFrames; // the previous good frame of this call is overtaken
    good = true;
    haveReadings_ = true;
    lastFrame_ = scratch_;
  }
}

bool LolaBody::waitForSensors(BodySensors& sensors)
{
  if (ended_) return false;
  if (closePending_)
  {
    endClosedByServer();
    return false;
  }
  if (!socket_.valid() && !connectOrEnd()) return false;
  std::uint32_t packets = 0;
  bool good = false;
  if (!awaitPacket(packets, good)) return false;
  takeQueuedPackets(packets, good);
  fillFrameInfo(packets, sensors.frameInfo);
  if (haveReadings_)
  {
    sensors.joints = readings_.joints;
    sensors.fsr = readings_.fsr;
    sensors.inertial = readings_.inertial;
    sensors.battery = readings_.battery;
    sensors.touch = readings_.touch;
    sensors.unreadable = readings_.unreadable;
  }
  return true;
}

bool LolaBody::connectOrEnd()
{
  const bool first = statistics_.connections == 0;
  if (first ? connect() : connectWithRetries(options_.reconnectAttempts, options_.reconnectIntervalSeconds))
    return true;
  ended_ = true;
  return false;
}

bool LolaBody::awaitPacket(std::uint32_t& packets, bool& good)
{
  // Block until at least one packet (good or bad) is complete.
  takeBufferedFrames(packets, good);
  while (packets == 0)
  {
    if (!waitReadable())
    {
      lastError_ = std::string_view("stopped while waiting for LoLA");
      ended_ = true;
      return false;
    }
    const LolaReadResult read = stream_.readFrom(socket_.fd(), true);
    if (read == LolaReadResult::data)
    {
      takeBufferedFrames(packets, good);
      continue;
    }
    if (read == LolaReadResult::closed && endedAtFrameBoundary())
    {
      endClosedByServer();
      return false;
    }
    if (read == LolaReadResult::failed)
      describeSystemError("LoLA receive", errno, lastError_);
    else
      lastError_ =
          std::string_view("LoLA server closed the connection in the middle of a frame or before one");
    dropConnection();
    if (!connectWithRetries(options_.reconnectAttempts, options_.reconnectIntervalSeconds))
    {
      ended_ = true;
      return false;
    }
  }
  return true;
}

void LolaBody::takeQueuedPackets(std::uint32_t& packets, bool& good)
{
  // Whatever else is already queued is newer: take it too, without blocking.
  while (true)
  {
    const LolaReadResult read = stream_.readFrom(socket_.fd(), false);
    if (read == LolaReadResult::data)
    {
      takeBufferedFrames(packets, good);
      continue;
    }
    // Use this packet; the next call ends the body (an orderly close) or reconnects (a loss).
    if (read == LolaReadResult::closed && endedAtFrameBoundary())
      closePending_ = true;
    else if (read != LolaReadResult::wouldBlock)
      dropConnection();
    return;
  }
}

bool LolaBody::waitReadable()
{
  // In slices of stopCheckMilliseconds, so that a stop (giveUp, set by SIGTERM) ends a silent LoLA at once
  // instead of at its next packet.
  constexpr int stopCheckMilliseconds = 50;
  pollfd descriptor{socket_.fd(), POLLIN, 0};
  while (true)
  {
    if (options_.giveUp && options_.giveUp->load()) return false;
    const int ready = ::poll(&descriptor, 1, options_.giveUp ? stopCheckMilliseconds : -1);
    if (ready > 0 || (ready < 0 && errno != EINTR))
      return true; // data, hang-up or error: readFrom tells which
  }
}

void LolaBody::fillFrameInfo(std::uint32_t packets, FrameInfo& frameInfo)
{
  const auto now = std::chrono::steady_clock::now();
  std::uint64_t missed = packets - 1; // packets overtaken in this call
  if (options_.countWallClockGaps && haveArrival_)
  {
    const double gapFrames =
        std::chrono::duration<double>(now - lastArrival_).count() / options_.frameSeconds;
    if (gapFrames > options_.missedFrameGapFactor)
      missed = std::max<std::uint64_t>(missed, static_cast<std::uint64_t>(std::llround(gapFrames)) - 1);
  }
  haveArrival_ = true;
  lastArrival_ = now;
  missedFrames_ += missed;

  frameInfo.frameNumber = static_cast<std::uint32_t>(statistics_.packets - 1); // index of the newest packet
  frameInfo.time = static_cast<double>(frameInfo.frameNumber) * options_.frameSeconds;
  frameInfo.missedFrames = static_cast<std::uint32_t>(missedFrames_);
}

void LolaBody::send(const JointRequest& request)
{
  if (!socket_.valid() || closePending_) return; // nobody to answer; waitForSensors() reconnects or ends
  for (std::size_t j = 0; j < lolaJointCount; ++j)
  {
    float angle = request.angles[j];
    if (!std::isfinite(angle))
    {
      angle = readings_.joints.angles[j]; // hold where the joint is instead of jumping
      ++statistics_.invalidRequestValues;
    }
    float stiffness = request.stiffnesses[j];
    if (!std::isfinite(stiffness))
    {
      stiffness = 0.f;
      ++statistics_.invalidRequestValues;
    }
    answer_.position[j] = angle;
    answer_.stiffness[j] = std::clamp(stiffness, 0.f, 1.f);
  }
  const std::size_t size = encodeActuatorFrame(answer_, answerBytes_);
  if (size == 0 || !writeAll(socket_.fd(), std::span(answerBytes_.data(), size), options_.sendTimeoutSeconds))
  {
    ++statistics_.sendFailures;
    const int error = errno;
    describeSystemError("LoLA send", error, lastError_);
    // EPIPE: the server has closed; the next read tells whether in order (the end after a complete frame) or not.
    if (error != EPIPE) dropConnection();
    return;
  }
  ++statistics_.answersSent;
}
} // namespace nao
