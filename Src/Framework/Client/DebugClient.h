#pragma once
// Talks to the robot's debug channel: list, parameters, providers, subscriptions, logs. Blocking with
// timeouts.
#include "Framework/DebugMessages.h"
#include "Tools/Network/Client.h"
#include <chrono>
#include <deque>
#include <stdexcept>

namespace nao
{
/// The robot refused this client (a `refused` frame: wrong or missing token); what() holds the robot's reason.
struct DebugConnectionRefused : std::runtime_error
{
  using std::runtime_error::runtime_error;
};

class DebugClient
{
public:
  /// Connects, and presents `token` first when it is not empty. Throws std::runtime_error.
  DebugClient(const std::string& host, std::uint16_t port, const std::string& token = {},
              std::chrono::milliseconds timeout = std::chrono::seconds(5));

  debug::ListReply list();
  /// A module's parameters as TOML text; throws with the robot's message when refused.
  debug::Parameters parameters(const std::string& module);
  debug::Reply setParameter(const std::string& module, const std::string& key, const std::string& value);
  debug::Reply setProvider(const std::string& representation, const std::string& provider);
  debug::Reply subscribe(const std::string& representation, float rateHz);
  debug::Reply unsubscribe(const std::string& representation);
  debug::Reply startLog(const std::string& path);
  debug::Reply stopLog();
  /// Records `text` in the robot's running log at the current frame; refused when no log runs.
  debug::Reply annotate(const std::string& text);
  /// The next streamed sample, or nothing within the timeout (0: only what has arrived). Replies arriving meanwhile
  /// are skipped.
  std::optional<debug::Data> nextData(std::chrono::milliseconds timeout);

  network::FrameClient& connection() { return client_; }
  /// Samples that arrived while a request waited for its answer are kept for nextData(), at most this many: beyond
  /// it the oldest is dropped and counted (a robot that floods must not grow the client without bound).
  static constexpr std::size_t maxPendingData = 4096;
  std::size_t pendingData() const { return pendingData_.size(); }
  std::uint64_t pendingDropped() const { return pendingDropped_; }

private:
  template<class Request>
  void send(debug::MessageType type, const Request& request);
  /// Sends a request that the robot answers with a Reply; a refusal or no answer is a Reply with ok == false.
  template<class Request>
  debug::Reply request(debug::MessageType type, const Request& message);
  /// Waits for a frame of `type` (or a Reply, which then is an error for typed requests); data frames are
  /// queued.
  network::Frame await(debug::MessageType type);
  /// Throws the robot's reason for refusing the token (a `refused` frame) as DebugConnectionRefused.
  [[noreturn]] static void throwRefused(const network::Frame& frame);

  network::FrameClient client_;
  std::chrono::milliseconds timeout_;
  std::deque<debug::Data> pendingData_;
  std::uint64_t pendingDropped_ = 0;
  std::vector<char> buffer_;
};
} // namespace nao
