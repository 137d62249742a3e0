// FallProtectionProvider on the simulated robot: pushes that topple the stand forward, backward, to the left and to
// the right (Config/Scenarios/fall*.toml), each with the fall protection and without it (FallSafeJointRequest off),
// judged by the simulator's truth, robot seed 1: the short check of FallProtectionProvider's README.
//
// Impacts, torques at impact and the takeover: Util/Simulator/Run/FallProtectionEvaluation.h (`Simulator
// fallprotection` runs the same on an ensemble and 8 directions).
#include "Representations/Infrastructure/FrameInfo.h"
#include "Representations/MotionControl/FallProtection.h"
#include "Representations/MotionControl/JointRequest.h"
#include "Util/Simulator/Run/FallProtectionEvaluation.h"
#include "Util/Simulator/Run/SimulationRun.h"
#include "Util/Simulator/Run/Tests/SimulationTestSupport.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>

using namespace nao;

namespace
{
constexpr double pushTime = 3.0; // s, the scenarios' push

SimulationResult run(const std::string& scenario, bool protection, std::uint64_t seed = 1)
{
  return runSimulation(
      fallRunOptions(test::testRunOptions(scenario, fallRunSeconds / 60.0, seed,
                                          "nao-fallprotection-" + scenario + (protection ? "-on-" : "-off-") +
                                              std::to_string(seed)),
                     protection));
}

std::string seconds(double t)
{
  return t < 0 ? std::string("none") : std::to_string(t).substr(0, 5);
}
} // namespace

TEST(FallProtectionSimulation, PushedFallsForwardBackwardAndSidewaysWithAndWithoutProtection)
{
  for (const char* direction : {"front", "back", "left", "right"})
  {
    SCOPED_TRACE(direction);
    const std::string scenario = std::string("fall") + direction;
    const SimulationResult on = run(scenario, true), off = run(scenario, false);
    const FallImpact a = fallImpactOf(on, pushTime), b = fallImpactOf(off, pushTime);
    // When the protection took over (the robot's log).
    const FallTakeover taken = fallTakeoverOf(on.log);
    const double takeover = taken.time;
    const FallDirection chosen = taken.direction;
    std::printf(
        "%s | %s, %s | %s before | %.2f / %.2f | %.2f / %.2f | %.2f / %.2f | %.2f / %.2f | %.3f / %.3f\n",
        direction, seconds(takeover).c_str(), std::string(streams::enumName(chosen)).c_str(),
        seconds(a.firstTime < 0 || takeover < 0 ? -1 : a.firstTime - takeover).c_str(), a.headSpeed,
        b.headSpeed, a.armSpeed, b.armSpeed, a.headTorque, b.headTorque, a.armTorque, b.armTorque,
        on.minTorsoHeight, off.minTorsoHeight);
    std::printf("  contacts on: head %s arm %s first %s; off: head %s arm %s first %s\n",
                seconds(a.headTime).c_str(), seconds(a.armTime).c_str(), seconds(a.firstTime).c_str(),
                seconds(b.headTime).c_str(), seconds(b.armTime).c_str(), seconds(b.firstTime).c_str());
    EXPECT_LT(off.minTorsoHeight, fallenTorsoHeight); // the push topples the robot without protection
    ASSERT_GT(b.firstTime, 0);
    // The posture is taken before the first impact, for the direction pushed.
    ASSERT_GT(takeover, pushTime);
    EXPECT_LT(takeover, a.firstTime);
    const FallDirection pushed = direction == std::string("front")  ? FallDirection::front
                                 : direction == std::string("back") ? FallDirection::back
                                 : direction == std::string("left") ? FallDirection::left
                                                                    : FallDirection::right;
    EXPECT_EQ(chosen, pushed);
    // The head lands slower, or not at all; the head's and the arms' joints take less torque at impact.
    // (A head that lands in neither run carries only its motor's torque: nothing to compare.)
    if (b.headTime > 0)
    {
      EXPECT_LT(a.headSpeed, b.headSpeed);
      EXPECT_LT(a.headTorque, b.headTorque);
    }
    else
      EXPECT_LT(a.headTime, 0);
    EXPECT_LT(a.armTorque, b.armTorque);
  }
}

