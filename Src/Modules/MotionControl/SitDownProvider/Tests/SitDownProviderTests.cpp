// SitDownProvider on ModuleHarness: the chest button's press (debounced, long enough, counted at its release; not
// while SensorHealth distrusts the button or the robot lies), sit then limp, the second press, the low battery
// (the charge SensorHealth believes, for lowBatteryTime) with its hysteresis, bad input, and no allocation per frame.
#include "Framework/Testing/ModuleHarness.h"
#include "Modules/MotionControl/SitDownProvider/SitDownProvider.h"
#include "Tools/Testing/AllocationCounter.h"
#include <cmath>
#include <gtest/gtest.h>
#include <limits>

using namespace nao;

namespace
{
constexpr double frameTime = 0.012; // s, one LoLA frame

/// The harness with a stiff motion source that holds `standAngles` and measured angles that follow the output.
struct Rig
{
  ModuleHarness<SitDownProvider> h;
  JointArray<float> stand{};

  Rig()
  {
    for (std::size_t j = 0; j < numOfJoints; ++j)
      stand[j] = 0.1f * static_cast<float>(j % 5) - 0.2f;
    h.input<MotionJointRequest>().angles = stand;
    h.input<MotionJointRequest>().stiffnesses.fill(1.f);
    h.input<JointSensorData>().angles = stand;
    h.input<BatteryData>().charge = 0.8f;
    h.input<SensorHealth>().batteryCharge = 0.8f;
  }
  const SafeMotionJointRequest& out() const { return h.output<SafeMotionJointRequest>(); }
  const SitDown& state() const { return h.output<SitDown>(); }
  void frame()
  {
    h.input<FrameInfo>().time += frameTime;
    h.run();
    h.input<JointSensorData>().angles = out().angles; // a body that follows its request
  }
  void frames(int n)
  {
    for (int i = 0; i < n; ++i)
      frame();
  }
  void button(bool pressed) { h.input<TouchData>().values[TouchData::chestButton] = pressed ? 1.f : 0.f; }
  void charge(float believed) { h.input<SensorHealth>().batteryCharge = believed; }
  /// A press of `frames` frames, then released for as long.
  void press(int pressedFrames = 10)
  {
    button(true);
    frames(pressedFrames);
    button(false);
    frames(pressedFrames);
  }
  float maxDistanceTo(const JointArray<float>& target) const
  {
    float d = 0;
    for (std::size_t j = 0; j < numOfJoints; ++j)
      d = std::max(d, std::abs(out().angles[j] - target[j]));
    return d;
  }
};

int framesFor(double seconds)
{
  return static_cast<int>(std::ceil(seconds / frameTime)) + 1;
}
} // namespace

TEST(SitDownProvider, PassesTheMotionSourceThroughUntilAPress)
{
  Rig rig;
  rig.frames(50);
  EXPECT_EQ(rig.state().phase, SitDownPhase::passThrough);
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    EXPECT_EQ(rig.out().angles[j], rig.stand[j]) << j;
    EXPECT_EQ(rig.out().stiffnesses[j], 1.f) << j;
  }
}

TEST(SitDownProvider, NamesTheLimpSittingPostureForTheThermalForecast)
{
  Rig rig;
  rig.frames(1);
  const ForecastPosture& posture = rig.h.output<ForecastPosture>();
  EXPECT_EQ(posture.name, PostureName::sit);
  for (std::size_t j = 0; j < numOfJoints; ++j)
    EXPECT_EQ(posture.stiffnesses[j], 0.f)
        << j; // the sitting posture ends limp (APressSitsDownSmoothlyThenGoesLimp)
}

