#include "Util/Simulator/Run/SimulationControl.h"
#include <charconv>
#include <cmath>
#include <cstdio>
#include <poll.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace nao
{
namespace
{
std::vector<std::string_view> words(std::string_view line)
{
  std::vector<std::string_view> result;
  std::size_t i = line.find_first_not_of(" \t\r");
  while (i != std::string_view::npos)
  {
    const std::size_t end = line.find_first_of(" \t\r", i);
    result.push_back(line.substr(i, end - i));
    i = end == std::string_view::npos ? end : line.find_first_not_of(" \t\r", end);
  }
  return result;
}

std::string number(double value, int decimals)
{
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string speedText(double speed)
{
  char text[32];
  std::snprintf(text, sizeof text, "%gx", speed);
  return text;
}
} // namespace

SimulationControl::SimulationControl(std::function<void(const std::string&)> report, bool realTime)
    : report_(std::move(report)), realTime_(realTime)
{
}

std::string SimulationControl::describeState() const
{
  return "frame " + std::to_string(frame_) + " (" + number(time_, 3) + " s)";
}

std::optional<std::string> SimulationControl::execute(std::string_view line, std::uint64_t lineNumber)
{
  const std::vector<std::string_view> parts = words(line);
  if (parts.empty()) return std::nullopt;
  const auto error = [&](const std::string& what)
  {
    // Quoted in part: the reply names the line, it does not echo a flood back.
    const std::string quoted =
        line.size() <= 80 ? std::string(line) : std::string(line.substr(0, 77)) + "...";
    return "error: line " + std::to_string(lineNumber) + ": '" + quoted + "': " + what;
  };
  const std::string_view command = parts[0];
  if (auto event = parseControlEvent(parts))
  {
    if (!event->event) return error(event->error);
    event->event->line = lineNumber;
    event->event->text = line;
    std::lock_guard lock(mutex_);
    if (pending_.size() >= maxPendingEvents)
      return error(std::to_string(maxPendingEvents) + " events wait for the next frame already");
    pending_.push_back(std::move(*event->event));
    return std::nullopt; // the run loop says when it applied it
  }
  std::lock_guard lock(mutex_);
  if (command == "pause" && parts.size() == 1)
  {
    if (!paused_) pauseReported_ = false; // the loop reports where it stopped
    paused_ = true;
    return std::nullopt;
  }
  if (command == "resume" && parts.size() == 1)
  {
    paused_ = false;
    steps_ = 0;
    reanchor_ = true;
    wake_.notify_all();
    return "running at " + speedText(speed_) + " from " + describeState();
  }
  const auto answer = [&](const CommandReply& reply)
  { return reply.error.empty() ? reply.text : error(reply.error); };
  if (command == "step" && parts.size() <= 2) return answer(step(parts));
  if (command == "speed" && parts.size() == 2) return answer(setSpeed(parts[1]));
  if (command == "truth" && parts.size() == 2) return answer(setTruthRate(parts[1]));
  if (command == "status" && parts.size() == 1)
    return std::string("status ") + (paused_ ? "paused" : "running") + ", " + describeState() + ", speed " +
           (realTime_ ? speedText(speed_) : std::string("lock-step"));
  if (command == "pause" || command == "resume" || command == "step" || command == "speed" ||
      command == "status" || command == "truth")
    return error("wrong arguments (pause | resume | step [frames] | speed <factor> | status | truth <hz>)");
  return error(
      std::string(
          "unknown command (pause | resume | step [frames] | speed <factor> | status | truth <hz> | ") +
      controlEventSyntax + ")");
}

SimulationControl::CommandReply SimulationControl::step(const std::vector<std::string_view>& parts)
{
  std::uint64_t frames = 1;
  if (parts.size() == 2)
  {
    const auto [end, status] = std::from_chars(parts[1].data(), parts[1].data() + parts[1].size(), frames);
    if (status != std::errc() || end != parts[1].data() + parts[1].size() || frames < 1 || frames > maxStep)
      return {{}, "step takes a whole number of LoLA frames from 1 to " + std::to_string(maxStep)};
  }
  if (!paused_) return {{}, "pause first (the simulation is running)"};
  if (steps_ > 0) return {{}, "the last step has not finished (" + std::to_string(steps_) + " frames to go)"};
  steps_ = frames;
  pauseReported_ = false;
  wake_.notify_all();
  return {};
}

SimulationControl::CommandReply SimulationControl::setSpeed(std::string_view text)
{
  if (text.ends_with('x')) text.remove_suffix(1);
  double speed = 0;
  const auto [end, status] = std::from_chars(text.data(), text.data() + text.size(), speed);
  if (status != std::errc() || end != text.data() + text.size() || !(speed >= minSpeed && speed <= maxSpeed))
    return {{},
            "speed takes a factor of real time from " + number(minSpeed, 1) + " to " + number(maxSpeed, 1)};
  if (!realTime_)
    return {
        {},
        "a lock-step simulation runs as fast as its client answers (serve without --lockstep for real time)"};
  speed_ = speed;
  reanchor_ = true;
  return {"speed " + speedText(speed_), {}};
}

SimulationControl::CommandReply SimulationControl::setTruthRate(std::string_view text)
{
  double rate = 0;
  const auto [end, status] = std::from_chars(text.data(), text.data() + text.size(), rate);
  if (status != std::errc() || end != text.data() + text.size() || !(rate >= 0 && rate <= maxTruthRate))
    return {{}, "truth takes a rate from 0 (off) to " + number(maxTruthRate, 1) + " Hz"};
  if (!truthOutput_) return {{}, "this run sends no truth"};
  if (rate == 0)
  {
    truthEvery_ = 0;
    return {"truth off", {}};
  }
  const auto every =
      std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::llround(maxTruthRate / rate)));
  truthEvery_ = every;
  return {"truth every " + std::to_string(every) + " frames (" + number(maxTruthRate / every, 1) + " Hz)",
          {}};
}

