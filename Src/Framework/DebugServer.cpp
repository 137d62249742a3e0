#include "Framework/DebugServer.h"
#include "Framework/LogMetadata.h"
#include "Tools/BinaryIO/BoundedArchive.h"
#include <algorithm>
#include <cmath>
#include <ctime>

namespace nao
{
LogPathChoice chooseLogPath(const std::filesystem::path& logDirectory, const std::string& name,
                            const std::string& scenario)
{
  std::filesystem::path relative = name;
  if (name.empty())
  {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &utc);
    relative = scenario + "-" + stamp + ".log";
  }
  if (relative.is_absolute() || relative.has_root_name())
    return {{},
            "log '" + name + "': give a name inside the log directory " + logDirectory.string() +
                ", not an absolute path"};
  const std::filesystem::path normal = relative.lexically_normal();
  if (normal.empty() || *normal.begin() == ".." || normal.filename().empty())
    return {{}, "log '" + name + "': the name leaves the log directory " + logDirectory.string()};
  std::filesystem::path path = logDirectory / normal;
  // A symbolic link inside the folder must not lead out of it either.
  std::error_code error;
  const auto folder = std::filesystem::weakly_canonical(logDirectory, error);
  const auto target = std::filesystem::weakly_canonical(path, error);
  const auto [folderEnd, targetAt] =
      std::mismatch(folder.begin(), folder.end(), target.begin(), target.end());
  if (error || folderEnd != folder.end())
    return {{}, "log '" + name + "': the name leaves the log directory " + logDirectory.string()};
  if (std::filesystem::exists(std::filesystem::symlink_status(path)))
    return {{}, "log '" + path.string() + "' exists; logs are never overwritten"};
  return {path, ""};
}

using debug::MessageType;

namespace
{
/// The unit of a parameter key path as its file has it: the leaf's, or the one all leaves under the key share
/// ("" when dimensionless or mixed).
std::string unitOfKey(const ModuleInfo& module, const std::string& key)
{
  if (!module.parameters) return {};
  std::string unit;
  bool first = true;
  for (const FieldDescription& field : module.parameters->fields)
    if (field.path == key || field.path.starts_with(key + ".") || field.path.starts_with(key + "["))
    {
      if (!first && field.unit != unit) return {};
      unit = field.unit;
      first = false;
    }
  return unit;
}
} // namespace

DebugServer::DebugServer(const DebugSettings& settings, Controller& controller, Logger& logger)
    : controller_(controller), logDirectory_(settings.logDirectory), logger_(logger),
      server_(
          [&]
          {
            network::ServerConfig config;
            config.host = settings.bind;
            config.port = settings.port;
            config.token = settings.token;
            config.helloMessageType = static_cast<std::uint16_t>(MessageType::hello);
            config.refusedMessageType = static_cast<std::uint16_t>(MessageType::refused);
            return config;
          }(),
          network::ServerCallbacks{
              {},
              [this](network::ConnectionId client, std::uint16_t type, std::span<const char> payload)
              { onFrame(client, type, payload); },
              [this](network::ConnectionId client, network::DisconnectReason) { onDisconnected(client); }})
{
}

DebugServer::~DebugServer()
{
  for (const Subscription& subscription : subscriptions_)
    controller_.removeTap(subscription.tap);
}

template<class T>
void DebugServer::send(network::ConnectionId client, MessageType type, const T& message)
{
  binaryio::serializeInto(buffer_, message);
  server_.send(client, static_cast<std::uint16_t>(type), buffer_);
}

void DebugServer::reply(network::ConnectionId client, bool ok, std::string message)
{
  send(client, MessageType::reply, debug::Reply{ok, std::move(message)});
}

debug::ListReply DebugServer::list() const
{
  return describeModuleGraph(controller_);
}

