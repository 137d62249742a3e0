// JointThermalStateProvider's forecast of the time to temperature status 1 against the simulator's plant (a different,
// two-node model): three robots (seeds 100-102) stand unadjusted for 5 simulated minutes with their logs, and the
// forecast made 120 s after the stand is held is compared with the time the plant took. The long form (20 robots,
// four configurations, 60/120/300 s) is `Simulator thermal`, its tables in thermal.md of the first folder.
#include "Representations/Infrastructure/Joints.h"
#include "Util/Simulator/Run/Tests/SimulationTestSupport.h"
#include "Util/Simulator/Run/ThermalEnsembles.h"
#include "Util/Simulator/Run/ThermalForecast.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <iostream>
#include <limits>
#include <utility>
#include <vector>

using namespace nao;

namespace
{
/// The unadjusted stand of seeds 100-102, once per test program (about 20 s on 2 cores).
const std::vector<RobotThermalForecast>& unadjustedStand()
{
  static const std::vector<RobotThermalForecast> robots = []
  {
    const auto output = std::filesystem::temp_directory_path() / "nao-thermal-forecast";
    std::filesystem::remove_all(output);
    std::vector<std::string> arguments =
        test::quietRunArguments("stand", "5", {"JointRequest=off", "EnergySaving=off"});
    std::erase(arguments, std::string("--no-log")); // the forecasts are in the robot's log
    EnsembleOptions options = test::testEnsembleOptions(NAO_SIMULATOR_BINARY, arguments, 3, 0, 100, output);
    options.jobs = 2;
    runEnsemble(options, {});
    std::vector<RobotThermalForecast> result = evaluateThermalEnsemble(output, {120.0});
    std::filesystem::remove_all(output); // the logs are large
    return result;
  }();
  return robots;
}

std::vector<JointForecast> reachingJoints(const std::vector<RobotThermalForecast>& robots)
{
  std::vector<JointForecast> joints;
  for (const RobotThermalForecast& robot : robots)
    for (const JointForecast& forecast : robot.forecasts)
      if (std::isfinite(forecast.actual)) joints.push_back(forecast);
  return joints;
}
} // namespace

TEST(ThermalForecast, EveryKneeThatReachesStatusOneHasBothForecastsAndTheErrorsAreReported)
{
  const auto& robots = unadjustedStand();
  ASSERT_EQ(robots.size(), 3u);
  const std::vector<JointForecast> joints = reachingJoints(robots);
  ASSERT_GE(joints.size(), 3u) << "the calibration: unadjusted knees reach status 1 within 2-9 minutes";
  for (const JointForecast& forecast : joints)
  {
    EXPECT_TRUE(isLegJoint(jointAt(forecast.joint))) << jointNames[forecast.joint];
    EXPECT_FALSE(std::isnan(forecast.asRun)) << "(a) for seed " << forecast.seed;
    EXPECT_FALSE(std::isnan(forecast.learned))
        << "(b): the run taught the joint's threshold, seed " << forecast.seed;
    EXPECT_GT(forecast.actual, 0.0);
    EXPECT_TRUE(loadHeld(forecast)) << "an unadjusted stand's load holds: " << forecast.load << " A² at the "
                                    << "forecast, " << forecast.loadAfter << " A² until status 1, seed "
                                    << forecast.seed;
  }
  // Case (a) is reported, whatever it is: the table's row of the 120 s forecast with its joints.
  const std::string tables = thermalForecastTables({"stand unadjusted"}, {robots}, {120.0});
  EXPECT_NE(tables.find("(a) thresholds as the robot ran them"), std::string::npos) << tables;
  EXPECT_NE(tables.find("| stand unadjusted | 120 | " + std::to_string(joints.size()) + " |"),
            std::string::npos)
      << tables;
  const std::vector<ForecastErrors> asRun = forecastErrors(robots, {120.0}, false);
  ASSERT_EQ(asRun.size(), 1u);
  EXPECT_EQ(asRun[0].joints, joints.size());
  EXPECT_EQ(asRun[0].forecasts, joints.size());
  std::cout << tables;
}

