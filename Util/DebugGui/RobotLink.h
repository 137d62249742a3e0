#pragma once
// One connection to a robot's debug channel on a thread of its own, so that the GUI never waits on the network.
// The GUI queues requests (each runs on the link's thread with the DebugClient and answers with a function the
// GUI runs) and collects decoded samples; both are drained by the GUI's timer (pump()). The link's thread does
// bounded work per round (one request, at most a batch of samples), so requests and the stop are looked at
// however fast a robot sends, and the samples waiting for the GUI are bounded.
#include "Framework/DebugMessages.h"
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace nao
{
class DebugClient;
}

namespace nao::gui
{
/// One received sample of a representation with its numeric leaves (text of the leaves that are not numbers is
/// dropped), in the order of the representation's field list.
struct Sample
{
  std::string representation;
  std::uint32_t frameNumber = 0;
  double time = 0; ///< s
  std::uint64_t dropped = 0;
  std::vector<std::pair<std::string, std::string>> values; ///< leaf path, text as the tools print it
};

/// The number a leaf's text stands for: numbers, bools as 0/1, enums ("enum:a|b|c") as their index; nothing for
/// strings.
std::optional<double> numericValue(const std::string& text, const std::string& type);

/// Decodes a Data message with this binary's representation table; nothing if the type is unknown here.
std::optional<Sample> decodeSample(const debug::Data& data);

struct LinkTarget
{
  std::string host = "127.0.0.1";
  std::uint16_t port = 7070;
  std::string token;
  double waitSeconds = 0; ///< keep retrying the connection this long (a robot binary that is still starting)
};

class RobotLink
{
public:
  using Request = std::function<std::function<void()>(DebugClient&)>; ///< runs on the link thread

  /// Starts connecting at once; `onConnected` (list reply) or `onError` run on the GUI thread in pump().
  RobotLink(LinkTarget target, std::function<void(const debug::ListReply&)> onConnected,
            std::function<void(const std::string&)> onError);
  ~RobotLink();

  /// Queues a request; its result function runs on the GUI thread in pump().
  void post(Request request);
  /// Subscriptions are reference counted by the views that need them.
  /// rateHz 0: every frame; a later retain with a higher rate subscribes again at that rate.
  void retain(const std::string& representation, float rateHz = 0);
  void release(const std::string& representation);
  /// Runs finished results on the calling (GUI) thread and returns the samples received since the last call.
  std::vector<Sample> pump();

  bool connected() const { return connected_; }
  const LinkTarget& target() const { return target_; }
  std::uint64_t samplesReceived() const { return samplesReceived_; }
  /// Samples the robot could not send because this connection fell behind (its subscription rings were full).
  std::uint64_t dropped() const { return dropped_; }
  /// Samples waiting for the GUI thread are at most this many (a few seconds of every subscription at 83 Hz): when
  /// the GUI falls behind, the oldest are discarded and counted.
  static constexpr std::size_t maxQueuedSamples = 4096;
  std::size_t queuedSamples();
  /// Samples discarded here because the GUI thread did not collect them in time.
  std::uint64_t samplesDiscarded() const { return samplesDiscarded_; }
  /// Samples of a known representation whose payload did not decode (dropped, the link goes on).
  std::uint64_t samplesUndecodable() const { return samplesUndecodable_; }

private:
  void run();
  /// The connection and the robot's list of representations, retried until waitSeconds; none after an error,
  /// which is reported through onError.
  std::unique_ptr<DebugClient> connect();
  /// Up to a batch of samples, decoded and queued; waits `timeout` for the first.
  void receiveSamples(DebugClient& client, std::chrono::milliseconds timeout);
  void fail(const std::string& message); ///< reported through onError on the GUI's thread

  LinkTarget target_;
  std::function<void(const debug::ListReply&)> onConnected_;
  std::function<void(const std::string&)> onError_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Request> requests_;
  std::vector<std::function<void()>> results_;
  std::deque<Sample> samples_;
  struct Subscription
  {
    int count = 0;
    float rateHz = 0;
  };
  std::map<std::string, Subscription> subscriptions_; ///< GUI thread only
  std::atomic<bool> stop_{false}, connected_{false};
  std::atomic<std::uint64_t> samplesReceived_{0}, dropped_{0}, samplesDiscarded_{0}, samplesUndecodable_{0};
  std::thread thread_;
};
} // namespace nao::gui