void DebugServer::onFrame(network::ConnectionId client, std::uint16_t type, std::span<const char> payload)
{
  try
  {
    switch (static_cast<MessageType>(type))
    {
    case MessageType::listRequest:
      return answerList(client);
    case MessageType::subscribe:
      return subscribe(client, payload);
    case MessageType::unsubscribe:
      return unsubscribe(client, payload);
    case MessageType::getParameters:
      return answerParameters(client, payload);
    case MessageType::setParameter:
      return setParameter(client, payload);
    case MessageType::setProvider:
      return setProvider(client, payload);
    case MessageType::logStart:
      return startLog(client, payload);
    case MessageType::logStop:
      return stopLog(client);
    case MessageType::annotate:
      return annotateLog(client, payload);
    case MessageType::hello: // a token presented to a robot that requires none: nothing to check
      break;
    default:
      ++badMessages_;
      return reply(client, false, "unknown message type " + std::to_string(type));
    }
  }
  catch (const std::exception& error)
  {
    ++badMessages_;
    reply(client, false, std::string("bad message of type ") + std::to_string(type) + ": " + error.what());
  }
}

void DebugServer::answerList(network::ConnectionId client)
{
  // Everything in the reply but the plan's part is fixed at start-up: serialized once per plan.
  if (listReplyPlan_ != controller_.planVersion() || listReply_.empty())
  {
    binaryio::serializeInto(listReply_, list());
    listReplyPlan_ = controller_.planVersion();
  }
  server_.send(client, static_cast<std::uint16_t>(MessageType::listReply), listReply_);
}

void DebugServer::subscribe(network::ConnectionId client, std::span<const char> payload)
{
  const auto request = binaryio::deserialize<debug::Subscribe>(payload);
  const int id = RepresentationRegistry::instance().find(request.representation);
  if (id < 0)
    return reply(client, false, "'" + request.representation + "' is not a representation of this binary");
  if (!std::isfinite(request.rateHz) || request.rateHz < 0)
    return reply(client, false, "subscription rate must be a finite number of Hz >= 0");
  const auto everyNth = request.rateHz <= 0 || request.rateHz >= frameRateHz
                            ? 1u
                            : static_cast<std::uint32_t>(std::lround(frameRateHz / request.rateHz));
  const bool replaces = std::erase_if(subscriptions_,
                                      [&](const Subscription& s)
                                      {
                                        const bool same = s.client == client && s.tap->ids.front() == id;
                                        if (same) controller_.removeTap(s.tap);
                                        return same;
                                      }) > 0;
  const auto own = std::count_if(subscriptions_.begin(), subscriptions_.end(),
                                 [&](const Subscription& s) { return s.client == client; });
  if (!replaces && static_cast<std::size_t>(own) >= maxSubscriptionsPerClient)
    return reply(client, false,
                 "refused: a client may hold " + std::to_string(maxSubscriptionsPerClient) +
                     " subscriptions at once; unsubscribe one first");
  if (!replaces && subscriptions_.size() >= maxSubscriptions)
    return reply(client, false,
                 "refused: the robot serves " + std::to_string(maxSubscriptions) +
                     " subscriptions at once (all clients together); try again later");
  auto tap = controller_.addTap({static_cast<RepresentationId>(id)}, everyNth, subscriptionRing);
  if (!tap) return reply(client, false, "refused: the motion thread feeds as many subscriptions as it can");
  subscriptions_.push_back({client, std::move(tap)});
  subscriptionsGranted_.fetch_add(1, std::memory_order_relaxed);
  reply(client, true,
        "subscribed to " + request.representation + " every " + std::to_string(everyNth) + " frame(s)");
}

void DebugServer::unsubscribe(network::ConnectionId client, std::span<const char> payload)
{
  const auto request = binaryio::deserialize<debug::Name>(payload);
  const int id = RepresentationRegistry::instance().find(request.name);
  std::size_t removed = std::erase_if(subscriptions_,
                                      [&](const Subscription& s)
                                      {
                                        const bool same = s.client == client && s.tap->ids.front() == id;
                                        if (same) controller_.removeTap(s.tap);
                                        return same;
                                      });
  reply(client, removed > 0, removed ? "unsubscribed" : "not subscribed to '" + request.name + "'");
}

void DebugServer::answerParameters(network::ConnectionId client, std::span<const char> payload)
{
  const auto request = binaryio::deserialize<debug::Name>(payload);
  const ModuleInfo* module = ModuleRegistry::instance().find(request.name);
  if (!module) return reply(client, false, "'" + request.name + "' is not a module of this binary");
  send(client, MessageType::parameters,
       debug::Parameters{request.name, controller_.parametersText(request.name),
                         module->parameters ? module->parameters->fields : std::vector<FieldDescription>{}});
}

