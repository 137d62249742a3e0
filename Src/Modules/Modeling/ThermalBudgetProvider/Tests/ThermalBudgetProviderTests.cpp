// ThermalBudgetProvider on synthetic JointThermalStates: the limiting joint and its minutes, "never" and "already
// there", the sitting forecast, learning and joints without estimate never set shouldRest, NaN or negative times are
// held (no NaN out, no jump), and nothing allocates per frame.
#include "Framework/Testing/ModuleHarness.h"
#include "Modules/Modeling/ThermalBudgetProvider/ThermalBudgetProvider.h"
#include "Tools/Testing/AllocationCounter.h"
#include <cmath>
#include <gtest/gtest.h>
#include <limits>

using namespace nao;

namespace
{
constexpr float never = std::numeric_limits<float>::infinity();

/// Every joint estimated at 40 °C, trusted, never reaching status 1; no posture named.
struct Rig
{
  ModuleHarness<ThermalBudgetProvider> harness{ThermalBudgetParameters{}};

  Rig()
  {
    JointThermalState& state = input();
    state.valid.fill(true);
    state.learning.fill(false);
    state.temperatures.fill(40.f);
    state.hot.times.fill(never);
  }
  JointThermalState& input() { return harness.input<JointThermalState>(); }
  const ThermalBudget& run()
  {
    harness.run();
    return harness.output<ThermalBudget>();
  }
};
} // namespace

TEST(ThermalBudgetProvider, TheLimitingJointIsTheOneThatGetsThereFirst)
{
  Rig rig;
  rig.input().hot.times[Joint::LKneePitch] = 600.f;  // s: 10 min
  rig.input().hot.times[Joint::RAnklePitch] = 180.f; // s: 3 min
  rig.input().temperatures[Joint::LHipPitch] = 61.5f;
  const ThermalBudget& budget = rig.run();
  EXPECT_FLOAT_EQ(budget.minutesLeft, 3.f);
  EXPECT_EQ(budget.limitingJoint, Joint::RAnklePitch);
  EXPECT_TRUE(budget.limited);
  EXPECT_FALSE(budget.learning);
  EXPECT_TRUE(budget.shouldRest) << "3 min is below restBelow's 5";
  EXPECT_EQ(budget.hottestJoint, Joint::LHipPitch);
  EXPECT_FLOAT_EQ(budget.hottestTemperature, 61.5f);
  EXPECT_TRUE(budget.estimated);
  EXPECT_FALSE(budget.sittingForecast);
  EXPECT_FLOAT_EQ(budget.minutesIfSitting, 3.f)
      << "no posture named: the present load's minutes, a lower bound";
  rig.harness.parameters().restBelow = 2.f; // a live edit
  EXPECT_FALSE(rig.run().shouldRest);
}

TEST(ThermalBudgetProvider, NeverAndAlreadyThere)
{
  Rig rig;
  const ThermalBudget& never = rig.run();
  EXPECT_TRUE(std::isinf(never.minutesLeft));
  EXPECT_FALSE(never.limited);
  EXPECT_FALSE(never.learning) << "every joint's 'never' is trusted";
  EXPECT_FALSE(never.shouldRest);
  rig.input().hot.times[Joint::HeadYaw] = 0.f;
  const ThermalBudget& there = rig.run();
  EXPECT_EQ(there.minutesLeft, 0.f);
  EXPECT_EQ(there.limitingJoint, Joint::HeadYaw);
  EXPECT_TRUE(there.shouldRest);
}

TEST(ThermalBudgetProvider, SittingComesFromThePostureForecast)
{
  Rig rig;
  rig.input().hot.times[Joint::LKneePitch] = 120.f;
  rig.input().posture.name = PostureName::sit;
  rig.input().posture.reachTimes[0][Joint::LShoulderPitch] = 1800.f;
  const ThermalBudget& budget = rig.run();
  EXPECT_TRUE(budget.sittingForecast);
  EXPECT_FLOAT_EQ(budget.minutesIfSitting, 30.f);
  EXPECT_FLOAT_EQ(budget.minutesLeft, 2.f);
}

