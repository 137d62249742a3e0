// The tables a run and an ensemble print, without physics: every column headed by words and its unit in brackets,
// percentiles only over enough robots, and the simulation's speed apart from the time its plots took.
#include "Representations/Infrastructure/Joints.h"
#include "Util/Simulator/Run/Ensemble.h"
#include "Util/Simulator/Run/TextTable.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <regex>
#include <sstream>

using namespace nao;
using ::testing::HasSubstr;
using ::testing::Not;

namespace
{
std::vector<std::string> linesOf(const std::string& text)
{
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);)
    lines.push_back(line);
  return lines;
}

/// A label as every output writes one: words, then the unit in brackets if it has one (streams::labelWithUnit),
/// without symbols standing for words ("<300 s", "80%<50 s", ">=300 %").
const std::regex readableLabel(R"([A-Za-z0-9][A-Za-z0-9 ,%]*[A-Za-z0-9]( \[(mA|s|%|°C|J|m)\])?)");

EnsembleReport reportOf(std::size_t robots)
{
  EnsembleReport report;
  report.scenario = "stand";
  for (std::size_t r = 0; r < robots; ++r)
  {
    RobotRun robot;
    robot.summary.scenario = "stand";
    robot.summary.seed = 1 + r;
    robot.summary.joints[index(Joint::LKneePitch)].maxCurrent = 0.5 + 0.1 * static_cast<double>(r);
    report.robots.push_back(robot);
  }
  return report;
}
} // namespace

TEST(TextTable, HeadsEachColumnWithItsWholeLabelWrappedAboveIt)
{
  const std::string table =
      textTable({{"joint", true}, {"highest current [mA]"}}, {{"LKneePitch", "2344"}, {"HeadYaw", "15"}});
  EXPECT_EQ(table, "            highest\n"
                   "            current\n"
                   "joint          [mA]\n"
                   "LKneePitch     2344\n"
                   "HeadYaw          15\n");
}

TEST(RunTable, EveryColumnHeaderIsWordsWithItsUnitInBrackets)
{
  SimulationResult result;
  const std::vector<std::string> lines = linesOf(jointTable(result));
  ASSERT_GT(lines.size(), 25u);
  const std::string header = lines[0] + "\n" + lines[1] + "\n" + lines[2];
  for (const char* words : {"mean", "current", "last 10 s", "highest", "temperature", "status", "first",
                            "motor", "energy", "[mA]", "[°C]", "[s]", "[J]"})
    EXPECT_THAT(header, HasSubstr(words));
  for (const char* cryptic : {"mean mA", "hot at s", "energy J", "final °C"})
    EXPECT_THAT(header, Not(HasSubstr(cryptic)));
  EXPECT_THAT(lines[3], ::testing::StartsWith("HeadYaw")) << "one row per joint below the header";
}

TEST(RunTable, TheSimulationsSpeedAndThePlotsTimeAreApart)
{
  SimulationResult result;
  result.simulatedSeconds = 600;
  result.wallSeconds = 6;
  result.plotSeconds = 15;
  const std::string table = summaryTable(result);
  EXPECT_THAT(table,
              HasSubstr("600 s simulated in 6.0 s wall time: 100x real time; plots written in 15.0 s"));
  result.plotSeconds = 0; // --no-plots
  EXPECT_THAT(summaryTable(result), Not(HasSubstr("plots written")));
}

TEST(EnsembleTable, EveryColumnHeaderIsWordsWithItsUnitInBrackets)
{
  const std::vector<std::string> labels = ensembleColumnLabels();
  ASSERT_EQ(labels.size(), 13u);
  for (const std::string& label : labels)
    EXPECT_TRUE(std::regex_match(label, readableLabel)) << label;
  // The table's header is the labels, wrapped: every word of every label is in it.
  const std::string table = ensembleTable(reportOf(2));
  for (const std::string& label : labels)
  {
    std::istringstream words(label);
    for (std::string word; words >> word;)
      EXPECT_THAT(table, HasSubstr(word)) << label;
  }
  for (const char* cryptic : {"<300", "%<50", ">=300"})
    EXPECT_THAT(table, Not(HasSubstr(cryptic)));
}

TEST(EnsembleTable, PercentilesOnlyOverEnoughRobots)
{
  const std::string few = ensembleTable(reportOf(percentileRobots - 1));
  EXPECT_THAT(few, Not(HasSubstr("th percentile")));
  EXPECT_THAT(few, Not(HasSubstr("median")));
  EXPECT_THAT(few, HasSubstr("no percentiles: 9 robots are too few (they need 10)"));
  EXPECT_THAT(few, HasSubstr("seed 9"));
  const std::string enough = ensembleTable(reportOf(percentileRobots));
  for (const char* row : {"seed 1 ", "seed 10 ", "10th percentile", "median", "90th percentile"})
    EXPECT_THAT(enough, HasSubstr(row));
  EXPECT_THAT(enough, Not(HasSubstr("no percentiles")));
}
