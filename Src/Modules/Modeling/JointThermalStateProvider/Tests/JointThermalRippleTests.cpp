// A periodic load (a keyframe loop, stepping): the temperature swings around its course at the mean load, and the
// firmware's status begins where a swing's peak first reaches its threshold, minutes before the course does. The
// plant is not the provider's model (a winding reported with a 12 s time constant, its housing behind it), the
// reading in whole degrees with noise; the load is 5 s of 1.6 A and 7 s of 0.6 A. And a "never" the fit cannot yet
// rule out is the earliest time the fit allows, flagged learning.
#include "Framework/Testing/ModuleHarness.h"
#include "Modules/Modeling/JointThermalStateProvider/JointThermalStateProvider.h"
#include "Modules/Modeling/JointThermalStateProvider/Tests/TwoNodePlant.h"
#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>
#include <random>

using namespace nao;

namespace
{
constexpr Joint tested = Joint::RKneePitch;

/// A winding with a 12 s time constant, reported, and the housing it heats.
struct Plant : nao::testing::TwoNodePlant
{
  Plant() : TwoNodePlant{15, 12, 30, 600, 25, 25, 25, true} {}
};

/// A, the loop's current `time` s after it began: 5 s high, 7 s low (each phase shorter than the provider's
/// loadWindow, so that its load is the cycle's mean).
double loopCurrent(double time)
{
  return std::fmod(time, 12.0) < 5.0 ? 1.6 : 0.6;
}

struct Rig
{
  ModuleHarness<JointThermalStateProvider> harness;
  Plant plant;
  std::mt19937 random{11};
  std::normal_distribution<double> noise{0.0, 0.2};
  double time = 0;
  double loopStart = 1e9; ///< s: before it, a steady 1 A (the fit learns the joint)

  Rig()
  {
    for (std::size_t j = 0; j < numOfJoints; ++j)
      harness.input<JointSensorData>().temperatures[j] = 25.f;
  }
  void run(double until)
  {
    for (; time < until - 1e-9;)
    {
      const double current = time < loopStart ? 1.0 : loopCurrent(time - loopStart);
      plant.step(0.012, current * current);
      time += 0.012;
      harness.input<FrameInfo>().time = time;
      ++harness.input<FrameInfo>().frameNumber;
      JointSensorData& sensors = harness.input<JointSensorData>();
      sensors.currents[tested] = static_cast<float>(current + 0.02 * noise(random));
      sensors.temperatures[tested] = static_cast<float>(std::round(plant.winding + noise(random)));
      harness.run();
    }
  }
  /// s until the plant's winding first reaches `threshold` if the loop goes on (∞ beyond an hour).
  double timeTo(double threshold) const
  {
    Plant copy = plant;
    for (double t = 0; t < 3600; t += 0.012)
    {
      if (copy.winding >= threshold) return t;
      const double current = loopCurrent(time + t - loopStart);
      copy.step(0.012, current * current);
    }
    return INFINITY;
  }
  const JointThermalState& state() const { return harness.output<JointThermalState>(); }
};
} // namespace

// Ten minutes of a steady 1 A teach the fit the joint (52 °C by then); then the loop. Its course at the mean load
// (1.28 A²) settles at 82 °C; the threshold is 78 °C, which the swings' peaks (4.0 K above the course: the winding's
// 12 s response to the loop) reach minutes before the course does. Tolerance 25 % at 180 s and 300 s into the loop
// (issue 47's goal for the median); at 120 s the fit is still learning the loop and the change of motion still
// shows in the ripple: early by at most 50 %, late by at most 25 %. The course alone is 32, 55 and 111 % late here.
TEST(JointThermalRipple, APeriodicLoadIsForecastForTheSwingsPeaks)
{
  Rig rig;
  constexpr double threshold = 78;
  rig.harness.parameters().hotThreshold = static_cast<float>(threshold);
  rig.loopStart = 600;
  rig.run(rig.loopStart);
  EXPECT_LT(rig.state().ripples[tested], 0.2f); // K: a steady load has no swing to speak of
  for (const double after : {120.0, 180.0, 300.0})
  {
    rig.run(rig.loopStart + after);
    const double truth = rig.timeTo(threshold);
    const JointThermalState& state = rig.state();
    const double forecast = state.hot.times[tested];
    std::printf("after %3.0f s: forecast %5.0f s, plant %5.0f s (%+.0f %%), ripple %.1f K, learning %d\n",
                after, forecast, truth, 100 * (forecast - truth) / truth, state.ripples[tested],
                static_cast<int>(state.learning[tested]));
    ASSERT_TRUE(std::isfinite(truth));
    EXPECT_LT(forecast - truth, 0.25 * truth) << after;
    EXPECT_GT(forecast - truth, (after < 150 ? -0.5 : -0.25) * truth) << after;
    EXPECT_GT(state.ripples[tested], 3.f) << after; // K: the swing is seen
    EXPECT_LT(state.ripples[tested], after < 150 ? 6.f : 5.f) << after;
  }
}