// (c): the budget the robot logged is the least of its joints' forecasts (ThermalBudgetProvider), judged against the
// first of its joints to reach status 1 in the plant.
TEST(ThermalForecast, TheRobotsBudgetIsItsLeastJointForecastAndIsJudgedAgainstItsFirstJoint)
{
  const auto& robots = unadjustedStand();
  std::size_t judged = 0;
  for (const RobotThermalForecast& robot : robots)
  {
    ASSERT_EQ(robot.budgets.size(), 1u) << "the stand logs ThermalBudget; seed " << robot.seed;
    const BudgetForecast& budget = robot.budgets[0];
    EXPECT_EQ(budget.horizon, 120.0);
    if (budget.alreadyThere) continue;
    double least = std::numeric_limits<double>::infinity(), first = least;
    for (const JointForecast& forecast : robot.forecasts)
    {
      least = std::min(least, forecast.asRun);
      first = std::min(first, forecast.actual);
    }
    // ThermalBudget holds minutes as float.
    EXPECT_NEAR(budget.asRun, least, 1e-5 * least) << "seed " << robot.seed;
    EXPECT_EQ(budget.actual, first) << "seed " << robot.seed;
    judged += std::isfinite(first);
  }
  const std::vector<BudgetErrors> table = budgetErrors(robots, {120.0});
  ASSERT_EQ(table.size(), 1u);
  EXPECT_EQ(table[0].robots, judged);
  EXPECT_GE(judged, 1u) << "the calibration: unadjusted knees reach status 1 within 2-9 minutes";
  const std::string tables = thermalForecastTables({"stand unadjusted"}, {robots}, {120.0});
  EXPECT_NE(tables.find("(c) the robot's budget as it ran"), std::string::npos) << tables;
  EXPECT_NE(tables.find("| stand unadjusted | 120 | " + std::to_string(table[0].alreadyThere) + " | " +
                        std::to_string(judged) + " |"),
            std::string::npos)
      << tables;
}

// `Simulator thermal`'s own ensembles (thermalConfig: a Config/ copy that logs only what the judge reads) log the
// budget too: two robots, 3 simulated minutes of the unadjusted stand.
TEST(ThermalForecast, TheThermalCommandsEnsemblesLogTheBudget)
{
  const auto output = std::filesystem::temp_directory_path() / "nao-thermal-command-budget";
  std::filesystem::remove_all(output);
  ThermalEnsembleSettings settings;
  settings.robots = 2;
  settings.worn = 0;
  settings.minutes = 3;
  settings.jobs = 2;
  settings.simulator = NAO_SIMULATOR_BINARY;
  settings.config = thermalConfig(NAO_CONFIG_DIR, output);
  settings.output = output;
  const auto folder = runThermalEnsemble(settings, thermalConfigurations().front(), {});
  const std::vector<RobotThermalForecast> robots = evaluateThermalEnsemble(folder, {120.0});
  std::filesystem::remove_all(output); // the logs are large
  ASSERT_EQ(robots.size(), 2u);
  for (const RobotThermalForecast& robot : robots)
  {
    ASSERT_EQ(robot.budgets.size(), 1u) << "seed " << robot.seed;
    if (robot.budgets[0].alreadyThere) continue;
    double least = std::numeric_limits<double>::infinity();
    for (const JointForecast& forecast : robot.forecasts)
      least = std::min(least, forecast.asRun);
    EXPECT_NEAR(robot.budgets[0].asRun, least, 1e-5 * least) << "seed " << robot.seed;
  }
}

TEST(ThermalForecastJudge, ABudgetIsJudgedWhereNoJointIsThereYetAndItsNeversAndSoonsAreCounted)
{
  // Robots at 120 s, their first joint 100 s from status 1: trusted 10 % and 30 % off, learning 50 % off and never;
  // two that stay below (one budget ends within the run, one says never); one with a joint there already.
  RobotThermalForecast robot;
  const auto add = [&](double budget, bool learning, double actual, bool alreadyThere = false)
  {
    BudgetForecast b;
    b.horizon = 120;
    b.actual = actual;
    b.remaining = 480;
    b.asRun = budget;
    b.learning = learning;
    b.alreadyThere = alreadyThere;
    robot.budgets.push_back(b);
  };
  const double never = std::numeric_limits<double>::infinity();
  add(110, false, 100);
  add(70, false, 100);
  add(150, true, 100);
  add(never, true, 100);
  add(300, false, never);
  add(never, false, never);
  add(0, false, 50, true);
  const std::vector<BudgetErrors> table = budgetErrors({robot}, {120.0, 300.0});
  ASSERT_EQ(table.size(), 2u);
  const BudgetErrors& errors = table[0];
  EXPECT_EQ(errors.alreadyThere, 1u);
  EXPECT_EQ(errors.robots, 4u);
  EXPECT_EQ(errors.neverWrongly, 1u);
  EXPECT_EQ(errors.quietRobots, 2u);
  EXPECT_EQ(errors.soonWrongly, 1u);
  EXPECT_EQ(errors.learning, 2u);
  EXPECT_NEAR(errors.actualMedian, 100.0, 1e-12);
  EXPECT_NEAR(errors.relativeMedian, 0.4, 1e-12); // 30 and 50 %
  EXPECT_TRUE(std::isinf(errors.relative90));     // between 50 % and the never
  EXPECT_NEAR(errors.trustedMedian, 0.2, 1e-12);  // 10 and 30 %
  EXPECT_NEAR(errors.trusted90, 0.28, 1e-12);
  EXPECT_EQ(table[1].robots + table[1].alreadyThere + table[1].quietRobots, 0u) << "no budget at 300 s";
  EXPECT_TRUE(std::isnan(table[1].relativeMedian) && std::isnan(table[1].trustedMedian));
}

