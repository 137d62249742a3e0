// The tables a run and an ensemble print, without physics: every column headed by words and its unit in brackets,
// percentiles only over enough robots (in the tables and the comparison figure), and the simulation's speed apart from
// the time its plots took.
#include "Representations/Infrastructure/Joints.h"
#include "Util/Simulator/Run/Ensemble.h"
#include "Util/Simulator/Run/SimulationRun.h"
#include "Util/Simulator/Run/TextTable.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <regex>
#include <sstream>
#include <unistd.h>

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

TEST(EnsembleFigure, FewerRobotsThanPercentilesNeedGetACurveEachInsteadOfABand)
{
  // Two folders for `Simulator report --figure`: 3 robots (too few for percentiles) and 12.
  const auto withSamples = [](std::size_t robots)
  {
    EnsembleReport report = reportOf(robots);
    for (std::size_t r = 0; r < robots; ++r)
      for (int s = 0; s < 20; ++s)
      {
        RunSample sample;
        sample.time = 0.5 * s;
        sample.currents[index(Joint::LKneePitch)] = 0.1f + 0.01f * static_cast<float>(r * s);
        sample.temperatures[index(Joint::LKneePitch)] = 30.f + static_cast<float>(r + s) * 0.1f;
        report.robots[r].samples.push_back(sample);
      }
    return report;
  };
  const auto folder =
      std::filesystem::temp_directory_path() / ("nao-ensemble-figure-" + std::to_string(::getpid()));
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  const auto png = folder / "compare.png";
  plotEnsembles({withSamples(3), withSamples(12)}, {"few", "many"}, png, "stand");
  ASSERT_TRUE(std::filesystem::exists(png));
  EXPECT_GT(std::filesystem::file_size(png), 1000u);
  std::ifstream in(folder / "compare.gp");
  const std::string script((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // Each panel: the three robots' curves of the small folder, the band and median of the large one.
  for (const std::string seed : {"few: seed 1'", "few: seed 2'", "few: seed 3'"})
  {
    const auto first = script.find(seed);
    ASSERT_NE(first, std::string::npos) << seed << " in\n" << script;
    EXPECT_NE(script.find(seed, first + 1), std::string::npos) << seed << " in both panels";
  }
  EXPECT_THAT(script, Not(HasSubstr("few: 10-90 %")));
  EXPECT_THAT(script, Not(HasSubstr("few: median")));
  EXPECT_THAT(script, HasSubstr("many: 10-90 %"));
  EXPECT_THAT(script, HasSubstr("many: median"));
  EXPECT_THAT(script, HasSubstr("fewer than 10 robots"));
  // The small folder's CSV: time, then each robot's current and each robot's temperature.
  std::ifstream csv(folder / "compare-0.csv");
  std::string header;
  std::getline(csv, header);
  EXPECT_EQ(std::count(header.begin(), header.end(), ','), 6) << header;
  std::filesystem::remove_all(folder);
}