TEST(SitDownProvider, ABriefBlipIsNoPress)
{
  Rig rig;
  rig.frames(5);
  // 50 ms debounce: 3 frames (36 ms) pressed, then released, is contact bounce, not a press.
  for (int i = 0; i < 20; ++i)
  {
    rig.button(true);
    rig.frames(3);
    rig.button(false);
    rig.frames(3);
  }
  EXPECT_EQ(rig.state().presses, 0u);
  EXPECT_EQ(rig.state().phase, SitDownPhase::passThrough);
  rig.press(5); // 60 ms: a glitch, shorter than minPressTime
  EXPECT_EQ(rig.state().presses, 0u);
  rig.button(true);
  rig.frames(10); // 120 ms held: nothing yet, a press counts at its release
  EXPECT_EQ(rig.state().phase, SitDownPhase::passThrough);
  rig.button(false);
  rig.frames(10);
  EXPECT_EQ(rig.state().presses, 1u);
  EXPECT_EQ(rig.state().phase, SitDownPhase::sittingDown);
}

TEST(SitDownProvider, NoPressWhileTheButtonIsDistrustedOrTheRobotLies)
{
  Rig rig;
  rig.frames(5);
  rig.h.input<SensorHealth>()[Sensor::chestButton].state = SensorState::suspect; // held too long, bouncing
  rig.press();
  EXPECT_EQ(rig.state().presses, 0u);
  rig.h.input<SensorHealth>()[Sensor::chestButton].state = SensorState::valid;
  rig.h.input<FallDownState>().state = FallState::fallen; // the ground presses the button
  rig.press();
  EXPECT_EQ(rig.state().presses, 0u);
  // A press that began while upright and was released after the robot fell does not count either.
  rig.h.input<FallDownState>().state = FallState::upright;
  rig.button(true);
  rig.frames(10);
  rig.h.input<FallDownState>().state = FallState::falling;
  rig.button(false);
  rig.frames(10);
  EXPECT_EQ(rig.state().presses, 0u);
  rig.h.input<FallDownState>().state = FallState::upright;
  rig.press();
  EXPECT_EQ(rig.state().presses, 1u);
}

TEST(SitDownProvider, APressSitsDownSmoothlyThenGoesLimp)
{
  Rig rig;
  const SitDownParameters& p = rig.h.parameters();
  rig.frames(5);
  rig.press();
  ASSERT_EQ(rig.state().phase, SitDownPhase::sittingDown);
  EXPECT_EQ(rig.state().reason, SitDownReason::chestButton);
  JointArray<float> previous = rig.out().angles;
  // Per frame no joint moves further than smoothstep's peak speed allows: 1.5 × the distance / the time.
  float largestMove = 0, largestDistance = 0;
  for (std::size_t j = 0; j < numOfJoints; ++j)
    largestDistance = std::max(largestDistance, std::abs(p.sitAngles[j] - rig.stand[j]));
  const int sitFrames = framesFor(p.sitDownTime);
  for (int f = 0; f < sitFrames; ++f)
  {
    rig.frame();
    for (std::size_t j = 0; j < numOfJoints; ++j)
      largestMove = std::max(largestMove, std::abs(rig.out().angles[j] - previous[j]));
    previous = rig.out().angles;
  }
  EXPECT_LE(largestMove, 1.5f * largestDistance * static_cast<float>(frameTime / p.sitDownTime) * 1.01f);
  EXPECT_LT(rig.maxDistanceTo(p.sitAngles), 1e-5f);
  for (std::size_t j = 0; j < numOfJoints; ++j)
    EXPECT_FLOAT_EQ(rig.out().stiffnesses[j], p.sitStiffness) << j;
  rig.frames(framesFor(p.settleTime + p.limpTime));
  EXPECT_EQ(rig.state().phase, SitDownPhase::sitting);
  for (std::size_t j = 0; j < numOfJoints; ++j)
    EXPECT_EQ(rig.out().stiffnesses[j], 0.f) << j;
  // Limp, the request follows the measurement (a joint that sags).
  rig.h.input<JointSensorData>().angles[index(Joint::LKneePitch)] += 0.1f;
  rig.frame();
  EXPECT_FLOAT_EQ(rig.out().angles[index(Joint::LKneePitch)], p.sitAngles[index(Joint::LKneePitch)] + 0.1f);
}

