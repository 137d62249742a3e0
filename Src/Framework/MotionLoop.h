#pragma once
// The motion thread's frame loop: body packet -> modules in dependency order -> body answer -> taps. It owns
// no decisions: schedules, parameters and taps are prepared by the Controller on another thread and handed
// over through a lock-free queue; they take effect at the next frame boundary. Nothing here blocks (except
// the body's wait for its packet, which is the pace) or allocates.
#include "Framework/Blackboard.h"
#include "Framework/ModuleBase.h"
#include "Framework/Tap.h"
#include "Platform/Body.h"
#include "Representations/Infrastructure/ModuleTimes.h"
#include <array>
#include <memory>
#include <variant>

namespace nao
{
/// One module's update in a frame.
struct ScheduleStep
{
  ModuleBase* module;
  UpdateFunction update;
  /// Where each output of the module's Provides<> goes: its slot in the blackboard, or a scratch object of the
  /// Schedule when this plan takes it from another provider (or sets it `off`).
  std::vector<void*> outputs;
  std::uint16_t timeSlot; ///< index into ModuleTimes
};

/// Everything the motion thread executes, built outside it. Owned by the Controller.
struct Schedule
{
  /// Keeps the instances alive; never touched by the motion thread.
  std::vector<std::shared_ptr<ModuleBase>> modules;
  std::vector<ScheduleStep> steps;
  std::vector<RepresentationObject> scratch;    ///< the outputs no one reads in this plan
  std::vector<RepresentationId> resetOnInstall; ///< representations newly set `off`
  std::vector<RepresentationId> snapshots;      ///< copied to last frame's value at frame end
  std::vector<std::string> timeSlotNames;
};

// Messages between the Controller and the motion thread. Posted one way; every command comes back retired
// exactly once, in the same shape, carrying what the motion thread let go of, for the Controller to free. One
// answer per command lets the Controller keep no more commands unanswered than the retired queue holds, so a
// retired object can never be dropped (and leaked) however fast commands arrive.
struct InstallSchedule
{
  Schedule* schedule = nullptr; ///< posted: the new one; retired: the one it replaced (nullptr: none)
};
struct SwapParameters
{
  ModuleBase* module = nullptr;
  void* parameters = nullptr; ///< posted: the new ones; retired: the old ones
};
/// Retired as AddTap once the tap is fed, or as RemoveTap if it was refused (beyond maxTaps).
struct AddTap
{
  Tap* tap = nullptr;
};
/// Retired once the motion thread no longer touches the tap.
struct RemoveTap
{
  Tap* tap = nullptr;
};
/// Ends run() after the current frame (retired as it is).
struct StopMotion
{
};
using MotionCommand = std::variant<StopMotion, InstallSchedule, SwapParameters, AddTap, RemoveTap>;

class MotionLoop
{
public:
  static constexpr std::size_t maxTaps = 33; ///< the debug channel's subscriptions, a log, the health report
  /// Commands the queue to the motion thread holds, and retired answers the queue back holds.
  static constexpr std::size_t queueCapacity = 256;
  static constexpr std::uint16_t timingWindow = 128; ///< frames per ModuleTimes statistics window

  MotionLoop(Blackboard& blackboard, Body& body);

  /// One frame. Returns false when the body has ended or a stop command arrived.
  bool runFrame();
  /// Frames until the body ends or stop is posted.
  void run();

  /// Controller side (one producer thread at a time). False when the queue is full: retry later. The caller
  /// must keep at most queueCapacity commands unanswered by takeRetired(), or answers are dropped (counted).
  bool post(const MotionCommand& command) { return commands_.push(command); }

  /// The motors' angle range (rad; hands 0..1). Every frame's answer is kept inside it and free of NaN
  /// whatever any module computed: a non-finite angle or stiffness repeats the last one sent (at start-up the
  /// reading, itself clamped), and every angle is clamped. Set before the motion thread starts; default: no
  /// clamp, NaN safety only.
  void setOutputLimits(const JointArray<float>& lower, const JointArray<float>& upper);
  /// Values of answers the guard had to change (non-finite or out of range), since start. Thread-safe.
  std::uint64_t outputCorrections() const { return outputCorrections_.load(std::memory_order_relaxed); }
  /// Controller side: the answer to each command, with the objects the motion thread has let go of; the
  /// controller frees them.
  std::optional<MotionCommand> takeRetired() { return retired_.pop(); }

  /// Only once the motion thread has ended (or before it starts): the caller becomes the consumer of
  /// commands.
  void applyCommandsWhileStopped() { applyCommands(); }

  std::uint64_t frames() const { return frames_.load(std::memory_order_relaxed); }
  /// Answers lost because the controller left more than queueCapacity commands unanswered (their objects leak).
  std::uint64_t retireDrops() const { return retireDrops_.load(std::memory_order_relaxed); }

private:
  void applyCommands();
  void guardOutput();
  void apply(const InstallSchedule& command);
  void apply(const SwapParameters& command);
  void apply(const AddTap& command);
  void apply(const RemoveTap& command);
  void apply(const StopMotion& command);
  void retire(const MotionCommand& command);
  void recordTimes(std::uint64_t frameStart, std::uint64_t frameEnd);
  void feedTaps();

  Blackboard& blackboard_;
  Body& body_;
  BodySensors sensors_;
  const JointRequest& request_;
  JointRequest output_;      ///< request_ after the guard: what the body is sent
  bool outputValid_ = false; ///< output_ holds a frame that was sent
  JointArray<float> lowerLimits_, upperLimits_;
  std::atomic<std::uint64_t> outputCorrections_{0};
  ModuleTimes& moduleTimes_;
  const FrameInfo& frameInfo_;

  Schedule* schedule_ = nullptr;
  SpscQueue<MotionCommand> commands_{queueCapacity};
  SpscQueue<MotionCommand> retired_{queueCapacity};
  std::array<Tap*, maxTaps> taps_{};
  std::size_t numTaps_ = 0;
  bool stopRequested_ = false;

  std::array<std::uint64_t, ModuleTimes::capacity> slotNs_{}; ///< this frame's time per slot
  std::array<std::array<std::uint32_t, timingWindow>, ModuleTimes::capacity> window_{};
  std::uint16_t windowFill_ = 0;
  bool windowCompleted_ = false; ///< a full window since the schedule was installed
  std::atomic<std::uint64_t> frames_{0};
  std::atomic<std::uint64_t> retireDrops_{0};
};
} // namespace nao