TEST(ThermalBudgetProvider, LearningOrUnestimatedJointsNeverSetShouldRest)
{
  Rig rig;
  rig.input().hot.times[Joint::LKneePitch] = 60.f;
  rig.input().learning[Joint::LKneePitch] = true;
  rig.input().hot.times[Joint::RKneePitch] = 30.f;
  rig.input().valid[Joint::RKneePitch] = false; // no estimate: its time counts for nothing
  rig.input().temperatures[Joint::RKneePitch] = 99.f;
  const ThermalBudget& budget = rig.run();
  EXPECT_FLOAT_EQ(budget.minutesLeft, 1.f);
  EXPECT_EQ(budget.limitingJoint, Joint::LKneePitch);
  EXPECT_TRUE(budget.learning);
  EXPECT_FALSE(budget.shouldRest);
  EXPECT_NE(budget.hottestJoint, Joint::RKneePitch);
  // A trusted joint below restBelow sends the robot to rest even when a learning one says less.
  rig.input().hot.times[Joint::LAnklePitch] = 240.f;
  EXPECT_TRUE(rig.run().shouldRest);
  // No joint estimated: nothing known, nothing acted on.
  rig.input().valid.fill(false);
  const ThermalBudget& none = rig.run();
  EXPECT_FALSE(none.estimated);
  EXPECT_TRUE(std::isinf(none.minutesLeft));
  EXPECT_TRUE(none.learning);
  EXPECT_FALSE(none.shouldRest);
}

TEST(ThermalBudgetProvider, NaNOrNegativeTimesAreHeldNeitherJumpNorGoNaN)
{
  Rig rig;
  rig.input().hot.times[Joint::LKneePitch] = 600.f;
  rig.input().hot.times[Joint::RKneePitch] = 900.f;
  rig.input().posture.name = PostureName::sit;
  rig.input().posture.reachTimes[0][Joint::LKneePitch] = 1200.f;
  EXPECT_FLOAT_EQ(rig.run().minutesLeft, 10.f);
  for (const float faulty : {std::numeric_limits<float>::quiet_NaN(), -5.f, -never})
  {
    rig.input().hot.times[Joint::LKneePitch] = faulty;
    rig.input().posture.reachTimes[0][Joint::LKneePitch] = faulty;
    rig.input().temperatures[Joint::LKneePitch] = std::numeric_limits<float>::quiet_NaN();
    const ThermalBudget& budget = rig.run();
    EXPECT_FLOAT_EQ(budget.minutesLeft, 10.f) << faulty << ": the last usable time is held";
    EXPECT_FLOAT_EQ(budget.minutesIfSitting, 20.f) << faulty;
    EXPECT_TRUE(budget.learning) << faulty << ": a held time is not trusted";
    EXPECT_EQ(budget.unusableTimes, 1u) << faulty;
    EXPECT_FALSE(std::isnan(budget.hottestTemperature)) << faulty;
  }
  rig.harness.parameters().restBelow = 12.f;
  EXPECT_FALSE(rig.run().shouldRest) << "never from a held (faulty) time";
  // Nothing held yet: an unusable first time counts for nothing.
  Rig fresh;
  fresh.input().hot.times[Joint::HeadYaw] = std::numeric_limits<float>::quiet_NaN();
  const ThermalBudget& budget = fresh.run();
  EXPECT_TRUE(std::isinf(budget.minutesLeft));
  EXPECT_FALSE(budget.shouldRest);
}

TEST(ThermalBudgetProvider, NothingAllocatesPerFrame)
{
  Rig rig;
  rig.run();
  nao::test::ThreadAllocationCount count;
  for (int f = 0; f < 1000; ++f)
  {
    rig.input().hot.times[Joint::LKneePitch] =
        f % 7 == 0 ? std::numeric_limits<float>::quiet_NaN() : 600.f - f;
    rig.run();
  }
  EXPECT_EQ(count.allocations(), 0u);
}