// The goal: with the thresholds a robot learned (b), the forecast made 120 s after the stand is held is
// within 25 % of the time the plant took (the median over the knees that reach status 1; each within 50 %), and
// it calls none of them "never".
TEST(ThermalForecast, WithLearnedThresholdsTheForecastAt120SecondsIsWithin25PercentOfThePlant)
{
  const std::vector<JointForecast> joints = reachingJoints(unadjustedStand());
  ASSERT_GE(joints.size(), 3u);
  for (const JointForecast& forecast : joints)
  {
    std::cout << "seed " << forecast.seed << " " << jointNames[forecast.joint] << ": forecast (b) "
              << forecast.learned << " s, plant " << forecast.actual << " s, learning " << forecast.learning
              << "\n";
    EXPECT_TRUE(std::isfinite(forecast.learned)) << "seed " << forecast.seed;
    EXPECT_LT(std::abs(forecast.learned - forecast.actual), 0.5 * forecast.actual)
        << "seed " << forecast.seed;
  }
  const std::vector<ForecastErrors> learned = forecastErrors(unadjustedStand(), {120.0}, true);
  ASSERT_EQ(learned.size(), 1u);
  EXPECT_EQ(learned[0].forecasts, joints.size());
  EXPECT_EQ(learned[0].neverWrongly, 0u);
  EXPECT_LE(learned[0].relativeMedian, 0.25);
}

TEST(ThermalForecast, TheRobotLearnsOneStatusOneThresholdForAllItsKnees)
{
  // The firmware's threshold is one number: what the robots learned of it agrees within the 1 K of LoLA's
  // whole degrees (each joint's estimate when its status changed).
  std::vector<double> learned;
  for (const RobotThermalForecast& robot : unadjustedStand())
    for (const double threshold : robot.learnedThresholds)
      if (!std::isnan(threshold)) learned.push_back(threshold);
  ASSERT_GE(learned.size(), 3u);
  EXPECT_LT(percentile(learned, 1.0) - percentile(learned, 0.0), 1.0);
}

TEST(ThermalForecastJudge, AForecastIsJudgedAsOneOfTheMotionItSawWhereItsLoadHeld)
{
  JointForecast forecast;
  forecast.load = 1.0;
  for (const auto& [after, held] : std::vector<std::pair<double, bool>>{
           {1.0, true}, {1.2, true}, {1.3, false}, {0.82, true}, {0.78, false}, {4.0, false}, {0.0, false}})
  {
    forecast.loadAfter = forecast.loadLowest = forecast.loadHighest = after;
    EXPECT_EQ(loadHeld(forecast), held) << "1 A² at the forecast, " << after << " A² until status 1";
  }
  forecast.loadAfter = forecast.loadLowest = 1.0;
  forecast.loadHighest = 1.3;
  EXPECT_FALSE(loadHeld(forecast)) << "the running mean above the factor once is enough";
  forecast.loadAfter = 0.7; // a change shorter than the running mean's memory: the running mean stayed within
  forecast.loadLowest = 0.85;
  forecast.loadHighest = 1.0;
  EXPECT_FALSE(loadHeld(forecast)) << "the whole interval's mean left the factor";
  forecast.load =
      0.0; // a joint without load that stays without: held, whatever the ratio of two tiny numbers
  forecast.loadAfter = forecast.loadLowest = 0.0;
  forecast.loadHighest = 0.002;
  EXPECT_TRUE(loadHeld(forecast));
}