SimulationControl::Frame SimulationControl::awaitFrame(std::uint64_t frame, double time,
                                                       const std::function<bool()>& stop)
{
  std::unique_lock lock(mutex_);
  frame_ = frame;
  time_ = time;
  while (paused_)
  {
    if (steps_ > 0)
    {
      --steps_;
      return Frame::step;
    }
    if (!pauseReported_)
    {
      pauseReported_ = true;
      const std::string line = "paused at " + describeState();
      lock.unlock();
      report_(line);
      lock.lock();
      continue;
    }
    wake_.wait_for(lock, std::chrono::milliseconds(50));
    if (stop && stop()) return Frame::stop;
  }
  return Frame::run;
}

void SimulationControl::pace(std::uint64_t frame, double frameSeconds)
{
  std::unique_lock lock(mutex_);
  if (reanchor_)
  {
    reanchor_ = false;
    anchorWall_ = std::chrono::steady_clock::now();
    anchorFrame_ = frame;
  }
  const auto end =
      anchorWall_ +
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(
          static_cast<double>(frame + 1 - anchorFrame_) * frameSeconds / speed_));
  lock.unlock();
  std::this_thread::sleep_until(end);
}

void SimulationControl::takeEvents(std::vector<ControlEvent>& events)
{
  events.clear();
  std::unique_lock lock(mutex_, std::try_to_lock);
  if (lock.owns_lock()) events.swap(pending_);
}

double SimulationControl::speed() const
{
  std::lock_guard lock(mutex_);
  return speed_;
}

bool SimulationControl::paused() const
{
  std::lock_guard lock(mutex_);
  return paused_;
}

std::optional<std::string> SimulationControl::inputEnded()
{
  std::lock_guard lock(mutex_);
  if (!paused_) return std::nullopt;
  paused_ = false;
  steps_ = 0;
  reanchor_ = true;
  wake_.notify_all();
  return "control input ended while paused: running on from " + describeState() +
         " (nobody is left to resume it)";
}

ControlInput::ControlInput(int fd, SimulationControl& control, std::function<void(const std::string&)> report)
    : report_(std::move(report)), thread_([this, fd, &control] { read(fd, control); })
{
}

ControlInput::~ControlInput()
{
  done_ = true;
  thread_.join();
}

void ControlInput::read(int fd, SimulationControl& control)
{
  std::string pending;   // at most maxLineBytes: the start of the line being read
  bool skipping = false; // the line being read is too long: dropped up to its newline
  std::uint64_t lineNumber = 0;
  char buffer[4096];
  while (!done_)
  {
    pollfd entry{fd, POLLIN, 0};
    if (::poll(&entry, 1, 100) <= 0) continue; // 100 ms: how soon the destructor's join returns
    const ssize_t size = ::read(fd, buffer, sizeof buffer);
    if (size <= 0) // end of input (or an error): the run goes on as it is, and not paused
    {
      if (const auto reply = control.inputEnded()) report_(*reply);
      return;
    }
    // Each byte is looked at once: a long line costs its length, not its length squared.
    for (const char byte : std::string_view(buffer, static_cast<std::size_t>(size)))
    {
      if (byte == '\n')
      {
        ++lineNumber;
        if (!skipping)
          if (const auto reply = control.execute(pending, lineNumber)) report_(*reply);
        pending.clear();
        skipping = false;
      }
      else if (skipping)
        continue;
      else if (pending.size() == SimulationControl::maxLineBytes)
      {
        skipping = true;
        pending.clear();
        report_("error: line " + std::to_string(lineNumber + 1) + ": longer than " +
                std::to_string(SimulationControl::maxLineBytes) + " bytes: ignored up to its end");
      }
      else
        pending += byte;
    }
  }
}
} // namespace nao
