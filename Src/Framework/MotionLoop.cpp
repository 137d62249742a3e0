#include "Framework/MotionLoop.h"
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <time.h>

namespace nao
{
namespace
{
/// ns on the monotonic clock; clock_gettime goes through the vDSO, no system call.
std::uint64_t nowNs()
{
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}

std::uint32_t clampToU32(std::uint64_t value)
{
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(value, 0xffffffffu));
}
} // namespace

MotionLoop::MotionLoop(Blackboard& blackboard, Body& body)
    : blackboard_(blackboard),
      body_(body), sensors_{blackboard.get<FrameInfo>(),         blackboard.get<JointSensorData>(),
                            blackboard.get<FsrSensorData>(),     blackboard.get<InertialSensorData>(),
                            blackboard.get<BatteryData>(),       blackboard.get<TouchData>(),
                            blackboard.get<UnreadableReadings>()},
      request_(blackboard.get<JointRequest>()), moduleTimes_(blackboard.get<ModuleTimes>()),
      frameInfo_(blackboard.get<FrameInfo>())
{
  moduleTimes_.windowFrames = timingWindow;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    lowerLimits_[j] = -std::numeric_limits<float>::infinity();
    upperLimits_[j] = std::numeric_limits<float>::infinity();
  }
}

void MotionLoop::retire(const MotionCommand& command)
{
  // The controller keeps at most queueCapacity commands unanswered, so this cannot fail; if a caller broke that
  // rule, the object would leak rather than the motion thread blocking.
  if (!retired_.push(command)) retireDrops_.fetch_add(1, std::memory_order_relaxed);
}

void MotionLoop::applyCommands()
{
  while (auto command = commands_.pop())
    std::visit([this](const auto& message) { apply(message); }, *command);
}

void MotionLoop::apply(const InstallSchedule& command)
{
  Schedule* old = schedule_;
  schedule_ = command.schedule;
  for (RepresentationId id : schedule_->resetOnInstall)
    blackboard_.resetToDefault(id);
  moduleTimes_.count =
      static_cast<std::uint16_t>(std::min(schedule_->timeSlotNames.size(), ModuleTimes::capacity));
  for (std::size_t i = 0; i < moduleTimes_.count; ++i)
    moduleTimes_.modules[i] = ModuleTime{std::string_view(schedule_->timeSlotNames[i]), 0, 0, 0};
  windowFill_ = 0;
  windowCompleted_ = false;
  retire(InstallSchedule{old});
}

void MotionLoop::apply(const SwapParameters& command)
{
  void* old = command.module->exchangeParameters(command.parameters);
  retire(SwapParameters{command.module, old});
}

void MotionLoop::apply(const AddTap& command)
{
  if (numTaps_ < maxTaps)
  {
    taps_[numTaps_++] = command.tap;
    retire(command);
  }
  else
    retire(RemoveTap{command.tap});
}

void MotionLoop::apply(const RemoveTap& command)
{
  auto end = taps_.begin() + static_cast<std::ptrdiff_t>(numTaps_);
  if (std::remove(taps_.begin(), end, command.tap) != end) --numTaps_;
  retire(command);
}

void MotionLoop::apply(const StopMotion& command)
{
  stopRequested_ = true;
  retire(command);
}

void MotionLoop::setOutputLimits(const JointArray<float>& lower, const JointArray<float>& upper)
{
  lowerLimits_ = lower;
  upperLimits_ = upper;
}

void MotionLoop::guardOutput()
{
  std::uint64_t corrections = 0;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const float reading =
        std::clamp(std::isfinite(sensors_.joints.angles[j]) ? sensors_.joints.angles[j] : 0.f,
                   lowerLimits_[j], upperLimits_[j]);
    float angle = request_.angles[j];
    if (!std::isfinite(angle))
    {
      angle = outputValid_ ? output_.angles[j] : reading; // hold instead of jumping
      ++corrections;
    }
    const float clamped = std::clamp(angle, lowerLimits_[j], upperLimits_[j]);
    corrections += clamped != angle;
    float stiffness = request_.stiffnesses[j];
    if (!std::isfinite(stiffness))
    {
      stiffness = outputValid_ ? output_.stiffnesses[j] : 0.f;
      ++corrections;
    }
    output_.angles[j] = clamped;
    output_.stiffnesses[j] = std::clamp(stiffness, 0.f, 1.f);
  }
  outputValid_ = true;
  if (corrections) outputCorrections_.fetch_add(corrections, std::memory_order_relaxed);
}

