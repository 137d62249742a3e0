// The present load the forecast assumes (README.md, "The present load"): the mean I² since the load last changed,
// over loadWindow (10 s) at least and cycleWindow (60 s) at most. A motion that repeats within a minute counts in
// whole cycles, whatever its phase when the forecast is read; a load that changes by more than loadChangeRatio is
// the new load within loadWindow; a smaller change is followed within cycleWindow.
#include "Framework/Testing/ModuleHarness.h"
#include "Modules/Modeling/JointThermalStateProvider/JointThermalStateProvider.h"
#include <algorithm>
#include <cmath>
#include <functional>
#include <gtest/gtest.h>
#include <vector>

using namespace nao;

namespace
{
constexpr Joint tested = Joint::RKneePitch;
constexpr double frameTime = 0.012; // s

/// The provider with the tested joint drawing `current(t)` (A) and every joint at 30 °C.
struct LoadRig
{
  ModuleHarness<JointThermalStateProvider> harness;
  double time = 0;

  LoadRig()
  {
    for (std::size_t j = 0; j < numOfJoints; ++j)
      harness.input<JointSensorData>().temperatures[j] = 30.f;
  }
  void run(double seconds, const std::function<double(double)>& current)
  {
    for (double end = time + seconds; time < end - 1e-9;)
    {
      time += frameTime;
      harness.input<FrameInfo>().time = time;
      ++harness.input<FrameInfo>().frameNumber;
      harness.input<JointSensorData>().currents[tested] = static_cast<float>(current(time));
      harness.run();
    }
  }
  void run(double seconds, double current)
  {
    run(seconds, [current](double) { return current; });
  }
  double rms() const { return harness.output<JointThermalState>().rmsCurrents[tested]; }
  double window() const { return harness.output<JointThermalState>().loadWindows[tested]; }
};

/// One cycle of a stepping-like motion (16.2 s, as Config/Scenarios/stepping.toml's): the knee carries the robot,
/// swings, stands, carries the other side.
double steppingCurrent(double t)
{
  const double phase = std::fmod(t, 16.2);
  if (phase < 3.6) return 1.5;  // the weight on this leg
  if (phase < 4.5) return 0.3;  // this leg lifted
  if (phase < 9.0) return 1.0;  // both feet
  if (phase < 12.6) return 0.5; // the weight on the other leg
  return 0.9;
}

double cycleRms()
{
  double sum = 0;
  int n = 0;
  for (double t = 0; t < 16.2; t += 0.001, ++n)
    sum += steppingCurrent(t) * steppingCurrent(t);
  return std::sqrt(sum / n);
}

/// RMS of the stepping current over the `seconds` before `end`.
double windowRms(double end, double seconds)
{
  double sum = 0;
  int n = 0;
  for (double t = end - seconds; t < end; t += 0.001, ++n)
    sum += steppingCurrent(t) * steppingCurrent(t);
  return std::sqrt(sum / n);
}
} // namespace

TEST(JointThermalLoad, ARepeatedMotionCountsWholeCyclesAtEveryPhase)
{
  LoadRig rig;
  rig.run(120.0, steppingCurrent);
  const double truth = cycleRms();
  double worst = 0, worstShort = 0;
  for (int sample = 0; sample < 54; ++sample) // a reading every 0.3 s over a cycle
  {
    rig.run(0.3, steppingCurrent);
    worst = std::max(worst, std::abs(rig.rms() - truth) / truth);
    worstShort = std::max(worstShort, std::abs(windowRms(rig.time, 10.0) - truth) / truth);
    EXPECT_NEAR(rig.window(), 60.0, 0.31) << "at " << rig.time;
  }
  std::printf("cycle RMS %.3f A: worst error of the load %.1f %%, of a 10-s mean %.1f %%\n", truth,
              100 * worst, 100 * worstShort);
  EXPECT_GT(worstShort, 0.10) << "the motion is one whose phase a 10-s mean sees";
  EXPECT_LT(worst, 0.04) << "60 s hold 3.7 cycles: the partial one is at most a few per cent";
}

TEST(JointThermalLoad, ALoadThatChangesByMoreThanTheRatioIsTheNewLoadWithinLoadWindow)
{
  for (const auto& [before, after] :
       std::vector<std::pair<double, double>>{{1.2, 0.05}, {0.3, 1.2}, {1.0, 0.0}})
  {
    SCOPED_TRACE(std::to_string(before) + " A -> " + std::to_string(after) + " A");
    LoadRig rig;
    rig.run(120.0, before);
    EXPECT_NEAR(rig.rms(), before, 0.01);
    EXPECT_NEAR(rig.window(), 60.0, 0.31);
    rig.run(10.3, after); // loadWindow and one step (0.3 s): the short window holds only the new load
    EXPECT_NEAR(rig.rms(), after, 0.01);
    EXPECT_LE(rig.window(), 10.0 + 0.31) << "the window starts over from loadWindow";
    rig.run(60.0, after); // 60 s after the change was seen (a few seconds into the new load)
    EXPECT_NEAR(rig.window(), 60.0, 0.31) << "and grows back to cycleWindow";
    EXPECT_NEAR(rig.rms(), after, 0.01);
  }
}