namespace
{
/// `phases` of {s, A²} one after the other (`repeats` times), sampled every 12 ms after a forecast at 0 that assumed
/// `assumed` A², and judged.
JointForecast judged(double assumed, const std::vector<std::pair<double, double>>& phases, int repeats = 1)
{
  RunningLoad running(0.0, assumed, heldLoadMemory);
  double time = 0;
  for (int r = 0; r < repeats; ++r)
    for (const auto& [seconds, load] : phases)
      for (long frame = std::lround(seconds / 0.012); frame > 0; --frame)
        running.add(time += 0.012, load);
  JointForecast forecast;
  forecast.load = assumed;
  forecast.loadAfter = running.mean();
  forecast.loadLowest = running.lowest();
  forecast.loadHighest = running.highest();
  return forecast;
}

/// Whether the whole interval's mean would have counted as held (the judge's old rule).
bool meanHeld(const JointForecast& forecast)
{
  const double assumed = forecast.load + 0.01, after = forecast.loadAfter + 0.01;
  return after <= heldLoadFactor * assumed && assumed <= heldLoadFactor * after;
}
} // namespace

TEST(ThermalForecastJudge, ALoadThatRoseAndFellOrBurstBeforeStatusOneMovedAlthoughItsMeanHeld)
{
  // 0.34 -> 1.0 -> 0 -> 2.5 A² over minutes, its mean that of the forecast.
  const JointForecast roseAndFell = judged(0.34, {{120, 0.34}, {120, 1.0}, {360, 0.0}, {24, 2.5}});
  EXPECT_TRUE(meanHeld(roseAndFell)) << roseAndFell.loadAfter;
  EXPECT_FALSE(loadHeld(roseAndFell));
  // Robot 105's RAnklePitch sitting on the random plant: 0.34 A² for 37 s, a 12 s burst at 3 A², 200 s idle, then
  // 41 s at 1.2 A² to status 1: its mean lies near the forecast's 0.34 A² (so did its two 120 s blocks' in the run).
  const JointForecast burst = judged(0.336, {{37, 0.336}, {12, 3.0}, {200, 0.0}, {41, 1.2}});
  EXPECT_TRUE(meanHeld(burst)) << burst.loadAfter;
  EXPECT_FALSE(loadHeld(burst));
  // What held: the same load with the reading's noise.
  EXPECT_TRUE(loadHeld(judged(0.34, {{0.5, 0.30}, {0.5, 0.38}}, 600)));
}

TEST(ThermalForecastJudge, ALoadCyclingWithinTheModulesCycleWindowHeld)
{
  // 2.25 A² half the time, 0.04 A² the other half (the module's own cycle test, 1.5 A / 0.2 A), forecast with the
  // cycle's mean, for periods up to 48 s, starting in either phase and ending after either.
  constexpr double high = 2.25, low = 0.04, mean = (high + low) / 2;
  for (const double period : {2.0, 15.0, 30.0, 40.0, 48.0})
    for (const int cycles : {3, 7, 11})
      for (const bool highFirst : {true, false})
        for (const bool extraHalf : {false, true}) // ending after a whole cycle, or half a cycle later
        {
          std::vector<std::pair<double, double>> phases;
          for (int cycle = 0; cycle < cycles; ++cycle)
          {
            phases.emplace_back(period / 2, highFirst ? high : low);
            phases.emplace_back(period / 2, highFirst ? low : high);
          }
          if (extraHalf) phases.emplace_back(period / 2, highFirst ? high : low);
          const JointForecast forecast = judged(mean, phases);
          EXPECT_TRUE(loadHeld(forecast))
              << period << " s period, " << cycles << " cycles, high first " << highFirst << ", extra half "
              << extraHalf << ": mean " << forecast.loadAfter << ", running mean from " << forecast.loadLowest
              << " to " << forecast.loadHighest << " A²";
        }
  // No reading after the forecast: the load it assumed.
  const RunningLoad none(5.0, 0.7, heldLoadMemory);
  EXPECT_EQ(none.lowest(), 0.7);
  EXPECT_EQ(none.highest(), 0.7);
  EXPECT_TRUE(std::isnan(none.mean()));
}