TEST(SitDownProvider, ASecondPressStandsUpSmoothlyAndHandsBack)
{
  Rig rig;
  const SitDownParameters& p = rig.h.parameters();
  rig.press();
  rig.frames(framesFor(p.sitDownTime + p.settleTime + p.limpTime));
  ASSERT_EQ(rig.state().phase, SitDownPhase::sitting);
  rig.press();
  ASSERT_EQ(rig.state().phase, SitDownPhase::standingUp);
  EXPECT_LT(rig.maxDistanceTo(p.sitAngles),
            0.05f); // rad: it starts where it sits (15 frames of 3 s smoothstep)
  for (std::size_t j = 0; j < numOfJoints; ++j)
    EXPECT_EQ(rig.out().stiffnesses[j], 1.f) << j; // the motion source's stiffness
  rig.frames(framesFor(p.standUpTime));
  EXPECT_EQ(rig.state().phase, SitDownPhase::passThrough);
  EXPECT_EQ(rig.state().reason, SitDownReason::none);
  for (std::size_t j = 0; j < numOfJoints; ++j)
    EXPECT_EQ(rig.out().angles[j], rig.stand[j]) << j;
  EXPECT_EQ(rig.state().presses, 2u);
}

TEST(SitDownProvider, APressWhileSittingDownStandsUpFromWhereItIs)
{
  Rig rig;
  rig.press();
  rig.frames(40);
  rig.button(true);
  rig.frames(10);
  rig.button(false);
  JointArray<float> where = rig.out().angles;
  for (int f = 0; f < 6 && rig.state().phase != SitDownPhase::standingUp; ++f)
  {
    where = rig.out().angles;
    rig.frame(); // the release's first frame plus 50 ms: the press counts in the sixth frame
  }
  ASSERT_EQ(rig.state().phase, SitDownPhase::standingUp);
  float jump = 0;
  for (std::size_t j = 0; j < numOfJoints; ++j)
    jump = std::max(jump, std::abs(rig.out().angles[j] - where[j]));
  EXPECT_LT(jump, 0.01f); // rad: about one frame of sitting down (or standing up) at most
}

TEST(SitDownProvider, ALowBatterySitsDownOnceAfterLowBatteryTimeWithHysteresis)
{
  Rig rig;
  const SitDownParameters& p = rig.h.parameters();
  const int lowFrames = framesFor(p.lowBatteryTime);
  rig.frames(5);
  rig.charge(p.lowBatteryCharge + 0.01f);
  rig.frames(5);
  EXPECT_EQ(rig.state().phase, SitDownPhase::passThrough);
  EXPECT_FALSE(rig.state().lowBattery);
  // Below the threshold: only after lowBatteryTime, never in one frame.
  rig.charge(p.lowBatteryCharge - 0.01f);
  rig.frames(lowFrames - 3);
  EXPECT_FALSE(rig.state().lowBattery);
  EXPECT_EQ(rig.state().phase, SitDownPhase::passThrough);
  rig.frames(3);
  EXPECT_TRUE(rig.state().lowBattery);
  EXPECT_EQ(rig.state().phase, SitDownPhase::sittingDown);
  EXPECT_EQ(rig.state().reason, SitDownReason::lowBattery);
  rig.frames(framesFor(p.sitDownTime + p.settleTime + p.limpTime));
  EXPECT_EQ(rig.state().phase, SitDownPhase::sitting);
  EXPECT_FALSE(rig.state().lowBatteryReadsFull);
  // A press stands it up; the charge, still low or back within the hysteresis, does not sit it down again.
  rig.press();
  rig.frames(framesFor(p.standUpTime));
  EXPECT_EQ(rig.state().phase, SitDownPhase::passThrough);
  rig.charge(p.lowBatteryCharge + 0.5f * p.batteryHysteresis);
  rig.frames(5);
  rig.charge(p.lowBatteryCharge - 0.01f);
  rig.frames(lowFrames + 5);
  EXPECT_EQ(rig.state().phase, SitDownPhase::passThrough);
  EXPECT_TRUE(rig.state().lowBattery);
  // Above threshold + hysteresis it is armed again.
  rig.charge(p.lowBatteryCharge + p.batteryHysteresis + 0.01f);
  rig.frame();
  EXPECT_FALSE(rig.state().lowBattery);
  rig.charge(p.lowBatteryCharge - 0.01f);
  rig.frames(lowFrames);
  EXPECT_EQ(rig.state().phase, SitDownPhase::sittingDown);
}