TEST(JointThermalLoad, ASmallerChangeIsFollowedWithinCycleWindow)
{
  LoadRig rig;
  rig.run(120.0, 1.0);
  rig.run(30.0, 1.3); // I² 1.69 times the old: below loadChangeRatio 2
  EXPECT_GT(rig.rms(), 1.05) << "half the window holds the new load";
  EXPECT_LT(rig.rms(), 1.25);
  rig.run(30.3, 1.3);
  EXPECT_NEAR(rig.rms(), 1.3, 0.01) << "60 s later the window holds only the new load";
}

namespace
{
/// A loop whose phases outlast loadWindow (a keyframe loop, the stepping of a robot that shifts its weight slowly):
/// 20 s carrying, 20 s lifted, far more than loadChangeRatio apart.
double slowLoopCurrent(double t)
{
  return std::fmod(t, 40.0) < 20.0 ? 1.5 : 0.2;
}
} // namespace

TEST(JointThermalLoad, ALoopWhosePhasesOutlastLoadWindowIsOneLoadOnceACycleWasSeen)
{
  LoadRig rig;
  rig.run(120.0, slowLoopCurrent); // the first phases are new loads; once a cycle was seen, none is
  const double truth = std::sqrt((1.5 * 1.5 + 0.2 * 0.2) / 2);
  double worst = 0, shortest = 60;
  for (int sample = 0; sample < 400; ++sample) // a reading every 0.3 s over three cycles
  {
    rig.run(0.3, slowLoopCurrent);
    worst = std::max(worst, std::abs(rig.rms() - truth) / truth);
    shortest = std::min(shortest, rig.window());
  }
  EXPECT_GT(shortest, 59.5) << "the window held through every phase";
  // 60 s hold 1.5 cycles, so up to half a cycle of one phase more: I² from (2.25·20 + 0.04·40)/60 to
  // (2.25·40 + 0.04·20)/60 against 1.145 A², 18 % below to 15 % above in RMS. Phase by phase it would be 31 % above
  // and 83 % below.
  EXPECT_LT(worst, 0.19) << "cycle RMS " << truth << " A";
  // Lifted for good: within the loop's range, so followed within cycleWindow rather than loadWindow.
  rig.run(60.3, 0.2);
  EXPECT_NEAR(rig.rms(), 0.2, 0.01);
}

TEST(JointThermalLoad, ALoadThatMovesSteadilyIsFollowedWithinTwoLoadWindows)
{
  // A joint whose load sags or grows for minutes, less than loadChangeRatio per window (a leg held in the air that
  // settles, a warming gear): I² linear from `from` to `to` A² over 180 s, read over its last 60 s. The window mean of
  // cycleWindow lags it by 30 s; the present load may lag by two loadWindows (20 s) and a step at most.
  for (const auto& [start, end] : std::vector<std::pair<double, double>>{{2.7, 1.0}, {0.6, 2.0}})
  {
    const double from = start,
                 to = end; // a lambda captures no structured binding before C++20's P1091 in clang 14
    SCOPED_TRACE(std::to_string(from) + " A² -> " + std::to_string(to) + " A²");
    const double slope = (to - from) / 180.0; // A²/s
    const auto squared = [&](double t) { return from + slope * std::min(t, 180.0); };
    LoadRig rig;
    const auto current = [&](double t) { return std::sqrt(squared(t)); };
    rig.run(120.0, current);
    double worst = 0;
    for (int sample = 0; sample < 200; ++sample) // a reading every 0.3 s over the last minute of the slope
    {
      rig.run(0.3, current);
      worst = std::max(worst, std::abs(rig.rms() * rig.rms() - squared(rig.time)));
      EXPECT_LT(rig.window(), 40.0 + 0.31)
          << "the window keeps the newest part of a moving load, at " << rig.time;
    }
    EXPECT_LT(worst, std::abs(slope) * (20.0 + 0.6))
        << "lag of two loadWindows at most (the whole window: 30 s)";
    rig.run(120.0, current); // the load holds from 180 s on: the window grows back to cycleWindow
    EXPECT_NEAR(rig.window(), 60.0, 0.31);
    EXPECT_NEAR(rig.rms() * rig.rms(), to, 0.01);
  }
}
