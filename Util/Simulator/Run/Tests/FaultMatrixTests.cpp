// The fault matrix (README of Util/Simulator, "Sensor faults"). First the judge on findings written by hand; then the
// short form of `Simulator faults`: every fault of Config/Sim/faults.toml on shortFormRobots robots, in two test cases
// of half the faults each (each with its own baseline runs; two CTest shards run them side by side). It asserts what shared/
// DESIGN.md asks ("Trust no single reading"): no protective action (protective fall, sit-down, lowered limit, lifted)
// and no fall on a robot that stands without the fault, in the stand, stepping and sit; a push's fall detected
// before its impact, and a chest-button press that sits the robot down, while any one other sensor is faulty.
// A failing cell is printed with what went wrong on which robots.
#include "Util/Simulator/Run/FaultMatrix.h"
#include "Util/Simulator/Run/SensorFaults.h"

#include "Tools/Testing/TemporaryFolder.h"

#include <gtest/gtest.h>

using namespace nao;

namespace
{
constexpr int shortFormRobots = 2;
constexpr double onset = 10.0;

RunFindings standing(std::uint64_t seed)
{
  RunFindings f;
  f.seed = seed;
  f.stiffnessTaken.fill(0.3);
  f.stiffness.fill(0.7);
  return f;
}

/// Five runs of one robot (stand, stepping, sit, push, press) where nothing goes wrong: the push's fall detected
/// 0.4 s before its impact, the press sits the robot down after 0.06 s.
std::array<std::vector<RunFindings>, 5> calm()
{
  std::array<std::vector<RunFindings>, 5> runs;
  for (auto& run : runs)
    run.push_back(standing(1));
  RunFindings& push = runs[static_cast<std::size_t>(FaultRun::push)].front();
  push.event = 12.0;
  push.detection = 12.9;
  push.impact = 13.3;
  push.fell = 13.3;
  RunFindings& press = runs[static_cast<std::size_t>(FaultRun::press)].front();
  press.event = 12.0;
  press.sittingDown = 12.06;
  press.sitDown = 12.06;
  return runs;
}
} // namespace

TEST(FaultMatrixJudge, AProtectiveActionOnARobotThatStandsWithoutTheFaultIsFalse)
{
  auto faulty = calm();
  RunFindings& stand = faulty[0].front();
  stand.sitDown = 10.012;
  stand.sitDownReason = SitDownReason::lowBattery;
  stand.stiffnessTaken[10] = 0.3 + 0.051; // more than the margin off LKneePitch
  stand.stiffnessTaken[11] = 0.3 + 0.049; // less
  faulty[1].front().protectiveFall = 10.5;
  faulty[1].front().fell = 11.3;
  faulty[2].front().lifted = 10.2;
  const FaultRow row = judgeFault("batteryZeroOnce", false, false, faulty, calm(), onset, 0.05);
  const PlainVerdict& v = row.plain[0].front();
  EXPECT_TRUE(v.sitDown);
  EXPECT_TRUE(v.loweredLimit);
  EXPECT_FALSE(v.protectiveFall);
  ASSERT_EQ(v.details.size(), 2u);
  EXPECT_EQ(v.details[0], "sit-down (lowBattery) 0.01 s after the onset");
  EXPECT_NE(v.details[1].find("lowered limit LKneePitch"), std::string::npos) << v.details[1];
  EXPECT_TRUE(row.plain[1].front().protectiveFall && row.plain[1].front().fell) << "a fall the fault caused";
  EXPECT_TRUE(row.plain[2].front().lifted);
  const FaultMatrixResult matrix{
      {judgeFault("", false, false, calm(), calm(), onset, 0.05), row}, 1, onset, 25, 2, 4, 0.05};
  const std::vector<std::string> failures = faultMatrixFailures(matrix);
  ASSERT_EQ(failures.size(), 3u) << "the baseline passes; stand, stepping and sit under the fault fail";
  EXPECT_EQ(failures[0], "batteryZeroOnce x stand, robots of 1: sit-down 1, lowered limit 1");
  const std::string table = faultMatrixTable(matrix, "Simulator faults --robots 1");
  EXPECT_EQ(table.rfind("Written by `Simulator faults --robots 1`.", 0), 0u) << table;
  EXPECT_NE(table.find("| baseline | none | none | none | 1 of 1, 0.40 s (0.40 s–0.40 s) | 1 of 1, 0.06 s"),
            std::string::npos)
      << table;
}