TEST(SitDownProvider, AChargeThatDipsForLessThanLowBatteryTimeIsNoSitDown)
{
  Rig rig;
  const SitDownParameters& p = rig.h.parameters();
  for (int i = 0; i < 10; ++i)
  {
    rig.charge(p.lowBatteryCharge - 0.05f);
    rig.frames(framesFor(p.lowBatteryTime) / 2);
    rig.charge(p.lowBatteryCharge + 0.01f);
    rig.frames(2);
  }
  EXPECT_EQ(rig.state().phase, SitDownPhase::passThrough);
  EXPECT_FALSE(rig.state().lowBattery);
}

TEST(SitDownProvider, SatDownForALowBatteryThatReadsFullAgainSaysSo)
{
  Rig rig;
  const SitDownParameters& p = rig.h.parameters();
  rig.charge(p.lowBatteryCharge - 0.01f);
  rig.frames(framesFor(p.lowBatteryTime + p.sitDownTime + p.settleTime + p.limpTime));
  ASSERT_EQ(rig.state().phase, SitDownPhase::sitting);
  rig.charge(0.9f);
  rig.frame();
  EXPECT_TRUE(rig.state().lowBatteryReadsFull);
  EXPECT_EQ(rig.state().phase, SitDownPhase::sitting) << "said, not acted on: a press stands it up";
}

TEST(SitDownProvider, ALowBatteryWhileChargingIsNoSitDown)
{
  Rig rig;
  rig.h.input<BatteryData>().charging = true;
  rig.charge(0.02f);
  rig.frames(framesFor(10.0));
  EXPECT_EQ(rig.state().phase, SitDownPhase::passThrough);
  EXPECT_FALSE(rig.state().lowBattery);
}

TEST(SitDownProvider, BadInputNeitherJumpsNorGoesNaN)
{
  Rig rig;
  rig.frames(5);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const auto check = [&](const char* what)
  {
    for (std::size_t j = 0; j < numOfJoints; ++j)
    {
      EXPECT_TRUE(std::isfinite(rig.out().angles[j])) << what << " " << j;
      EXPECT_TRUE(std::isfinite(rig.out().stiffnesses[j])) << what << " " << j;
      EXPECT_LT(std::abs(rig.out().angles[j] - rig.stand[j]), 0.05f) << what << " " << j;
    }
  };
  rig.h.input<MotionJointRequest>().angles[index(Joint::LKneePitch)] = nan;
  rig.h.input<MotionJointRequest>().stiffnesses[index(Joint::HeadYaw)] = nan;
  rig.h.input<BatteryData>().charge = nan;
  rig.h.input<TouchData>().values[TouchData::chestButton] = nan;
  rig.frames(10);
  check("NaN request, charge and button");
  EXPECT_EQ(rig.state().phase, SitDownPhase::passThrough);
  // A press while the measurement is NaN starts from the last request.
  rig.h.input<MotionJointRequest>().angles = rig.stand;
  rig.h.input<MotionJointRequest>().stiffnesses.fill(1.f);
  rig.h.input<JointSensorData>().angles.fill(nan);
  rig.button(true);
  rig.h.run();
  for (int f = 0; f < 20; ++f)
  {
    if (f == 10) rig.button(false);
    rig.h.input<FrameInfo>().time += frameTime;
    rig.h.run();
  }
  ASSERT_EQ(rig.state().phase, SitDownPhase::sittingDown);
  check("NaN measurement at the press");
}

TEST(SitDownProvider, NothingAllocatesPerFrame)
{
  Rig rig;
  const SitDownParameters& p = rig.h.parameters();
  rig.frames(5);
  nao::test::ThreadAllocationCount count;
  for (int cycle = 0; cycle < 3; ++cycle)
  {
    rig.press();
    rig.frames(400);
    rig.press();
    rig.frames(300);
  }
  rig.charge(0.01f);
  rig.frames(framesFor(p.lowBatteryTime) + 50);
  rig.h.parameters().sitDownTime = 2.f; // a live edit
  rig.frames(5);
  EXPECT_EQ(count.allocations(), 0u);
}
