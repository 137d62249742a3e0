// serve --control's commands without physics: what each line answers, that a paused loop lets exactly the stepped
// frames through, and the speed a real-time run paces at. (The GUI's --sim test drives the same commands against
// the simulator and the robot binary.)
#include "Util/Simulator/Run/SimulationControl.h"
#include <chrono>
#include <functional>
#include <gtest/gtest.h>
#include <mutex>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace nao;

namespace
{
struct Reports
{
  std::mutex mutex;
  std::vector<std::string> lines;
  std::function<void(const std::string&)> sink()
  {
    return [this](const std::string& line)
    {
      std::lock_guard lock(mutex);
      lines.push_back(line);
    };
  }
};
} // namespace

TEST(SimulationControl, BadLinesGetAnErrorNamingTheLineAndWhatIsWrong)
{
  Reports reports;
  SimulationControl control(reports.sink(), true);
  EXPECT_EQ(control.execute("frobnicate", 3), "error: line 3: 'frobnicate': unknown command (pause | resume "
                                              "| step [frames] | speed <factor> | status | truth <hz> | " +
                                                  std::string(controlEventSyntax) + ")");
  EXPECT_EQ(control.execute("speed 9", 4),
            "error: line 4: 'speed 9': speed takes a factor of real time from 0.1 to 4.0");
  EXPECT_EQ(control.execute("speed fast", 5),
            "error: line 5: 'speed fast': speed takes a factor of real time from 0.1 to 4.0");
  EXPECT_EQ(control.execute("step", 6), "error: line 6: 'step': pause first (the simulation is running)");
  EXPECT_EQ(control.execute("step -1", 7),
            "error: line 7: 'step -1': step takes a whole number of LoLA frames from 1 to 100000");
  EXPECT_EQ(control.execute("pause now", 8), "error: line 8: 'pause now': wrong arguments (pause | resume | "
                                             "step [frames] | speed <factor> | status | truth <hz>)");
  EXPECT_EQ(control.execute("   ", 9), std::nullopt) << "an empty line is no command";
  EXPECT_DOUBLE_EQ(control.speed(), 1.0) << "a refused speed changes nothing";
  EXPECT_EQ(control.execute("speed 2x", 10), "speed 2x");
  EXPECT_EQ(control.execute("speed 0.1", 11), "speed 0.1x");
  EXPECT_DOUBLE_EQ(control.speed(), 0.1);
  SimulationControl lockStep(reports.sink(), false);
  EXPECT_EQ(lockStep.execute("speed 2", 1),
            "error: line 1: 'speed 2': a lock-step simulation runs as fast as its "
            "client answers (serve without --lockstep for real time)");
  EXPECT_EQ(lockStep.execute("status", 2), "status running, frame 0 (0.000 s), speed lock-step");
}

TEST(SimulationControl, TruthIsSentAtTheAskedRateOnlyWhereTheRunHasAnOutputForIt)
{
  Reports reports;
  SimulationControl control(reports.sink(), false);
  EXPECT_EQ(control.execute("truth 25", 1), "error: line 1: 'truth 25': this run sends no truth");
  std::vector<std::string> truths;
  control.setTruthOutput([&](const std::string& line) { truths.push_back(line); });
  EXPECT_FALSE(control.truthDue(0)) << "off until asked";
  EXPECT_EQ(control.execute("truth 25", 2), "truth every 3 frames (27.8 Hz)");
  EXPECT_TRUE(control.truthDue(0));
  EXPECT_FALSE(control.truthDue(1));
  EXPECT_TRUE(control.truthDue(3));
  EXPECT_EQ(control.execute("truth 1000", 3),
            "error: line 3: 'truth 1000': truth takes a rate from 0 (off) to 83.3 Hz");
  EXPECT_EQ(control.execute("truth nan", 4),
            "error: line 4: 'truth nan': truth takes a rate from 0 (off) to 83.3 Hz");
  EXPECT_TRUE(control.truthDue(3)) << "a refused rate changes nothing";
  EXPECT_EQ(control.execute("truth 100", 5),
            "error: line 5: 'truth 100': truth takes a rate from 0 (off) to 83.3 Hz");
  EXPECT_EQ(control.execute("truth 83.3", 6), "truth every 1 frames (83.3 Hz)");
  EXPECT_EQ(control.execute("truth 0", 7), "truth off");
  EXPECT_FALSE(control.truthDue(0));
}

