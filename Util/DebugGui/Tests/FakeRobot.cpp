#include "Util/DebugGui/Tests/FakeRobot.h"
#include "Tools/BinaryIO/BoundedArchive.h"
#include "Tools/Network/Frame.h"
#include <arpa/inet.h>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <fstream>
#include <netinet/in.h>
#include <poll.h>
#include <stdexcept>
#include <sys/socket.h>
#include <unistd.h>

namespace nao::gui::test
{
using debug::MessageType;

FakeRobot::FakeRobot(Behaviour behaviour) : behaviour_(std::move(behaviour))
{
  listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  if (listener_ < 0 || ::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      ::listen(listener_, 8) != 0 ||
      ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length) != 0)
    throw std::runtime_error("FakeRobot: cannot listen on 127.0.0.1");
  port_ = ntohs(address.sin_port);
  thread_ = std::thread([this] { run(); });
}

FakeRobot::~FakeRobot()
{
  stop();
}

void FakeRobot::stop()
{
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  if (listener_ >= 0) ::close(listener_);
  listener_ = -1;
}

void FakeRobot::run()
{
  int client = -1;
  network::FrameDecoder decoder;
  std::vector<char> out, payload, floodBatch;
  std::size_t sent = 0;
  bool listed = false, closing = false;
  constexpr int floodFrames = 64;
  if (!behaviour_.flood.empty())
  {
    debug::Data data{behaviour_.flood, 0, 0, 0, behaviour_.floodPayload};
    for (int i = 0; i < floodFrames; ++i)
    {
      data.frameNumber = static_cast<std::uint32_t>(i);
      binaryio::serializeInto(payload, data);
      network::encodeFrame(static_cast<std::uint16_t>(MessageType::data), payload, floodBatch);
    }
  }
  // Replies held back (replyDelaySeconds): when they are due, and their frames.
  std::vector<std::pair<std::chrono::steady_clock::time_point, std::vector<char>>> delayed;
  const auto message = [&](MessageType type, const auto& value)
  {
    binaryio::serializeInto(payload, value);
    if (type == MessageType::listReply || behaviour_.replyDelaySeconds <= 0)
      return network::encodeFrame(static_cast<std::uint16_t>(type), payload, out);
    delayed.emplace_back(std::chrono::steady_clock::now() +
                             std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                 std::chrono::duration<double>(behaviour_.replyDelaySeconds)),
                         std::vector<char>());
    network::encodeFrame(static_cast<std::uint16_t>(type), payload, delayed.back().second);
  };
  const auto refuse = [&]
  {
    network::encodeFrame(static_cast<std::uint16_t>(MessageType::refused),
                         std::span(behaviour_.refusal.data(), behaviour_.refusal.size()), out);
    closing = true;
  };
  const auto disconnect = [&]
  {
    ::close(client);
    client = -1;
  };
  const auto handle = [&](const network::FrameView& frame)
  {
    const auto type = static_cast<MessageType>(frame.messageType);
    ++received_[frame.messageType % received_.size()];
    if (closing) return;
    if (!behaviour_.refusal.empty()) return refuse();
    switch (type)
    {
    case MessageType::listRequest:
      message(MessageType::listReply, behaviour_.list);
      listed = true;
      break;
    case MessageType::getParameters:
      message(MessageType::parameters,
              debug::Parameters{
                  binaryio::deserialize<debug::Name>(frame.payload).name, behaviour_.parametersToml, {}});
      break;
    case MessageType::hello:
      break;
    default:
      message(MessageType::reply, debug::Reply{true, "ok"});
    }
  };
  while (!stop_)
  {
    const bool writing = client >= 0 && (out.size() > sent || (listed && !behaviour_.flood.empty()));
    pollfd descriptors[2] = {{listener_, POLLIN, 0},
                             {client, static_cast<short>(POLLIN | (writing ? POLLOUT : 0)), 0}};
    if (::poll(descriptors, client >= 0 ? 2 : 1, 10) < 0) continue;
    if (descriptors[0].revents & POLLIN)
    {
      const int accepted = ::accept4(listener_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (accepted >= 0)
      {
        if (client >= 0) disconnect();
        client = accepted;
        decoder = network::FrameDecoder();
        out.clear();
        sent = 0;
        listed = closing = false;
        delayed.clear();
        ++connections_;
        continue;
      }
    }
    if (client < 0) continue;
    if (descriptors[1].revents & (POLLIN | POLLHUP | POLLERR))
    {
      char buffer[65536];
      const ssize_t received = ::recv(client, buffer, sizeof buffer, 0);
      if (received == 0 || (received < 0 && errno != EAGAIN && errno != EINTR))
      {
        disconnect();
        continue;
      }
      if (received > 0)
      {
        decoder.feed(std::span<const char>(buffer, static_cast<std::size_t>(received)));
        for (auto result = decoder.next(); result.kind == network::DecodeResult::Kind::Frame;
             result = decoder.next())
          handle(result.frame);
      }
    }
    while (!delayed.empty() && delayed.front().first <= std::chrono::steady_clock::now())
    {
      out.insert(out.end(), delayed.front().second.begin(), delayed.front().second.end());
      delayed.erase(delayed.begin());
    }
    // The flood keeps a megabyte ahead of the socket, so that the GUI never waits for it.
    while (listed && !closing && !behaviour_.flood.empty() && out.size() - sent < (1u << 20))
    {
      out.insert(out.end(), floodBatch.begin(), floodBatch.end());
      dataSent_ += floodFrames;
    }
    if (out.size() > sent)
    {
      const ssize_t written = ::send(client, out.data() + sent, out.size() - sent, MSG_NOSIGNAL);
      if (written > 0)
        sent += static_cast<std::size_t>(written);
      else if (written < 0 && errno != EAGAIN && errno != EINTR)
      {
        disconnect();
        continue;
      }
    }
    if (sent == out.size())
    {
      out.clear();
      sent = 0;
      if (closing) disconnect();
    }
    else if (sent > (4u << 20))
    {
      out.erase(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(sent));
      sent = 0;
    }
  }
  if (client >= 0) disconnect();
}