void DebugServer::setParameter(network::ConnectionId client, std::span<const char> payload)
{
  const auto request = binaryio::deserialize<debug::SetParameter>(payload);
  const std::string error = controller_.setParameter(request.module, request.key, request.value);
  if (!error.empty()) return reply(client, false, error);
  // A log being written records the module's parameters as they are now, with the frame they apply from.
  if (logger_.status().active)
    logger_.noteParameters(request.module, controller_.parametersText(request.module));
  // The value is in the file's unit (degrees, mA, ms, ...): the reply names it.
  const ModuleInfo* module = ModuleRegistry::instance().find(request.module);
  reply(client, true,
        streams::labelWithUnit(request.module + "." + request.key,
                               module ? unitOfKey(*module, request.key) : "") +
            " = " + request.value);
}

void DebugServer::setProvider(network::ConnectionId client, std::span<const char> payload)
{
  const auto request = binaryio::deserialize<debug::SetProvider>(payload);
  const std::string error = controller_.setProvider(request.representation, request.provider);
  reply(client, error.empty(),
        error.empty()
            ? request.representation + " = " + request.provider + "\n" + controller_.plan().describe()
            : error);
}

void DebugServer::startLog(network::ConnectionId client, std::span<const char> payload)
{
  const auto request = binaryio::deserialize<debug::Name>(payload);
  if (controller_.loggedRepresentations().empty())
    return reply(client, false, "the scenario lists no representations under [Log]");
  const LogPathChoice choice = chooseLogPath(logDirectory_, request.name, controller_.scenarioName());
  if (!choice.error.empty()) return reply(client, false, choice.error);
  const std::string error = logger_.start(controller_, choice.path, controller_.loggedRepresentations());
  reply(client, error.empty(), error.empty() ? "logging to " + choice.path.string() : error);
}

void DebugServer::stopLog(network::ConnectionId client)
{
  const LogStatus before = logger_.status();
  logger_.stop(controller_);
  const LogStatus after = logger_.status();
  reply(client, before.active,
        before.active ? "log closed: " + after.path + ", " + std::to_string(after.framesWritten) +
                            " frames, " + std::to_string(after.framesDropped) + " dropped"
        : before.lastError.empty()
            ? "no log is being written"
            : "no log is being written: " + before.path + " failed after " +
                  std::to_string(before.framesWritten) + " frames: " + before.lastError);
}

void DebugServer::annotateLog(network::ConnectionId client, std::span<const char> payload)
{
  auto request = binaryio::deserialize<debug::Name>(payload);
  if (request.name.empty()) return reply(client, false, "annotate: give the text to record");
  const std::string path = logger_.status().path;
  if (!logger_.noteText(request.name))
    return reply(client, false, "no log is being written: nothing records the annotation (log start first)");
  reply(client, true, "annotated " + path + ": " + request.name);
}

void DebugServer::onDisconnected(network::ConnectionId client)
{
  std::erase_if(subscriptions_,
                [&](const Subscription& s)
                {
                  if (s.client == client) controller_.removeTap(s.tap);
                  return s.client == client;
                });
}

void DebugServer::streamSubscriptions()
{
  const auto& registry = RepresentationRegistry::instance();
  debug::Data data;
  for (const Subscription& subscription : subscriptions_)
  {
    Tap& tap = *subscription.tap;
    while (TapRecord* record = tap.ring.beginRead())
    {
      data.representation = registry.info(tap.ids.front()).name;
      data.frameNumber = record->frameNumber;
      data.time = record->time;
      data.dropped = tap.dropped.load(std::memory_order_relaxed);
      data.payload.clear();
      registry.info(tap.ids.front()).saveBinary(record->objects.front().get(), data.payload);
      tap.ring.commitRead();
      send(subscription.client, MessageType::data, data);
    }
  }
}

void DebugServer::poll(int timeoutMs)
{
  server_.poll(timeoutMs);
  streamSubscriptions();
  controller_.service();
}
} // namespace nao
