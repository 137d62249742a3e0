// The plant's calibration against the seed's figures (Util/Simulator/Physics/README.md has the table): ensembles of
// 20 simulated robots, two of them worn, standing without heat adjustment. The robot software here only
// commands the posture (ScenarioPlayer); no module that the plant is meant to judge takes part. The fitted
// plant numbers (motors.toml) were chosen for these figures; the tests keep them from drifting.
#include "Representations/Infrastructure/Joints.h"
#include "Util/Simulator/Run/Ensemble.h"
#include "Util/Simulator/Run/Tests/SimulationTestSupport.h"

#include <cmath>
#include <gtest/gtest.h>
#include <numbers>

using namespace nao;

namespace
{
const double oneCount = 2.0 * std::numbers::pi / 4096.0; ///< rad, one step of LoLA's position reading

EnsembleReport unadjustedStand(double minutes, const std::string& name)
{
  const EnsembleOptions options = test::testEnsembleOptions(
      NAO_SIMULATOR_BINARY,
      test::quietRunArguments("stand", std::to_string(minutes),
                              {"JointRequest=off", "EnergySaving=off", "StiffnessJointRequest=off"}),
      20, 2, 100, std::filesystem::temp_directory_path() / name);
  std::filesystem::remove_all(options.output);
  runEnsemble(options, {});
  return readEnsemble(options.output);
}
} // namespace

TEST(Calibration, AnUnadjustedStandDrawsOverOneAmpereInTheKneesWhileRequestAndReadingAgree)
{
  // Seed 002: "even though the differences of the requested joint positions and the measured ones can be very
  // low or even measured to be 0, the currents on the motors can exceed 1000 mA."
  const EnsembleReport report = unadjustedStand(1.0, "nao-calibration-stand");
  ASSERT_EQ(report.robots.size(), 20u);
  std::vector<double> kneeCurrents;
  int withinOneCount = 0, knees = 0;
  for (const RobotRun& robot : report.robots)
  {
    double highest = 0;
    for (const Joint knee : {Joint::LKneePitch, Joint::RKneePitch})
    {
      const JointSummary& joint = robot.summary.joints[index(knee)];
      highest = std::max(highest, joint.finalCurrent);
      EXPECT_LE(joint.finalError, 2.0 * oneCount) << "seed " << robot.summary.seed << " " << name(knee);
      withinOneCount += joint.finalError <= oneCount;
      ++knees;
    }
    kneeCurrents.push_back(highest);
    EXPECT_GT(robot.summary.minTorsoHeight, 0.28) << "seed " << robot.summary.seed << " stands";
  }
  EXPECT_GT(percentile(kneeCurrents, 0.5), 1.0); // A, median robot
  EXPECT_GT(percentile(kneeCurrents, 0.1), 0.6); // A
  EXPECT_LT(percentile(kneeCurrents, 0.9), 2.5); // A: below the stall current's half
  EXPECT_GE(withinOneCount, knees * 3 / 4) << "most knees read within one count of their request";
}

TEST(Calibration, AnUnadjustedGoalieReachesAHeatStateWithinThreeToEightMinutes)
{
  // Seed 002: "our goalie, which had nothing to do apart from standing around, already reached a heat state
  // after only 3 minutes".
  const EnsembleReport report = unadjustedStand(10.0, "nao-calibration-goalie");
  std::vector<double> hotAfter;
  for (const RobotRun& robot : report.robots)
  {
    double first = INFINITY;
    for (const JointSummary& joint : robot.summary.joints)
      if (joint.hotAfter >= 0) first = std::min(first, joint.hotAfter);
    hotAfter.push_back(first);
  }
  EXPECT_GE(percentile(hotAfter, 0.5), 180.0); // s
  EXPECT_LE(percentile(hotAfter, 0.5), 480.0);
  EXPECT_GE(percentile(hotAfter, 0.1), 90.0);
}
