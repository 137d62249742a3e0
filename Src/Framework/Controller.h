#pragma once
// The non-real-time side of the motion thread: resolves the module graph, creates modules, loads and
// validates parameters, and hands schedules, parameter objects and taps to the MotionLoop. Everything that
// allocates happens here; the motion thread only swaps pointers at a frame boundary. Used from one thread at
// a time (start-up, then the debug thread).
#include "Framework/ConfigFiles.h"
#include "Framework/ModuleContext.h"
#include "Framework/ModuleGraph.h"
#include "Framework/MotionLoop.h"
#include "Framework/Scenario.h"
#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <toml++/toml.h>

namespace nao
{
class Controller
{
public:
  Controller(ConfigLocation config, Blackboard& blackboard, MotionLoop& motion);
  ~Controller();

  /// Resolves the scenario's [Motion] choices and installs the first schedule; modules load what they declare
  /// in Loads<> from the robot's files and the scenario file. Throws StartupError, also for a representation set
  /// off that the joint request is computed from (the live switch refuses it too: the robot would collapse).
  void start(const Scenario& scenario);
  /// The same for a module graph made in code (tests, benchmarks): there is no scenario file to load from, and a
  /// graph without a motion source is allowed.
  void start(const std::vector<ProviderChoice>& choices, const std::string& scenarioName);

  /// Live switch of one representation's provider (a module name or "off"). Returns an error text, empty on
  /// success; on error nothing changes.
  std::string setProvider(const std::string& representation, const std::string& provider);
  /// Live parameter edit: keyPath like "thresholds.LKneePitch", value in TOML syntax ("0.3", "[1, 2]").
  /// Validated as a file would be; returns an error text, empty on success; on error the old value stays.
  std::string setParameter(const std::string& module, const std::string& keyPath,
                           const std::string& valueToml);
  /// The module's parameters as TOML text in file units (throws StartupError if the module or its file is
  /// unknown).
  std::string parametersText(const std::string& module);

  /// A tap the motion thread feeds from its next frame, or nullptr when it already feeds MotionLoop::maxTaps
  /// (or as many are still being removed after waiting 1 s for them).
  std::shared_ptr<Tap> addTap(std::vector<RepresentationId> ids, std::uint32_t everyNthFrame,
                              std::size_t capacity);
  /// The motion thread lets go of the tap; it is freed once it has (service()). Once per tap; a tap that is not
  /// live is ignored.
  void removeTap(const std::shared_ptr<Tap>& tap);
  /// True until the motion thread has let go of the tap (call service() to learn of it).
  bool tapAttached(const Tap* tap) const;

  /// Frees what the motion thread let go of. Call regularly (the debug thread does).
  void service();

  const ExecutionPlan& plan() const { return plan_; }
  /// Counts the plans installed: a changed number means plan() changed (the debug server's list reply keeps
  /// its bytes until then).
  std::uint64_t planVersion() const { return planVersion_; }
  const std::vector<ProviderChoice>& choices() const { return choices_; }
  std::string scenarioName() const { return scenarioName_; }
  /// The robot's Loads<> inputs (after start()): what modules share, e.g. the RobotDescription.
  LoadedInputs& loadedInputs() { return *loaded_; }
  /// Taps (subscriptions, logs) attached to the motion thread or on their way in or out: at most
  /// MotionLoop::maxTaps attached or on their way in, and as many on their way out.
  std::size_t liveTapCount() const { return liveTaps_.size(); }
  /// Commands posted to the motion thread and not yet answered: at most MotionLoop::queueCapacity.
  std::size_t unansweredCommands() const { return unanswered_; }
  /// What the scenario's [Log] table lists: the representations a log started later records.
  void setLoggedRepresentations(std::vector<std::string> names) { logged_ = std::move(names); }
  const std::vector<std::string>& loggedRepresentations() const { return logged_; }
  /// After the motion thread has ended, commands are carried out here at once (nobody else will). The motion
  /// thread calls it itself after its last frame, so that a flood of requests cannot keep this thread waiting.
  void motionStopped() { motionStopped_.store(true, std::memory_order_release); }
  /// How a call waits for the motion thread to take or answer a command (a full queue, taps on their way out, a
  /// log's tap): it sleeps `pause` while the motion thread runs on its own. A single-threaded driver that runs the
  /// motion loop itself (the debug channel fuzzer) sets a wait that runs a motion frame instead: the wait then
  /// ends at once, after the same frames every time.
  void waitForMotion(std::chrono::milliseconds pause);
  void setMotionWait(std::function<void()> wait) { motionWait_ = std::move(wait); }
  static std::vector<FixedProvider> fixedProviders();

private:
  void start(const std::vector<ProviderChoice>& choices, const std::string& scenarioName,
             bool refuseDroppingTheRequest);
  /// The robot's folder exists, and every overlay in Config/Robots/<robot>/Modules/ names a module with
  /// parameters and loads over its defaults and file, whether the module runs in this scenario or not. Throws
  /// StartupError.
  void checkRobotFiles();
  const toml::table& shadowParameters(const ModuleInfo& module);
  std::shared_ptr<ModuleBase> createModule(const ModuleInfo& module);
  void install(const ExecutionPlan& plan, std::map<std::string, std::shared_ptr<ModuleBase>> instances);
  void post(const MotionCommand& command);

  ConfigLocation config_;
  Blackboard& blackboard_;
  MotionLoop& motion_;
  std::unique_ptr<LoadedInputs> loaded_; ///< created by start(); outlives the modules that point into it
  std::string scenarioName_;
  std::vector<ProviderChoice> choices_;
  ExecutionPlan plan_;
  std::uint64_t planVersion_ = 0;
  std::map<std::string, std::shared_ptr<ModuleBase>> instances_; ///< the modules of the current plan
  std::map<std::string, toml::table> shadows_;                   ///< current parameter tables (file units)
  std::vector<std::unique_ptr<Schedule>> schedules_;             ///< installed or pending, freed when retired
  struct LiveTap
  {
    std::shared_ptr<Tap> tap; ///< kept alive until the motion thread has let go of it
    bool removing = false;    ///< RemoveTap posted
  };
  std::vector<LiveTap> liveTaps_; ///< attached to the motion thread, or on their way in or out
  std::size_t unanswered_ = 0;    ///< commands posted and not yet retired
  std::vector<std::string> logged_;
  std::atomic<bool> motionStopped_{false};
  std::function<void()> motionWait_; ///< empty: sleep (the motion thread runs on its own)
};
} // namespace nao
