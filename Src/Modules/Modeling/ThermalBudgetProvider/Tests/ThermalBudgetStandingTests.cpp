// ThermalBudgetProvider's "if it stood": a stand of standHold is remembered with its loads and, once the robot moves,
// the minutes are solved from the fitted nodes at those loads (checked against the one-node closed form); before any
// stand, and on a stand made of faulty readings (NaN angles, one foot, too little weight), none is assumed.
#include "Framework/Testing/ModuleHarness.h"
#include "Modules/Modeling/ThermalBudgetProvider/ThermalBudgetProvider.h"
#include <cmath>
#include <gtest/gtest.h>
#include <limits>

using namespace nao;

namespace
{
constexpr float frame = 0.012f; // s

/// LKneePitch with one fitted node (τ 600 s, g 60 K/A², rise 10 K over 30 °C, status 1 at 76 °C), the others
/// estimated and never reaching status 1; the robot on both feet (2.6 kg each), legs still.
struct Rig
{
  ModuleHarness<ThermalBudgetProvider> harness{ThermalBudgetParameters{}};
  double time = 0;

  Rig()
  {
    JointThermalState& state = thermal();
    state.valid.fill(true);
    state.learning.fill(false);
    state.temperatures.fill(40.f);
    state.hot.times.fill(std::numeric_limits<float>::infinity());
    state.hot.thresholds.fill(76.f);
    state.ambients.fill(30.f);
    state.rmsCurrents.fill(0.f);
    state.loadWindows.fill(5.f);
    state.nodeTimeConstants = {600.f, 0.f, 0.f, 0.f};
    state.nodeGains[0][Joint::LKneePitch] = 60.f;
    state.nodeRises[0][Joint::LKneePitch] = 10.f;
    FsrSensorData& soles = harness.input<FsrSensorData>();
    for (FsrFoot* foot : {&soles.left, &soles.right})
    {
      foot->hasPressure = true;
      foot->totalWeight = 2.6f;
    }
  }
  JointThermalState& thermal() { return harness.input<JointThermalState>(); }
  JointSensorData& joints() { return harness.input<JointSensorData>(); }
  /// Runs `seconds` of frames; returns the last budget.
  const ThermalBudget& runFor(double seconds)
  {
    for (double end = time + seconds; time < end; time += frame)
    {
      harness.input<FrameInfo>().time = time;
      harness.run();
    }
    return harness.output<ThermalBudget>();
  }
};

/// s, the one-node closed form: T(t) = T_amb + gL + (c − gL)·e^(−t/τ) reaching `threshold`.
double closedForm(double ambient, double gain, double rise, double tau, double load, double threshold)
{
  return -tau * std::log((threshold - ambient - gain * load) / (rise - gain * load));
}
} // namespace

TEST(ThermalBudgetStanding, ARememberedStandGivesTheMinutesIfItStoodAgain)
{
  Rig rig;
  const ThermalBudget& before = rig.runFor(1.0);
  EXPECT_FALSE(before.standing);
  EXPECT_FALSE(before.standingForecast) << "no stand seen yet";
  EXPECT_EQ(before.minutesIfStanding, before.minutesLeft)
      << "the present load's minutes, marked as no forecast";

  // Standing with the knee at 1 A: after standHold (10 s) it stands, its minutes are the present load's.
  rig.thermal().rmsCurrents[Joint::LKneePitch] = 1.f;
  rig.thermal().hot.times[Joint::LKneePitch] = 700.f;
  const ThermalBudget& standing = rig.runFor(10.5);
  EXPECT_TRUE(standing.standing);
  EXPECT_TRUE(standing.standingForecast);
  EXPECT_FLOAT_EQ(standing.minutesIfStanding, standing.minutesLeft);

  // It walks off: the legs move, the knee's load drops to 0.3 A. The minutes if it stood again: the stand's 1 A² on
  // the knee's node, as the closed form gives them.
  rig.joints().angles[Joint::LKneePitch] += 0.1f;
  rig.thermal().rmsCurrents[Joint::LKneePitch] = 0.3f;
  rig.thermal().hot.times[Joint::LKneePitch] = std::numeric_limits<float>::infinity();
  const ThermalBudget& walking = rig.runFor(1.0);
  EXPECT_FALSE(walking.standing);
  EXPECT_TRUE(walking.standingForecast);
  EXPECT_FALSE(walking.limited) << "at 0.3 A the knee never gets there";
  EXPECT_NEAR(walking.minutesIfStanding * 60.0, closedForm(30, 60, 10, 600, 1.0, 76), 0.5) << "s";
}

TEST(ThermalBudgetStanding, FaultyOrPartialReadingsNeverMakeAStand)
{
  Rig rig;
  rig.thermal().rmsCurrents[Joint::LKneePitch] = 1.f;
  rig.joints().angles[Joint::LHipPitch] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(rig.runFor(15.0).standingForecast) << "a NaN leg angle is no stillness";
  rig.joints().angles[Joint::LHipPitch] = 0.f;
  rig.harness.input<FsrSensorData>().right.hasPressure = false;
  EXPECT_FALSE(rig.runFor(15.0).standingForecast) << "one foot";
  rig.harness.input<FsrSensorData>().right.hasPressure = true;
  rig.harness.input<FsrSensorData>().right.totalWeight = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(rig.runFor(15.0).standingForecast) << "a NaN weight";
  rig.harness.input<FsrSensorData>().right.totalWeight = 0.2f;
  EXPECT_FALSE(rig.runFor(15.0).standingForecast) << "2.8 kg on the soles: held up, not standing";
  rig.harness.input<FsrSensorData>().right.totalWeight = 2.6f;
  EXPECT_TRUE(rig.runFor(10.5).standing) << "and a real stand counts";
}