TEST(ThermalForecastJudge, ALearnedThresholdNeverNotRuledOutIsTheEarliestTimeTheFitAllows)
{
  // One node, τ 600 s, 50 K/A² at 1 A² in a 25 °C room, now at 60 °C: the steady state is 75 °C.
  JointForecast forecast;
  forecast.nodes.nodes = 1;
  forecast.nodes.slowest = 600;
  forecast.nodes.powers = {1, 1, 1, 1};
  forecast.nodes.ambient = 25;
  forecast.nodes.rises[0] = 35;
  forecast.nodes.gains[0] = 50;
  forecast.load = 1.0;
  forecast.ripple = 0.5;
  forecast.learning = false;
  const auto solved = [&](double threshold, double steadyStdDev)
  {
    JointForecast f = forecast;
    f.learnedThreshold = threshold;
    f.steadyStdDev = steadyStdDev;
    solveForLearnedThreshold(f);
    return f;
  };
  // Below the steady state: the time the course takes to the threshold less the ripple, the flag as run.
  const JointForecast reached = solved(70.5, 3.0);
  EXPECT_NEAR(reached.learned, 600 * std::log(15.0 / 5.0), 1e-6);
  EXPECT_FALSE(reached.learnedLearning);
  // 76.5 °C less the ripple lies 1 K above the steady state: within two deviations of 3 K a "never" is not ruled out,
  // so the time is the one where the steady state is 81 °C (the gain 56 K/A²), flagged learning.
  const JointForecast notRuledOut = solved(76.5, 3.0);
  EXPECT_NEAR(notRuledOut.learned, 600 * std::log(21.0 / 5.0), 1e-6);
  EXPECT_TRUE(notRuledOut.learnedLearning);
  // With a deviation of 0.4 K the steady state lies 2.5 deviations below: a confident "never", the flag as run.
  const JointForecast ruledOut = solved(76.5, 0.4);
  EXPECT_TRUE(std::isinf(ruledOut.learned));
  EXPECT_FALSE(ruledOut.learnedLearning);
  // No learned threshold: no forecast (b).
  EXPECT_TRUE(std::isnan(solved(std::numeric_limits<double>::quiet_NaN(), 3.0).learned));
}

TEST(ThermalForecastJudge, TrustedHeldAndBothAreTheForecastsThatAreNotLearningNotMovedOrNeither)
{
  // Four reaching joints at 120 s, each 100 s from status 1: trusted and held 10 % off, trusted and moved 20 %,
  // learning and held 40 %, learning and moved 80 %; one joint that stays below (counted in none of them).
  RobotThermalForecast robot;
  const auto add = [&](double forecast, bool learning, double loadAfter, double actual)
  {
    JointForecast f;
    f.horizon = 120;
    f.actual = actual;
    f.remaining = 480;
    f.asRun = forecast;
    f.learning = learning;
    f.load = 1.0;
    f.loadAfter = f.loadLowest = f.loadHighest = loadAfter;
    robot.forecasts.push_back(f);
  };
  add(110, false, 1.0, 100);
  add(80, false, 2.0, 100);
  add(140, true, 1.1, 100);
  add(180, true, 0.5, 100);
  add(600, false, 1.0, std::numeric_limits<double>::infinity());
  const std::vector<ForecastErrors> table = forecastErrors({robot}, {120.0}, false);
  ASSERT_EQ(table.size(), 1u);
  const ForecastErrors& errors = table[0];
  EXPECT_EQ(errors.joints, 4u);
  EXPECT_EQ(errors.learning, 2u);
  EXPECT_EQ(errors.moved, 2u);
  EXPECT_NEAR(errors.trustedMedian, 0.15, 1e-12); // 10 and 20 %
  EXPECT_NEAR(errors.trusted90, 0.19, 1e-12);
  EXPECT_NEAR(errors.heldMedian, 0.25, 1e-12); // 10 and 40 %
  EXPECT_NEAR(errors.held90, 0.37, 1e-12);
  EXPECT_NEAR(errors.trustedHeldMedian, 0.1, 1e-12); // 10 % alone
  EXPECT_NEAR(errors.trustedHeld90, 0.1, 1e-12);
  // All learning: no trusted forecast, so neither of its figures.
  for (JointForecast& f : robot.forecasts)
    f.learning = true;
  const ForecastErrors allLearning = forecastErrors({robot}, {120.0}, false)[0];
  EXPECT_TRUE(std::isnan(allLearning.trustedMedian) && std::isnan(allLearning.trusted90));
  EXPECT_TRUE(std::isnan(allLearning.trustedHeldMedian) && std::isnan(allLearning.trustedHeld90));
}