TEST(SimulationControl, APausedLoopRunsExactlyTheSteppedFrames)
{
  Reports reports;
  SimulationControl control(reports.sink(), true);
  std::atomic<std::uint64_t> frames{0};
  std::atomic<bool> stop{false};
  std::vector<SimulationControl::Frame> kinds;
  std::thread loop(
      [&]
      {
        for (std::uint64_t frame = 0;; ++frame)
        {
          const auto kind =
              control.awaitFrame(frame, 0.012 * static_cast<double>(frame), [&] { return stop.load(); });
          if (kind == SimulationControl::Frame::stop) return;
          kinds.push_back(kind);
          frames = frame + 1;
          if (frame == 50) control.execute("pause", 1); // the loop itself pauses, at a known frame
        }
      });
  const auto waitForReports = [&](std::size_t count)
  {
    while (true)
    {
      {
        std::lock_guard lock(reports.mutex);
        if (reports.lines.size() >= count) return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  };
  waitForReports(1);
  EXPECT_EQ(reports.lines[0], "paused at frame 51 (0.612 s)");
  EXPECT_EQ(frames.load(), 51u);
  EXPECT_EQ(control.execute("status", 2), "status paused, frame 51 (0.612 s), speed 1x");
  EXPECT_EQ(control.execute("step", 3), std::nullopt);
  waitForReports(2);
  EXPECT_EQ(reports.lines[1], "paused at frame 52 (0.624 s)");
  EXPECT_EQ(control.execute("step 10", 4), std::nullopt);
  waitForReports(3);
  EXPECT_EQ(reports.lines[2], "paused at frame 62 (0.744 s)");
  EXPECT_EQ(frames.load(), 62u);
  stop = true;
  loop.join();
  ASSERT_EQ(kinds.size(), 62u);
  for (std::size_t i = 0; i < kinds.size(); ++i)
    EXPECT_EQ(kinds[i], i < 51 ? SimulationControl::Frame::run : SimulationControl::Frame::step) << i;
}

TEST(SimulationControl, APausedLoopWaitsUntilResumedAndRunsOnAtTheSetSpeed)
{
  Reports reports;
  SimulationControl control(reports.sink(), true);
  control.execute("pause", 1);
  EXPECT_EQ(control.execute("speed 4", 2), "speed 4x");
  std::atomic<int> kind{-1};
  std::thread loop([&] { kind = static_cast<int>(control.awaitFrame(7, 0.084, {})); });
  while (true)
  {
    {
      std::lock_guard lock(reports.mutex);
      if (!reports.lines.empty()) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(reports.lines[0], "paused at frame 7 (0.084 s)");
  EXPECT_EQ(kind.load(), -1) << "reported paused, so still waiting";
  EXPECT_EQ(control.execute("resume", 3), "running at 4x from frame 7 (0.084 s)");
  loop.join();
  EXPECT_EQ(kind.load(), static_cast<int>(SimulationControl::Frame::run));
  EXPECT_FALSE(control.paused());
  EXPECT_DOUBLE_EQ(control.speed(), 4.0);
}

namespace
{
/// Waits up to 10 s for `done`.
bool within10s(const std::function<bool()>& done)
{
  for (int i = 0; i < 1000 && !done(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return done();
}
} // namespace

TEST(ControlInput, AHugeLineIsRefusedWithoutBeingKeptOrEchoedAndTheNextLineWorks)
{
  // A 16 MB line took 12 s and came back whole; 32 MB were not consumed in 90 s (a quadratic newline search).
  Reports reports;
  SimulationControl control(reports.sink(), true);
  int pipeEnds[2];
  ASSERT_EQ(::pipe(pipeEnds), 0);
  {
    ControlInput input(pipeEnds[0], control, reports.sink());
    std::thread writer(
        [&]
        {
          const std::string chunk(1 << 20, 'x');
          for (int i = 0; i < 32; ++i)
            ASSERT_EQ(::write(pipeEnds[1], chunk.data(), chunk.size()), static_cast<ssize_t>(chunk.size()));
          const std::string next = "\nstatus\n";
          ASSERT_EQ(::write(pipeEnds[1], next.data(), next.size()), static_cast<ssize_t>(next.size()));
        });
    writer.join();
    EXPECT_TRUE(within10s(
        [&]
        {
          std::lock_guard lock(reports.mutex);
          return reports.lines.size() >= 2;
        }));
    ::close(pipeEnds[1]);
  }
  ::close(pipeEnds[0]);
  ASSERT_EQ(reports.lines.size(), 2u);
  EXPECT_EQ(reports.lines[0], "error: line 1: longer than 1024 bytes: ignored up to its end");
  EXPECT_NE(reports.lines[1].find("frame 0"), std::string::npos)
      << "line 2, status, answered: " << reports.lines[1];
  for (const std::string& line : reports.lines)
    EXPECT_LT(line.size(), 200u);
}

TEST(ControlInput, AControllerThatLeavesAPausedRunResumesIt)
{
  // A paused serve --control whose controller had gone kept the simulator and its robot binary up for good.
  Reports reports;
  SimulationControl control(reports.sink(), true);
  int pipeEnds[2];
  ASSERT_EQ(::pipe(pipeEnds), 0);
  {
    ControlInput input(pipeEnds[0], control, reports.sink());
    ASSERT_EQ(::write(pipeEnds[1], "pause\n", 6), 6);
    EXPECT_TRUE(within10s([&] { return control.paused(); }));
    ::close(pipeEnds[1]); // the controller is gone
    EXPECT_TRUE(within10s([&] { return !control.paused(); }));
  }
  ::close(pipeEnds[0]);
  std::lock_guard lock(reports.mutex);
  ASSERT_FALSE(reports.lines.empty());
  EXPECT_NE(reports.lines.back().find("control input ended while paused"), std::string::npos)
      << reports.lines.back();
}

TEST(SimulationControl, BadEventLinesGetAnErrorAndQueueNothing)
{
  // serve --control's events (ControlEvents.h): an unknown button or joint, a number out of its range, NaN, a
  // missing or surplus argument. Bodies, presets, variants and faults are checked by the run (ControlEventsTests).
  Reports reports;
  SimulationControl control(reports.sink(), false);
  const std::string pushUsage =
      "push <fx> <fy> [<fz>] [for <s>] [at <body>]: force in N, world frame, each of "
      "-500..500, for 0..10 s (default 0.1)";
  EXPECT_EQ(control.execute("push 45", 1), "error: line 1: 'push 45': " + pushUsage);
  EXPECT_EQ(control.execute("push 45 nan", 2),
            "error: line 2: 'push 45 nan': 'nan' is not a number in its range: " + pushUsage);
  EXPECT_EQ(control.execute("push 600 0", 3),
            "error: line 3: 'push 600 0': '600' is not a number in its range: " + pushUsage);
  EXPECT_EQ(control.execute("push 45 0 0 for 0", 4),
            "error: line 4: 'push 45 0 0 for 0': '0' is not a number in its range: " + pushUsage);
  EXPECT_EQ(control.execute("push 45 0 at", 5), "error: line 5: 'push 45 0 at': " + pushUsage);
  EXPECT_EQ(control.execute("press knee", 6),
            "error: line 6: 'press knee': unknown button 'knee' (chest, head-front, head-middle, head-rear)");
  EXPECT_EQ(
      control.execute("press chest inf", 7),
      "error: line 7: 'press chest inf': 'inf' is not a number in its range: press <button> [<s>] (0..60, "
      "default 0.2), the buttons: chest, head-front, head-middle, head-rear");
  EXPECT_EQ(control.execute("hold chest 1", 8),
            "error: line 8: 'hold chest 1': hold <button>, the buttons: chest, "
            "head-front, head-middle, head-rear");
  EXPECT_EQ(control.execute("battery 1.5", 9),
            "error: line 9: 'battery 1.5': '1.5' is not a number in its range: battery <charge>: 0..1");
  EXPECT_EQ(control.execute("battery NaN", 10),
            "error: line 10: 'battery NaN': 'NaN' is not a number in its range: battery <charge>: 0..1");
  EXPECT_EQ(control.execute("drain 0", 11),
            "error: line 11: 'drain 0': '0' is not a number in its range: drain "
            "<s>: the battery empty within 0..86400 s");
  EXPECT_EQ(control.execute("temperature LKnee 70", 12).value_or("").substr(0, 72),
            "error: line 12: 'temperature LKnee 70': unknown joint 'LKnee' (HeadYaw, ");
  EXPECT_EQ(control.execute("temperature LKneePitch 200", 13),
            "error: line 13: 'temperature LKneePitch 200': '200' is not a number in its range: temperature "
            "<joint> <degC>: a joint of LoLA's (HeadYaw .. RHand) and 0..150 degC");
  EXPECT_EQ(control.execute("preset", 14),
            "error: line 14: 'preset': preset <name> (normal: none; Sim/robots.toml)");
  EXPECT_EQ(control.execute("fault", 15),
            "error: line 15: 'fault': fault <name> | fault clear (Sim/faults.toml)");
  EXPECT_EQ(control.execute("pickup now", 16), "error: line 16: 'pickup now': pickup takes no arguments");
  std::vector<ControlEvent> events;
  control.takeEvents(events);
  EXPECT_TRUE(events.empty()) << "a refused line changes nothing";
  EXPECT_TRUE(reports.lines.empty());
}

TEST(SimulationControl, EventLinesAreQueuedInOrderAndWrittenBackAsTheLineThatRepeatsThem)
{
  Reports reports;
  SimulationControl control(reports.sink(), false);
  const std::vector<std::string> lines = {"push 45 0",        "push -10 5 2.5 for 0.25 at Head",
                                          "pickup",           "putdown",
                                          "press head-front", "hold chest",
                                          "release chest",    "battery 0.5",
                                          "drain 600",        "temperature RKneePitch 65.5",
                                          "preset worn",      "variant none",
                                          "fault gyroStuck5", "fault clear",
                                          "restart"};
  for (std::size_t k = 0; k < lines.size(); ++k)
    EXPECT_EQ(control.execute(lines[k], k + 1), std::nullopt) << lines[k] << ": the run loop answers";
  std::vector<ControlEvent> events;
  control.takeEvents(events);
  ASSERT_EQ(events.size(), lines.size());
  const std::vector<std::string> repeated = {"push 45 0 0 for 0.1 at torso",
                                             "push -10 5 2.5 for 0.25 at Head",
                                             "pickup",
                                             "putdown",
                                             "press head-front 0.2",
                                             "hold chest",
                                             "release chest",
                                             "battery 0.5",
                                             "drain 600",
                                             "temperature RKneePitch 65.5",
                                             "preset worn",
                                             "variant none",
                                             "fault gyroStuck5",
                                             "fault clear",
                                             "restart"};
  for (std::size_t k = 0; k < events.size(); ++k)
  {
    EXPECT_EQ(controlLine(events[k]), repeated[k]);
    EXPECT_EQ(events[k].line, k + 1);
    EXPECT_EQ(events[k].text, lines[k]);
  }
  control.takeEvents(events);
  EXPECT_TRUE(events.empty()) << "taken once";
}
