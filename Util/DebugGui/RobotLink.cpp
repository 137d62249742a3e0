#include "Util/DebugGui/RobotLink.h"
#include "Framework/Client/DebugClient.h"
#include <charconv>
#include <cstdlib>

namespace nao::gui
{
std::optional<double> numericValue(const std::string& text, const std::string& type)
{
  if (type == "bool") return text == "true" ? 1.0 : 0.0;
  if (type.starts_with("enum:"))
  {
    std::size_t index = 0, begin = 5;
    while (begin <= type.size())
    {
      const std::size_t end = std::min(type.find('|', begin), type.size());
      if (type.compare(begin, end - begin, text) == 0) return static_cast<double>(index);
      ++index;
      begin = end + 1;
    }
    return std::nullopt;
  }
  if (type == "string" || text.empty()) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  return value;
}

std::optional<Sample> decodeSample(const debug::Data& data)
{
  const auto& registry = RepresentationRegistry::instance();
  const int id = registry.find(data.representation);
  if (id < 0) return std::nullopt;
  const RepresentationInfo& info = registry.info(static_cast<RepresentationId>(id));
  RepresentationObject object = registry.create(static_cast<RepresentationId>(id));
  info.loadBinary(data.payload, object.get());
  return Sample{data.representation, data.frameNumber, data.time, data.dropped, info.values(object.get())};
}

RobotLink::RobotLink(LinkTarget target, std::function<void(const debug::ListReply&)> onConnected,
                     std::function<void(const std::string&)> onError)
    : target_(std::move(target)), onConnected_(std::move(onConnected)), onError_(std::move(onError)),
      thread_([this] { run(); })
{
}

RobotLink::~RobotLink()
{
  stop_ = true;
  wake_.notify_all();
  thread_.join();
}

void RobotLink::post(Request request)
{
  {
    std::lock_guard lock(mutex_);
    requests_.push_back(std::move(request));
  }
  wake_.notify_all();
}

void RobotLink::retain(const std::string& representation, float rateHz)
{
  Subscription& subscription = subscriptions_[representation];
  const auto faster = [](float a, float b) { return (a <= 0 && b > 0) || (a > 0 && b > 0 && a > b); };
  const bool subscribe = subscription.count++ == 0 || faster(rateHz, subscription.rateHz);
  if (!subscribe) return;
  subscription.rateHz = rateHz;
  post(
      [representation, rateHz, this](DebugClient& client) -> std::function<void()>
      {
        const debug::Reply reply = client.subscribe(representation, rateHz);
        if (reply.ok) return {};
        return [this, message = reply.message] { onError_(message); };
      });
}

void RobotLink::release(const std::string& representation)
{
  auto found = subscriptions_.find(representation);
  if (found == subscriptions_.end() || --found->second.count > 0) return;
  subscriptions_.erase(found);
  post(
      [representation](DebugClient& client) -> std::function<void()>
      {
        client.unsubscribe(representation);
        return {};
      });
}

std::size_t RobotLink::queuedSamples()
{
  std::lock_guard lock(mutex_);
  return samples_.size();
}

std::vector<Sample> RobotLink::pump()
{
  std::vector<std::function<void()>> results;
  std::deque<Sample> samples;
  {
    std::lock_guard lock(mutex_);
    results.swap(results_);
    samples.swap(samples_);
  }
  // A result that throws must not lose the others, nor leave the Qt slot that pumps (Qt aborts then).
  for (auto& result : results)
    try
    {
      if (result) result();
    }
    catch (const std::exception& error)
    {
      onError_(std::string("internal error: ") + error.what());
    }
  return {std::make_move_iterator(samples.begin()), std::make_move_iterator(samples.end())};
}

void RobotLink::run()
{
  std::unique_ptr<DebugClient> client = connect();
  if (!client) return;
  while (!stop_)
  {
    Request request;
    bool requestsWait = false;
    {
      std::lock_guard lock(mutex_);
      if (!requests_.empty())
      {
        request = std::move(requests_.front());
        requests_.pop_front();
      }
      requestsWait = !requests_.empty();
    }
    try
    {
      if (request)
      {
        auto result = request(*client);
        std::lock_guard lock(mutex_);
        results_.push_back(std::move(result));
      }
      // Samples arrive at up to 83 Hz per subscription; when none has arrived, a short wait (5 ms) keeps requests
      // responsive.
      receiveSamples(*client, std::chrono::milliseconds(request || requestsWait ? 0 : 5));
    }
    catch (const std::exception& error)
    {
      connected_ = false;
      return fail(std::string("connection lost: ") + error.what());
    }
  }
}

void RobotLink::fail(const std::string& message)
{
  std::lock_guard lock(mutex_);
  results_.push_back([this, message] { onError_(message); });
}

std::unique_ptr<DebugClient> RobotLink::connect()
{
  const std::string where = target_.host + ":" + std::to_string(target_.port);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(target_.waitSeconds);
  while (!stop_)
  {
    try
    {
      auto client =
          std::make_unique<DebugClient>(target_.host, target_.port, target_.token, std::chrono::seconds(3));
      const debug::ListReply list = client->list();
      connected_ = true;
      std::lock_guard lock(mutex_);
      results_.push_back([this, list] { onConnected_(list); });
      return client;
    }
    catch (const DebugConnectionRefused& refused) // the robot said why: no point in retrying
    {
      fail(where + ": " + refused.what());
      return nullptr;
    }
    catch (const network::ConnectionClosedError&)
    {
      // The connection was made, then closed: the robot wants a (different) token.
      fail(where + " closed the connection before answering: wrong or missing token (--token)?");
      return nullptr;
    }
    catch (const std::exception& error)
    {
      if (std::chrono::steady_clock::now() >= deadline)
      {
        fail(where + ": " + error.what());
        return nullptr;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  return nullptr;
}

void RobotLink::receiveSamples(DebugClient& client, std::chrono::milliseconds timeout)
{
  // A robot that sends faster than this thread decodes gets a batch per round; then requests and the stop are
  // looked at again.
  constexpr int samplesPerRound = 256;
  for (int i = 0; i < samplesPerRound && !stop_; ++i)
  {
    const auto data = client.nextData(timeout);
    if (!data) break;
    timeout = std::chrono::milliseconds(0);
    ++samplesReceived_;
    dropped_ = std::max<std::uint64_t>(dropped_, data->dropped);
    std::optional<Sample> sample;
    try
    {
      sample = decodeSample(*data);
    }
    catch (const std::exception&) // a payload that is not the representation: dropped and counted
    {
      ++samplesUndecodable_;
    }
    if (!sample) continue;
    std::lock_guard lock(mutex_);
    if (samples_.size() >= maxQueuedSamples)
    {
      samples_.pop_front();
      ++samplesDiscarded_;
    }
    samples_.push_back(std::move(*sample));
    if (!requests_.empty()) break;
  }
}
} // namespace nao::gui