// A one-off effort is no cycle: after ten minutes at a steady 1 A, 4 s at 3 A (a sit-down, a stumble) swing the
// winding by tens of kelvin, once. The forecast's ripple is what recurs: over the two cycle windows that hold the
// effort it stays within a tenth of that swing (what is left: the effort leaving the load's window is a step of the
// load's deviation from its mean, once more).
TEST(JointThermalRipple, AOneOffEffortIsNoSwing)
{
  Rig rig;
  rig.loopStart = 1e9;
  rig.run(600);
  double lowest = INFINITY, highest = -INFINITY; // K, the reading's span around the effort
  const double effortEnd = 604;
  for (; rig.time < effortEnd - 1e-9;)
  {
    rig.plant.step(0.012, 9.0);
    rig.time += 0.012;
    rig.harness.input<FrameInfo>().time = rig.time;
    ++rig.harness.input<FrameInfo>().frameNumber;
    rig.harness.input<JointSensorData>().currents[tested] = 3.f;
    rig.harness.input<JointSensorData>().temperatures[tested] =
        static_cast<float>(std::round(rig.plant.winding));
    rig.harness.run();
    lowest = std::min(lowest, rig.plant.winding);
    highest = std::max(highest, rig.plant.winding);
  }
  ASSERT_GT(highest - lowest, 3.0) << "the effort swings the winding by more than a steady load's ripple";
  float worst = 0; // K
  for (; rig.time < effortEnd + 130;)
  {
    rig.run(rig.time + 0.3);
    worst = std::max(worst, rig.state().ripples[tested]);
  }
  std::printf("effort: winding +%.1f K; largest ripple over the 130 s after it %.2f K\n", highest - lowest,
              worst);
  EXPECT_LT(worst, 0.1 * (highest - lowest));
}

// 20 s into a load whose steady state the priors (25 K/A²) put below the threshold, while the plant's (45 K/A²) is
// above it: the fit cannot yet tell, so the forecast is not "never" but a finite time, flagged learning, and early
// rather than late.
TEST(JointThermalRipple, ANeverTheFitCannotRuleOutIsTheEarliestTimeItAllows)
{
  ModuleHarness<JointThermalStateProvider> harness;
  Plant plant;
  constexpr double threshold = 75,
                   squaredCurrent = 1.21; // °C; A²: the plant settles at 79 °C, the priors at 55
  harness.parameters().hotThreshold = static_cast<float>(threshold);
  double time = 0;
  for (; time < 20; time += 0.012)
  {
    plant.step(0.012, squaredCurrent);
    harness.input<FrameInfo>().time = time;
    JointSensorData& sensors = harness.input<JointSensorData>();
    sensors.currents[tested] = 1.1f;
    sensors.temperatures[tested] = static_cast<float>(std::round(plant.winding));
    harness.run();
  }
  Plant copy = plant;
  double truth = 0;
  for (; copy.winding < threshold && truth < 3600; truth += 0.012)
    copy.step(0.012, squaredCurrent);
  const JointThermalState& state = harness.output<JointThermalState>();
  std::printf("forecast %.0f s, plant %.0f s, learning %d, steady %.1f °C\n", state.hot.times[tested], truth,
              static_cast<int>(state.learning[tested]), state.steadyTemperatures[tested]);
  ASSERT_LT(state.steadyTemperatures[tested], threshold); // the fit's course alone would say never
  EXPECT_TRUE(state.learning[tested]);
  EXPECT_TRUE(std::isfinite(state.hot.times[tested]));
  EXPECT_LT(state.hot.times[tested], 1.25 * truth);
}

// The ripple itself (Tools/Thermal/ThermalRipple.h), on a node that follows the load at once (gain 1 K/A²): each half
// cycle window holds one swing of its own height. A cycle's peaks differ from half to half (its phase against the
// windows, a stumble of the gait); the status begins at the highest that recurs, so two within a factor two give the
// highest. A peak more than twice all the others is a one-off and gives the highest of the others.
TEST(ThermalRipple, ARecurringSwingIsItsHighestPeakAndALonePeakIsNot)
{
  // s: whole binary fractions, so that each half window holds 100 steps exactly.
  constexpr double step = 0.25, half = 25;
  const ThermalRipple::Settings settings = ThermalRipple::settings({1e-9, 0, 0, 0}, step, 10, 2 * half);
  const double gains[ThermalRipple::maxNodes] = {1, 0, 0, 0};       // K/A²
  const auto rippleAfter = [&](std::initializer_list<double> peaks) // K, one per half window, oldest first
  {
    ThermalRipple ripple;
    ripple.restart(0);
    double time = 0;
    for (const double peak : peaks)
      for (int i = 0; i < static_cast<int>(half / step); ++i, time += step)
        ripple.add(i == 50 ? peak : 0.0, gains, time, settings);
    return ripple.ripple();
  };
  const double above = 0.99; // a peak less the mean of its window's 100 swings
  EXPECT_NEAR(rippleAfter({3.0, 2.6, 2.6, 2.6, 2.6}), 3.0 * above, 1e-9) << "the highest that recurs";
  EXPECT_NEAR(rippleAfter({2.6, 2.6, 3.0, 2.6, 2.6}), 3.0 * above, 1e-9);
  EXPECT_NEAR(rippleAfter({10.0, 2.0, 2.0, 2.0, 2.0}), 2.0 * above, 1e-9) << "a one-off is not a swing";
  EXPECT_NEAR(rippleAfter({2.0, 2.0, 10.0, 2.0, 2.0}), 2.0 * above, 1e-9);
  EXPECT_NEAR(rippleAfter({0.0, 0.0, 0.0, 0.0, 4.0}), 0.0, 1e-9) << "one peak alone is not yet a swing";
}
