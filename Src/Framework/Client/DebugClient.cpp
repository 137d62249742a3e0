#include "Framework/Client/DebugClient.h"
#include "Tools/BinaryIO/BoundedArchive.h"

namespace nao
{
using debug::MessageType;

DebugClient::DebugClient(const std::string& host, std::uint16_t port, const std::string& token,
                         std::chrono::milliseconds timeout)
    : client_(host, port, timeout), timeout_(timeout)
{
  registerFrameworkRepresentations();
  if (!token.empty())
    client_.sendFrame(static_cast<std::uint16_t>(MessageType::hello), std::span(token.data(), token.size()));
}

template<class Request>
void DebugClient::send(MessageType type, const Request& request)
{
  binaryio::serializeInto(buffer_, request);
  client_.sendFrame(static_cast<std::uint16_t>(type), buffer_, timeout_);
}

network::Frame DebugClient::await(MessageType type)
{
  const auto deadline = std::chrono::steady_clock::now() + timeout_;
  while (std::chrono::steady_clock::now() < deadline)
  {
    auto frame = client_.receiveFrame(
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()));
    if (!frame) break;
    const auto received = static_cast<MessageType>(frame->messageType);
    if (received == MessageType::data)
    {
      if (pendingData_.size() >= maxPendingData)
      {
        pendingData_.pop_front();
        ++pendingDropped_;
      }
      pendingData_.push_back(binaryio::deserialize<debug::Data>(frame->payload));
      continue;
    }
    if (received == type) return std::move(*frame);
    if (received == MessageType::reply)
      throw std::runtime_error(binaryio::deserialize<debug::Reply>(frame->payload).message);
    if (received == MessageType::refused) throwRefused(*frame);
  }
  throw std::runtime_error("the robot did not answer within " + std::to_string(timeout_.count()) + " ms");
}

debug::ListReply DebugClient::list()
{
  send(MessageType::listRequest, debug::Empty{});
  return binaryio::deserialize<debug::ListReply>(await(MessageType::listReply).payload);
}

debug::Parameters DebugClient::parameters(const std::string& module)
{
  send(MessageType::getParameters, debug::Name{module});
  return binaryio::deserialize<debug::Parameters>(await(MessageType::parameters).payload);
}

template<class Request>
debug::Reply DebugClient::request(MessageType type, const Request& message)
{
  send(type, message);
  try
  {
    return binaryio::deserialize<debug::Reply>(await(MessageType::reply).payload);
  }
  catch (const std::runtime_error& error)
  {
    return debug::Reply{false, error.what()};
  }
}

debug::Reply DebugClient::setParameter(const std::string& module, const std::string& key,
                                       const std::string& value)
{
  return request(MessageType::setParameter, debug::SetParameter{module, key, value});
}

debug::Reply DebugClient::setProvider(const std::string& representation, const std::string& provider)
{
  return request(MessageType::setProvider, debug::SetProvider{representation, provider});
}

debug::Reply DebugClient::subscribe(const std::string& representation, float rateHz)
{
  return request(MessageType::subscribe, debug::Subscribe{representation, rateHz});
}

debug::Reply DebugClient::unsubscribe(const std::string& representation)
{
  return request(MessageType::unsubscribe, debug::Name{representation});
}

debug::Reply DebugClient::startLog(const std::string& path)
{
  return request(MessageType::logStart, debug::Name{path});
}

debug::Reply DebugClient::stopLog()
{
  return request(MessageType::logStop, debug::Empty{});
}

debug::Reply DebugClient::annotate(const std::string& text)
{
  return request(MessageType::annotate, debug::Name{text});
}

void DebugClient::throwRefused(const network::Frame& frame)
{
  throw DebugConnectionRefused(
      "the robot refused the connection: " + std::string(frame.payload.begin(), frame.payload.end()) +
      " (--token must be the robot's debugToken, Config/settings.toml)");
}

std::optional<debug::Data> DebugClient::nextData(std::chrono::milliseconds timeout)
{
  if (!pendingData_.empty())
  {
    debug::Data data = std::move(pendingData_.front());
    pendingData_.pop_front();
    return data;
  }
  // At least one look at what arrived, also with a timeout of 0 (take what is there, never wait).
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  do
  {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    auto frame = client_.receiveFrame(std::max(left, std::chrono::milliseconds(0)));
    if (!frame) return std::nullopt;
    if (static_cast<MessageType>(frame->messageType) == MessageType::data)
      return binaryio::deserialize<debug::Data>(frame->payload);
    if (static_cast<MessageType>(frame->messageType) == MessageType::refused) throwRefused(*frame);
  } while (std::chrono::steady_clock::now() < deadline);
  return std::nullopt;
}
} // namespace nao