debug::ListReply largeGraph(int count, const std::string& prefix)
{
  debug::ListReply list;
  list.scenario = "large";
  const double none = std::nan("");
  for (int i = 0; i < count; ++i)
  {
    const std::string module = "Module" + std::to_string(i / 10);
    list.representations.push_back(
        {prefix + std::to_string(i), module, {{"value", "float", "", none, none, ""}}});
    if (i % 10 == 0) list.modules.push_back({module, true, {}, {}, {}, {}});
    auto& entry = list.modules.back();
    entry.provides.push_back(list.representations.back().name);
    if (i >= 10) entry.requires_.push_back(list.representations[static_cast<std::size_t>(i - 10)].name);
  }
  return list;
}

debug::RepresentationEntry knownRepresentation(const std::string& name)
{
  registerFrameworkRepresentations();
  const auto& registry = RepresentationRegistry::instance();
  const int id = registry.find(name);
  if (id < 0) throw std::runtime_error("FakeRobot: no representation " + name);
  return {name, "Framework", registry.info(static_cast<RepresentationId>(id)).describe()};
}

std::vector<char> defaultPayload(const std::string& name)
{
  registerFrameworkRepresentations();
  const auto& registry = RepresentationRegistry::instance();
  const int id = registry.find(name);
  if (id < 0) throw std::runtime_error("FakeRobot: no representation " + name);
  const auto representation = static_cast<RepresentationId>(id);
  const RepresentationObject object = registry.create(representation);
  std::vector<char> payload;
  registry.info(representation).saveBinary(object.get(), payload);
  return payload;
}

double residentMegabytes()
{
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.starts_with("VmRSS:")) return std::stod(line.substr(6)) / 1024;
  return 0;
}
} // namespace nao::gui::test