// Sideways on 8 robots (seeds 1-8, each its own draw of the plant; `Simulator fallprotection` runs the same with all 8
// directions): the protection must not bring the head down where the robot without it keeps it off the floor, the
// arms, which land first sideways, land slower with it, and the arms' and the head's joints take less torque.
TEST(FallProtectionSimulation, SidewaysTheHeadStaysOffTheFloorOnEveryRobot)
{
  for (const char* direction : {"left", "right"})
    for (std::uint64_t seed = 1; seed <= 8; ++seed)
    {
      SCOPED_TRACE(std::string(direction) + ", seed " + std::to_string(seed));
      const std::string scenario = std::string("fall") + direction;
      const SimulationResult on = run(scenario, true, seed), off = run(scenario, false, seed);
      const FallImpact a = fallImpactOf(on, pushTime), b = fallImpactOf(off, pushTime);
      std::printf("%s seed %llu: head %s / %s, arm %.2f / %.2f m/s, head torque %.2f / %.2f, arm torque %.2f "
                  "/ %.2f N·m\n",
                  direction, static_cast<unsigned long long>(seed), seconds(a.headTime).c_str(),
                  seconds(b.headTime).c_str(), a.armSpeed, b.armSpeed, a.headTorque, b.headTorque,
                  a.armTorque, b.armTorque);
      ASSERT_LT(off.minTorsoHeight, fallenTorsoHeight);
      if (b.headTime > 0)
        EXPECT_LT(a.headSpeed, b.headSpeed);
      else
        EXPECT_LT(a.headTime, 0) << "the head landed only with the protection";
      EXPECT_LT(a.armSpeed, b.armSpeed);
      EXPECT_LT(a.armTorque, b.armTorque);
      EXPECT_LT(a.headTorque, b.headTorque);
    }
}

TEST(FallProtectionSimulation, AFallenRobotLiesPassiveAndItsJointsDrawNothing)
{
  // fallfront on robot seed 1 for 40 s: the push at 3 s fells it, it lies from about 4 s. The stand's request stays
  // stiff throughout (the scenario has no get-up), as a motion source that does not know of the fall.
  SimulationOptions options = test::testRunOptions("fallfront", 40.0 / 60.0, 1, "nao-fallprotection-passive");
  const SimulationResult result = runSimulation(options);
  struct Frame
  {
    double time;
    FallProtectionPhase phase;
    float largestStiffness; ///< of the request that went out
  };
  const auto frames = test::framesOf<FrameInfo, FallProtection, JointRequest>(
      result.log,
      [](const FrameInfo& info, const FallProtection& protection, const JointRequest& request)
      {
        return Frame{info.time, protection.phase,
                     *std::max_element(request.stiffnesses.begin(), request.stiffnesses.end())};
      });
  double passiveAt = -1;
  for (const Frame& f : frames)
  {
    if (passiveAt < 0 && f.phase == FallProtectionPhase::lyingPassive) passiveAt = f.time;
    if (passiveAt >= 0)
    {
      EXPECT_EQ(f.phase, FallProtectionPhase::lyingPassive)
          << f.time << ": passive until upright or a get-up";
      EXPECT_EQ(f.largestStiffness, 0.f) << f.time;
    }
  }
  ASSERT_GT(passiveAt, pushTime);
  EXPECT_LT(passiveAt, pushTime + 3.0) << "s: lying still for lieStillTime after the fall";
  // Every motor draws (almost) nothing from a second after, and no joint warms beyond the warming it had.
  double largestCurrent = 0;
  std::array<float, 25> atPassive{}, hottest{};
  bool haveStart = false;
  for (const RunSample& s : result.samples)
  {
    if (s.time < passiveAt + 1.0) continue;
    if (!haveStart) atPassive = s.temperatures;
    haveStart = true;
    for (std::size_t j = 0; j < 25; ++j)
    {
      largestCurrent = std::max(largestCurrent, static_cast<double>(s.currents[j]));
      hottest[j] = std::max(hottest[j], s.temperatures[j]);
    }
  }
  ASSERT_TRUE(haveStart);
  std::printf("passive from %.2f s; then the largest reported current %.0f mA\n", passiveAt,
              largestCurrent * 1000);
  EXPECT_LT(largestCurrent, 0.05)
      << "A: stiffness 0 leaves a motor nothing to push with (3 mA noise, offsets)";
  for (std::size_t j = 0; j < 25; ++j)
    EXPECT_LE(hottest[j], atPassive[j] + 1.f) << jointNames[j] << ": °C, whole degrees as reported";
}