TEST(FaultMatrixJudge, ARobotThatFallsWithoutTheFaultIsNotJudged)
{
  auto baseline = calm(), faulty = calm();
  baseline[0].front().fell = 8.0; // before the onset: identical with the fault
  faulty[0].front().fell = 8.0;
  faulty[0].front().protectiveFall = 10.0;
  const FaultRow row = judgeFault("gyroStuck5", false, false, faulty, baseline, onset, 0.05);
  EXPECT_FALSE(row.plain[0].front().judged);
  EXPECT_FALSE(row.plain[0].front().acted());
}

TEST(FaultMatrixJudge, RealEventsMustWorkUnlessTheFaultIsOfTheirOwnReading)
{
  auto faulty = calm();
  RunFindings& push = faulty[static_cast<std::size_t>(FaultRun::push)].front();
  push.detection = -1; // the fall came undetected
  RunFindings& press = faulty[static_cast<std::size_t>(FaultRun::press)].front();
  press.sittingAtEvent = true; // a stuck button sat it down at the onset
  press.sittingDown = -1;
  const FaultRow row = judgeFault("chestButtonStuck", false, true, faulty, calm(), onset, 0.05);
  EXPECT_EQ(row.push.front().outcome, EventOutcome::missed);
  EXPECT_EQ(row.press.front().outcome, EventOutcome::alreadySitting);
  const FaultMatrixResult matrix{{row}, 1, onset, 25, 2, 4, 0.05};
  const std::vector<std::string> failures = faultMatrixFailures(matrix);
  ASSERT_EQ(failures.size(), 1u) << "the press is exempt: the fault is the chest button's";
  EXPECT_EQ(failures[0],
            "chestButtonStuck x push: fall detected before its impact on 0 of 1 robots (missed 1)");
  // A fall that came before the push (the fault's own reaction) is no detection of the push's fall.
  push.fell = 11.0;
  EXPECT_EQ(judgeFault("x", false, false, faulty, calm(), onset, 0.05).push.front().outcome,
            EventOutcome::fellBefore);
}

namespace
{
/// The short form for `faults`: the table on failure, and every failing cell.
void expectNoProtectiveActionOnAStandingRobot(const std::vector<std::string>& faults,
                                              const std::string& group)
{
  const test::TemporaryFolder folder("fault-matrix-" + group);
  FaultMatrixOptions options;
  options.simulator = NAO_SIMULATOR_BINARY;
  options.config = NAO_CONFIG_DIR;
  options.output = folder.path;
  options.faults = faults;
  options.robots = shortFormRobots;
  const FaultMatrixResult matrix = runFaultMatrix(options, {});
  const std::vector<std::string> failures = faultMatrixFailures(matrix);
  std::string list;
  for (const std::string& failure : failures)
    list += "  " + failure + "\n";
  EXPECT_TRUE(failures.empty()) << failures.size() << " failing cells:\n"
                                << list << "\n"
                                << faultMatrixTable(matrix, "FaultMatrixTests " + group);
}

/// The first or the second half of the file's faults (in its order: inertial sensors and feet first).
std::vector<std::string> halfOfTheFaults(int half)
{
  std::vector<std::string> names;
  const std::vector<InjectedFault> faults = loadSensorFaults(NAO_CONFIG_DIR).faults;
  for (std::size_t k = 0; k < faults.size(); ++k)
    if ((2 * k < faults.size()) == (half == 0)) names.push_back(faults[k].name);
  return names;
}
} // namespace

// Two test cases of half the faults each, each with its own baseline runs: GoogleTest deals them out to the two
// shards, which CTest runs side by side.
TEST(FaultMatrix, TheFirstHalfOfTheFaults)
{
  expectNoProtectiveActionOnAStandingRobot(halfOfTheFaults(0), "first");
}

TEST(FaultMatrix, TheSecondHalfOfTheFaults)
{
  expectNoProtectiveActionOnAStandingRobot(halfOfTheFaults(1), "second");
}
