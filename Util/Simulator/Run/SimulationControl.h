#pragma once
// Pause, single step and speed of a served simulation, commanded from another thread (`Simulator serve --control`
// reads them from its stdin; the debug GUI's --sim writes them there). The run loop asks awaitFrame() before every
// LoLA frame and pace() where a real-time run waits for the frame's end.
//
// Lock-step stays right because the simulator is the clock: a paused simulator sends no sensor packet, and the robot
// binary's motion thread blocks in LolaBody::waitForSensors() until the next one, so the robot's frame counter stops
// with it (its debug thread keeps serving: parameters can be edited while paused). A step is one LoLA frame exactly:
// one packet, the robot's answer to it waited for as in lock-step (at most the server's answer timeout), then 12 ms
// of physics.
//
// Commands, one a line: `pause`, `resume`, `step [frames]` (1..100000, only while paused), `speed <factor>` (0.1 to
// 4 times real time, real-time runs only; "2" or "2x"), `status`. Replies are lines (without a prefix; the caller
// adds "control: "): "paused at frame N (T s)" when a pause or a step has taken effect, "running at Fx",
// "speed Fx", "status paused|running, frame N (T s), speed Fx", or "error: line L: '<line>': <what>". Frame N
// counts the LoLA packets sent so far: the robot's FrameInfo.frameNumber of the last one is N − 1.
//
// Event commands (ControlEvents.h: push, pickup, putdown, press, hold, release, battery, drain, temperature, preset,
// variant, fault, restart) are parsed here and queued; the run thread takes them with takeEvents() before its next
// frame and reports each as applied (or refused) with report().
#include "Util/Simulator/Run/ControlEvents.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace nao
{
class SimulationControl
{
public:
  inline static constexpr double minSpeed = 0.1, maxSpeed = 4.0; ///< times real time
  inline static constexpr std::uint64_t maxStep = 100000;        ///< frames one `step` may ask for
  inline static constexpr std::size_t maxLineBytes = 1024;       ///< a longer command line is refused unread
  inline static constexpr std::size_t maxPendingEvents = 1000;   ///< events waiting for the next frame

  /// report: receives the lines that come from the run loop (a pause or step taking effect); may be called from
  /// the run thread. realTime: whether speed applies (a lock-step run goes as fast as its client answers).
  SimulationControl(std::function<void(const std::string&)> report, bool realTime);

  /// One command line (lineNumber for the error message); returns its immediate reply, if any.
  std::optional<std::string> execute(std::string_view line, std::uint64_t lineNumber);

  enum class Frame
  {
    run,  ///< an ordinary frame
    step, ///< a single step: wait for the robot's answer, do not pace
    stop  ///< stop() became true while paused
  };
  /// Run loop, before frame `frame` (packets sent so far) at simulated time `time` (s): blocks while paused and no
  /// step is pending, checking stop() every 50 ms.
  Frame awaitFrame(std::uint64_t frame, double time, const std::function<bool()>& stop);
  /// Real-time run loop, after sending frame `frame`: sleeps until that frame's end at the current speed.
  void pace(std::uint64_t frame, double frameSeconds);

  /// Run loop, before a frame: moves the events that came since into `events` (cleared first). Never waits: when
  /// the control input holds the lock just then, the events wait for the next frame.
  void takeEvents(std::vector<ControlEvent>& events);
  /// A line from the run loop (an event applied or refused), to the same place as the others.
  void report(const std::string& line) const { report_(line); }

  /// `truth <hz>` (0: off; at most one a frame, 83 Hz): the run loop sends the simulator's ground truth
  /// (TruthLine.h) to `output` every truthEvery() frames; without an output the command is refused.
  inline static constexpr double maxTruthRate = 1.0 / 0.012; ///< Hz, one line a LoLA frame
  void setTruthOutput(std::function<void(const std::string&)> output) { truthOutput_ = std::move(output); }
  /// Whether frame `frame` (packets sent before it) is one to send the truth of.
  bool truthDue(std::uint64_t frame) const
  {
    const std::uint64_t every = truthEvery_.load();
    return every > 0 && frame % every == 0;
  }
  void sendTruth(const std::string& line) const { truthOutput_(line); }

  double speed() const;
  bool paused() const;
  /// The command input has ended (the controller is gone): a paused simulation resumes, since nobody is left to
  /// resume it. Returns the line to report, or nothing when it was running.
  std::optional<std::string> inputEnded();

private:
  std::string describeState() const; ///< with mutex_ held
  /// A command's reply (none: the run loop reports later) or what is wrong with it; with mutex_ held.
  struct CommandReply
  {
    std::optional<std::string> text;
    std::string error;
  };
  CommandReply step(const std::vector<std::string_view>& parts);
  CommandReply setSpeed(std::string_view factor);
  CommandReply setTruthRate(std::string_view hertz);

  std::function<void(const std::string&)> report_;
  const bool realTime_;
  std::vector<ControlEvent> pending_; ///< events parsed, not yet taken by the run loop
  std::function<void(const std::string&)> truthOutput_;
  std::atomic<std::uint64_t> truthEvery_{0}; ///< frames between truth lines; 0: none
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool paused_ = false, pauseReported_ = false;
  std::uint64_t steps_ = 0; ///< frames still to step
  double speed_ = 1.0;      ///< times real time
  std::uint64_t frame_ = 0; ///< packets sent before the frame the loop is at
  double time_ = 0;         ///< s, simulated time there
  bool reanchor_ = true;    ///< pacing restarts from the next frame (start, speed change, resume)
  std::uint64_t anchorFrame_ = 0;
  std::chrono::steady_clock::time_point anchorWall_;
};

/// Reads command lines from a file descriptor (serve --control: stdin) on a thread of its own and hands them to a
/// SimulationControl; replies go to `report`. End of input stops the reading, not the run (a paused run resumes).
/// A line longer than SimulationControl::maxLineBytes is refused without being kept or echoed. Joined on
/// destruction.
class ControlInput
{
public:
  ControlInput(int fd, SimulationControl& control, std::function<void(const std::string&)> report);
  ~ControlInput();
  ControlInput(const ControlInput&) = delete;
  ControlInput& operator=(const ControlInput&) = delete;

private:
  void read(int fd, SimulationControl& control);
  std::function<void(const std::string&)> report_;
  std::atomic<bool> done_{false};
  std::thread thread_;
};
} // namespace nao
