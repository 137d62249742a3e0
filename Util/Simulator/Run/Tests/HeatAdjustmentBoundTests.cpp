// The heat adjustment's step bound on the worn plant variants (README of EnergySavingProvider, "The guard"): 4
// simulated robots (seeds 104-107, the last two worn) of each of unsharedWornKnees and wornKneesAnkles, 1 minute of
// B-Human's stand without the stages, with the heat adjustment alone, and with smart stiffness as well. Every knee's
// highest one-second mean of its true motor current from the posture's hold on stays within max(1.5 × reference,
// reference + 0.3 A), the reference being the same robot's knee without the stages (its true mean from 10 s on); the
// run without the stages' own peak (the end of the motion into the posture, the same in both runs) is allowed too.
// Tolerance: one count of the knee's board (summary.csv's countCurrent, 0.32-0.35 A here): the plant's knees hold
// whole counts, the bound of a knee that holds two lies on its third, and a step of an eighth of a count can leave
// the board a count higher that going back does not return (its hysteresis). And the legs still draw less in sum
// than without the stages.
#include "Util/Simulator/Physics/SimConfig.h"
#include "Util/Simulator/Run/Tests/SimulationTestSupport.h"

#include <algorithm>
#include <cstdio>
#include <gtest/gtest.h>
#include <string>
#include <utility>
#include <vector>

using namespace nao;

namespace
{
constexpr int robots = 4, worn = 2;
constexpr std::uint64_t firstSeed = 104;

EnsembleReport ensembleOf(const std::string& variant, const std::vector<std::string>& providers,
                          const std::string& name)
{
  std::vector<std::string> arguments = test::quietRunArguments("stand", "1", providers);
  // Every robot in the room it starts at (as the harm matrix): the same robot with and without the stages.
  const double room = sim::loadSimConfig(NAO_CONFIG_DIR).motors.roomTemperature;
  arguments.insert(arguments.end(), {"--variant", variant, "--room", std::to_string(room)});
  const EnsembleOptions options =
      test::testEnsembleOptions(NAO_SIMULATOR_BINARY, arguments, robots, worn, firstSeed,
                                std::filesystem::temp_directory_path() / ("nao-heat-bound-" + name));
  std::filesystem::remove_all(options.output);
  runEnsemble(options, {});
  return readEnsemble(options.output);
}

double legCurrent(const RobotRun& robot)
{
  double sum = 0;
  for (std::size_t j = 0; j < numOfJoints; ++j)
    if (isLegJoint(jointAt(j))) sum += robot.summary.joints[j].heldMeanCurrent;
  return sum;
}
} // namespace

class HeatAdjustmentBound : public ::testing::TestWithParam<std::string>
{
};

TEST_P(HeatAdjustmentBound, EveryKneeStaysWithinItsBoundWithTheHeatAdjustmentAloneAndWithSmartStiffness)
{
  const std::string& variant = GetParam();
  const EnsembleReport off = ensembleOf(
      variant, {"JointRequest=off", "EnergySaving=off", "StiffnessJointRequest=off", "SmartStiffness=off"},
      variant + "-off");
  ASSERT_EQ(off.robots.size(), static_cast<std::size_t>(robots));
  const std::vector<std::pair<std::string, std::vector<std::string>>> configurations = {
      {"heat", {"StiffnessJointRequest=off", "SmartStiffness=off"}}, {"both", {}}};
  for (const auto& [name, providers] : configurations)
  {
    SCOPED_TRACE(variant + ", " + name);
    const EnsembleReport on = ensembleOf(variant, providers, variant + "-" + name);
    ASSERT_EQ(on.robots.size(), off.robots.size());
    double legsOn = 0, legsOff = 0;
    for (std::size_t r = 0; r < on.robots.size(); ++r)
    {
      const RobotRun& with = on.robots[r];
      const RobotRun& without = off.robots[r];
      ASSERT_EQ(with.summary.seed, without.summary.seed);
      for (const Joint knee : {Joint::LKneePitch, Joint::RKneePitch})
      {
        const JointSummary& k = with.summary.joints[index(knee)];
        const JointSummary& reference = without.summary.joints[index(knee)];
        const double ref = reference.heldMeanCurrent;
        const double bound = std::max(1.5 * ref, ref + 0.3);
        const double allowed = std::max(bound, reference.briefPeakCurrent) + k.countCurrent;
        std::printf("%s %s seed %llu %s: reference %.3f A, bound %.3f A, peak %.3f A (without: %.3f A), held "
                    "%.3f A\n",
                    variant.c_str(), name.c_str(), static_cast<unsigned long long>(with.summary.seed),
                    std::string(jointNames[index(knee)]).c_str(), ref, bound, k.briefPeakCurrent,
                    reference.briefPeakCurrent, k.heldMeanCurrent);
        EXPECT_LE(k.briefPeakCurrent, allowed)
            << "seed " << with.summary.seed << " " << jointNames[index(knee)] << ": reference " << ref
            << " A, bound " << bound << " A, one count " << k.countCurrent << " A";
      }
      legsOn += legCurrent(with);
      legsOff += legCurrent(without);
    }
    EXPECT_LT(legsOn, legsOff) << "the legs' true currents summed over the robots, from 10 s on";
  }
}

INSTANTIATE_TEST_SUITE_P(WornVariants, HeatAdjustmentBound,
                         ::testing::Values("unsharedWornKnees", "wornKneesAnkles"),
                         [](const ::testing::TestParamInfo<std::string>& plant) { return plant.param; });
