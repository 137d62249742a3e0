// The plant's calibration against B-Human's figures (Util/Simulator/Physics/README.md, "Calibration"; the table:
// Docs/Results/Calibration.md): one ensemble of 20 simulated robots, two of them worn, standing for 10 minutes in a
// 25 °C room without heat adjustment (CalibrationEvaluation.h, as `Simulator calibration` runs it). The robot software
// here only commands the posture (ScenarioPlayer); no module that the plant is meant to judge takes part. The fitted
// plant numbers (motors.toml) were chosen for these figures; the tests keep them from drifting.
#include "Util/Simulator/Run/CalibrationEvaluation.h"

#include <cmath>
#include <gtest/gtest.h>
#include <numbers>

using namespace nao;

namespace
{
const double oneCount = 2.0 * std::numbers::pi / 4096.0; ///< rad, one step of LoLA's position reading

/// The ensemble both tests judge, run once: the settings' defaults are the command's.
const std::vector<CalibrationStand>& unadjustedStands()
{
  static const std::vector<CalibrationStand> stands = []
  {
    CalibrationSettings settings;
    settings.simulator = NAO_SIMULATOR_BINARY;
    settings.config = NAO_CONFIG_DIR;
    settings.output = std::filesystem::temp_directory_path() / "nao-calibration";
    return runCalibrationEnsemble(settings, {});
  }();
  return stands;
}
} // namespace

TEST(Calibration, AnUnadjustedStandDrawsOverOneAmpereInTheKneesWhileRequestAndReadingAgree)
{
  // Seed 002: "even though the differences of the requested joint positions and the measured ones can be very
  // low or even measured to be 0, the currents on the motors can exceed 1000 mA."
  const std::vector<CalibrationStand>& stands = unadjustedStands();
  ASSERT_EQ(stands.size(), 20u);
  std::vector<double> kneeCurrents;
  int withinOneCount = 0, knees = 0;
  for (const CalibrationStand& robot : stands)
  {
    EXPECT_DOUBLE_EQ(robot.minuteEnd, 60.0);
    for (std::size_t k = 0; k < 2; ++k)
    {
      EXPECT_LE(robot.kneeErrors[k], 2.0 * oneCount)
          << "seed " << robot.seed << (k ? " RKneePitch" : " LKneePitch");
      withinOneCount += robot.kneeErrors[k] <= oneCount;
      ++knees;
    }
    kneeCurrents.push_back(robot.highestKneeCurrent());
    EXPECT_GT(robot.lowestTorso, 0.28) << "seed " << robot.seed << " stands";
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
  std::vector<double> hotAfter;
  for (const CalibrationStand& robot : unadjustedStands())
    hotAfter.push_back(robot.firstHot >= 0 ? robot.firstHot : INFINITY);
  EXPECT_GE(percentile(hotAfter, 0.5), 180.0); // s
  EXPECT_LE(percentile(hotAfter, 0.5), 480.0);
  EXPECT_GE(percentile(hotAfter, 0.1), 90.0);
}