bool MotionLoop::runFrame()
{
  applyCommands();
  if (stopRequested_ || !body_.waitForSensors(sensors_)) return false;
  const std::uint64_t frameStart = nowNs();
  std::fill_n(slotNs_.begin(), moduleTimes_.count, 0);
  if (schedule_)
  {
    std::uint64_t before = frameStart;
    for (const ScheduleStep& step : schedule_->steps)
    {
      step.update(*step.module, step.outputs.data());
      const std::uint64_t after = nowNs();
      slotNs_[step.timeSlot] += after - before;
      before = after;
    }
  }
  guardOutput();
  body_.send(output_);
  if (schedule_)
    for (RepresentationId id : schedule_->snapshots)
      blackboard_.snapshot(id);
  feedTaps();
  recordTimes(frameStart, nowNs());
  frames_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

void MotionLoop::run()
{
  while (runFrame())
  {
  }
}

void MotionLoop::feedTaps()
{
  for (std::size_t t = 0; t < numTaps_; ++t)
  {
    Tap& tap = *taps_[t];
    if (frameInfo_.frameNumber % tap.everyNthFrame != 0) continue;
    TapRecord* record = tap.ring.beginWrite();
    if (!record)
    {
      tap.dropped.fetch_add(1, std::memory_order_relaxed);
      continue;
    }
    record->frameNumber = frameInfo_.frameNumber;
    record->time = frameInfo_.time;
    const auto& registry = RepresentationRegistry::instance();
    for (std::size_t i = 0; i < tap.ids.size(); ++i)
      registry.info(tap.ids[i]).copy(record->objects[i].get(), blackboard_.current(tap.ids[i]));
    tap.ring.commitWrite();
    tap.copied.fetch_add(1, std::memory_order_relaxed);
  }
}

void MotionLoop::recordTimes(std::uint64_t frameStart, std::uint64_t frameEnd)
{
  // The last slot is the framework's own overhead: the frame minus the modules.
  const std::size_t slots = moduleTimes_.count;
  if (slots == 0) return;
  std::uint64_t modulesNs = 0;
  for (std::size_t i = 0; i + 1 < slots; ++i)
    modulesNs += slotNs_[i];
  const std::uint64_t frameNs = frameEnd - frameStart;
  slotNs_[slots - 1] = frameNs > modulesNs ? frameNs - modulesNs : 0;
  moduleTimes_.frameNs = clampToU32(frameNs);
  for (std::size_t i = 0; i < slots; ++i)
  {
    moduleTimes_.modules[i].lastNs = clampToU32(slotNs_[i]);
    window_[i][windowFill_] = moduleTimes_.modules[i].lastNs;
  }
  ++windowFill_;
  const bool full = windowFill_ == timingWindow;
  // Statistics of each full window. Until the first one is full, of the frames so far (refreshed at 1, 2, 4, 8
  // and then every 16 frames), so that a short run still shows a median and a maximum.
  const bool early = !windowCompleted_ && (windowFill_ % 16 == 0 || std::has_single_bit(windowFill_));
  if (!full && !early) return;
  const std::uint16_t frames = windowFill_;
  std::array<std::uint32_t, timingWindow> sorted;
  for (std::size_t i = 0; i < slots; ++i)
  {
    std::copy_n(window_[i].begin(), frames, sorted.begin());
    auto middle = sorted.begin() + frames / 2;
    std::nth_element(sorted.begin(), middle, sorted.begin() + frames);
    moduleTimes_.modules[i].medianNs = *middle;
    moduleTimes_.modules[i].maxNs = *std::max_element(sorted.begin(), sorted.begin() + frames);
  }
  moduleTimes_.windowFrames = frames;
  if (full)
  {
    windowFill_ = 0;
    windowCompleted_ = true;
  }
}
} // namespace nao
