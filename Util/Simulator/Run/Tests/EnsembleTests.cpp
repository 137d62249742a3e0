// Ensembles: one process per simulated robot, job lists for other schedulers, reports over robot folders, and
// the run summaries they are made of.
#include "Representations/Infrastructure/Joints.h"
#include "Util/Simulator/Run/Ensemble.h"
#include "Util/Simulator/Run/RunSummary.h"
#include "Util/Simulator/Run/Tests/SimulationTestSupport.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <regex>
#include <sstream>

using namespace nao;

namespace
{
std::filesystem::path freshFolder(const std::string& name)
{
  const auto folder = std::filesystem::temp_directory_path() / name;
  std::filesystem::remove_all(folder);
  return folder;
}

/// Runs a shell command; its standard output.
std::string outputOf(const std::string& command)
{
  std::string text;
  FILE* pipe = popen(command.c_str(), "r");
  char buffer[4096];
  while (pipe && std::fgets(buffer, sizeof(buffer), pipe))
    text += buffer;
  if (pipe) pclose(pipe);
  return text;
}

EnsembleOptions shortEnsemble(const std::filesystem::path& output, int robots)
{
  EnsembleOptions options = test::testEnsembleOptions(
      NAO_SIMULATOR_BINARY, test::quietRunArguments("stand", "0.1"), robots, 1, 40, output);
  options.jobs = 2;
  return options;
}
} // namespace

TEST(Ensemble, PrintJobsPrintsOneRunnableCommandPerRobot)
{
  const auto folder = freshFolder("nao-ensemble-jobs");
  const std::string jobs = outputOf(
      std::string(NAO_SIMULATOR_BINARY) +
      " run stand --robots 3 --seed 7 --worn 1 --minutes 0.05 --print-jobs --output " + folder.string());
  std::vector<std::string> lines;
  std::stringstream stream(jobs);
  for (std::string line; std::getline(stream, line);)
    lines.push_back(line);
  ASSERT_EQ(lines.size(), 3u) << jobs;
  for (int robot = 0; robot < 3; ++robot)
  {
    EXPECT_NE(lines[static_cast<std::size_t>(robot)].find("--seed " + std::to_string(7 + robot)),
              std::string::npos);
    // A robot's folder is named by its seed, the robot it is.
    EXPECT_NE(lines[static_cast<std::size_t>(robot)].find(
                  "--output " + (folder / ("robot-" + std::to_string(7 + robot))).string()),
              std::string::npos)
        << lines[static_cast<std::size_t>(robot)];
    EXPECT_EQ(lines[static_cast<std::size_t>(robot)].find("--preset worn") != std::string::npos, robot == 2);
  }
  EXPECT_FALSE(std::filesystem::exists(folder)) << "printing jobs runs nothing";
  // What a scheduler does with a line: run it in a shell. Then the report reads the folder.
  ASSERT_EQ(std::system(lines[2].c_str()), 0) << lines[2];
  const EnsembleReport report = readEnsemble(folder);
  ASSERT_EQ(report.robots.size(), 1u);
  EXPECT_EQ(report.robots[0].summary.seed, 9u);
  EXPECT_EQ(report.robots[0].summary.preset, "worn");
}

TEST(Ensemble, GnuParallelRunsThePrintedJobListAndTheReportReadsTheFolder)
{
  // The README's recipe, with this machine (":") as the only host: the job list goes to an existing
  // scheduler.
  const auto folder = freshFolder("nao-ensemble-parallel");
  const std::string simulator = NAO_SIMULATOR_BINARY;
  const std::string jobs = simulator + " run stand --robots 2 --seed 3 --minutes 0.05 --no-log --output " +
                           folder.string() + " --print-jobs";
  ASSERT_EQ(std::system((jobs + " | parallel --will-cite -S : -j 2").c_str()), 0)
      << "GNU parallel (Debian package parallel, Make/install-deps installs it)";
  const std::string report = outputOf(simulator + " report " + folder.string());
  EXPECT_NE(report.find("stand, 2 robots"), std::string::npos) << report;
  EXPECT_NE(report.find("seed 3"), std::string::npos) << report;
  EXPECT_NE(report.find("seed 4"), std::string::npos) << report;
  EXPECT_TRUE(std::filesystem::exists(folder / "distribution.png"));
}

TEST(Ensemble, RunsEveryRobotAndReportsTablesAndTheDistribution)
{
  const auto folder = freshFolder("nao-ensemble-run");
  std::vector<double> progress;
  runEnsemble(shortEnsemble(folder, 3), [&](double fraction) { progress.push_back(fraction); });
  ASSERT_FALSE(progress.empty());
  EXPECT_DOUBLE_EQ(progress.back(), 1.0);
  EXPECT_TRUE(std::is_sorted(progress.begin(), progress.end()));

  const EnsembleReport report = readEnsemble(folder);
  ASSERT_EQ(report.robots.size(), 3u);
  EXPECT_EQ(report.scenario, "stand");
  for (std::size_t robot = 0; robot < 3; ++robot)
  {
    EXPECT_EQ(report.robots[robot].summary.seed, 40 + robot);
    EXPECT_EQ(report.robots[robot].folder.filename(), "robot-" + std::to_string(40 + robot));
    EXPECT_NEAR(report.robots[robot].summary.simulatedSeconds, 6.0, 0.013);
    EXPECT_EQ(report.robots[robot].samples.size(), 50u); // one per 0.12 s
  }
  EXPECT_EQ(report.robots[2].summary.preset, "worn");
  // Robots differ: no two draw the same currents.
  EXPECT_NE(report.robots[0].summary.joints[index(Joint::LKneePitch)].meanCurrent,
            report.robots[1].summary.joints[index(Joint::LKneePitch)].meanCurrent);

  const std::string table = ensembleTable(report);
  for (const char* row : {"seed 40", "seed 41", "seed 42", "worn", "no percentiles: 3 robots are too few"})
    EXPECT_NE(table.find(row), std::string::npos) << row << "\n" << table;
  EXPECT_EQ(table.find("median"), std::string::npos) << table;
  const auto png = writeEnsembleFiles(report, folder);
  EXPECT_GT(std::filesystem::file_size(png), 10000u);
  // Too few robots for a band: each robot's curve.
  std::ifstream distribution(folder / "distribution.csv");
  int rows = 0;
  for (std::string line; std::getline(distribution, line);)
  {
    if (rows == 0)
    {
      EXPECT_EQ(line.find("time [s],seed 40 highest leg current [mA],seed 41 "), 0u) << line;
    }
    ++rows;
  }
  EXPECT_EQ(rows, 1 + 50);
  std::ifstream robots(folder / "ensemble.csv");
  rows = 0;
  for (std::string line; std::getline(robots, line);)
    ++rows;
  EXPECT_EQ(rows, 1 + 3);
}

TEST(Ensemble, AFailedRobotRunIsNamedWithItsOutput)
{
  const auto folder = freshFolder("nao-ensemble-fail");
  EnsembleOptions options = shortEnsemble(folder, 2);
  options.runArguments.insert(options.runArguments.end(), {"--provider", "JointRequest=NoSuchModule"});
  try
  {
    runEnsemble(options, {});
    FAIL() << "no error";
  }
  catch (const std::runtime_error& error)
  {
    const std::string message = error.what();
    EXPECT_NE(message.find("2 of 2 robot runs failed"), std::string::npos) << message;
    EXPECT_NE(message.find("seed 41 (" + (folder / "robot-41/run.out").string()), std::string::npos)
        << message;
    EXPECT_NE(message.find("NoSuchModule"), std::string::npos) << message;
  }
  // The failed robot's folder says what failed, and so does a report of the ensemble.
  std::ifstream file(folder / "robot-41/error.txt");
  const std::string error{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  EXPECT_NE(error.find("NoSuchModule"), std::string::npos) << error;
  EXPECT_NE(error.find("the run failed; its command: "), std::string::npos) << error;
  try
  {
    readEnsemble(folder);
    FAIL() << "no error";
  }
  catch (const std::runtime_error& error)
  {
    EXPECT_NE(std::string(error.what()).find(": the run failed: command line --provider"), std::string::npos)
        << error.what();
  }
}

TEST(SimulatorCommandLine, AFailedRunLeavesNoEmptyFolder)
{
  const auto folder = freshFolder("nao-simulator-failed-run");
  const std::string output =
      outputOf(std::string(NAO_SIMULATOR_BINARY) + " run stand --minutes 0.02 --no-log --quiet --output " +
               folder.string() + " --provider JointRequest=NoSuchModule 2>&1; echo status=$?");
  EXPECT_NE(output.find("NoSuchModule"), std::string::npos) << output;
  EXPECT_EQ(output.find("status=0"), std::string::npos) << output;
  EXPECT_FALSE(std::filesystem::exists(folder)) << "the run made the folder and wrote nothing into it";
}

TEST(SimulatorCommandLine, AnEnsembleWritesEachRobotsPlotsIntoTheFolderOfItsSeedAndReportReadsBoth)
{
  const auto folder = freshFolder("nao-ensemble-command-line");
  const std::string simulator = NAO_SIMULATOR_BINARY;
  const std::string run =
      outputOf(simulator + " run stand --robots 2 --seed 5 --minutes 0.03 --no-log --quiet " + "--output " +
               folder.string() + " 2>&1");
  for (const char* robot : {"robot-5", "robot-6"})
  {
    EXPECT_EQ(readSummary(folder / robot / "summary.csv").seed, robot == std::string("robot-5") ? 5u : 6u);
    for (const char* plot : {"currents.png", "temperatures.png", "feet.png"})
      EXPECT_TRUE(std::filesystem::exists(folder / robot / plot)) << robot << "/" << plot << "\n" << run;
  }
  EXPECT_NE(run.find("2 robots in "), std::string::npos) << run;
  // The README's "gnuplot plots.gp in the folder draws them again".
  std::filesystem::remove(folder / "robot-6/feet.png");
  EXPECT_EQ(std::system(("cd " + (folder / "robot-6").string() + " && gnuplot plots.gp").c_str()), 0);
  EXPECT_TRUE(std::filesystem::exists(folder / "robot-6/feet.png"));
  EXPECT_NE(run.find("no percentiles"), std::string::npos) << run;

  // `report` of one robot's folder (a single run's) and of the ensemble's.
  std::filesystem::remove(folder / "robot-5/currents.png");
  const std::string single = outputOf(simulator + " report " + (folder / "robot-5").string() + " 2>&1");
  EXPECT_NE(single.find("robot-5: stand, one run (seed 5)"), std::string::npos) << single;
  EXPECT_NE(single.find("LKneePitch"), std::string::npos) << single;
  EXPECT_NE(single.find("plots: currents.png"), std::string::npos) << single;
  EXPECT_TRUE(std::filesystem::exists(folder / "robot-5/currents.png")) << "drawn again";
  const std::string ensemble = outputOf(simulator + " report " + folder.string() + " 2>&1");
  EXPECT_NE(ensemble.find("stand, 2 robots"), std::string::npos) << ensemble;
  std::filesystem::remove_all(folder);
}

TEST(SimulatorCommandLine, AMistypedScenarioOrRobotGetsTheClosestName)
{
  const std::string simulator = NAO_SIMULATOR_BINARY;
  const std::pair<const char*, const char*> cases[] = {
      {"run stnad", "no scenario 'stnad' in "},
      {"run Stand", "no scenario 'Stand' in "},
      {"serve stnad", "no scenario 'stnad' in "},
      {"matrix stnad", "no scenario 'stnad' in "},
  };
  for (const auto& [arguments, message] : cases)
  {
    const std::string output = outputOf(simulator + " " + arguments + " 2>&1; echo status=$?");
    EXPECT_NE(output.find(message), std::string::npos) << arguments << ": " << output;
    EXPECT_NE(output.find("(did you mean 'stand'?)"), std::string::npos) << arguments << ": " << output;
    EXPECT_NE(output.find("status=2"), std::string::npos) << arguments << ": " << output;
  }
  const std::string robot = outputOf(simulator + " run stand --robot nao01 2>&1");
  EXPECT_NE(robot.find("(did you mean 'Nao01'?)"), std::string::npos) << robot;
}

TEST(SimulatorCommandLine, HelpShowsEveryOptionsDefault)
{
  for (const char* command : {"run", "serve", "matrix", "report"})
  {
    std::vector<std::string> lines;
    std::stringstream help(outputOf(std::string(NAO_SIMULATOR_BINARY) + " " + command + " --help"));
    for (std::string line; std::getline(help, line);)
      lines.push_back(line);
    int options = 0;
    for (std::size_t k = 0; k < lines.size(); ++k)
    {
      // An option that takes a value ("  --seed UINT:SEED  draws ..."); flags are off unless given.
      static const std::regex withValue(R"(  --[a-z-]+ [A-Z].*)");
      if (!std::regex_match(lines[k], withValue)) continue;
      ++options;
      // A long type pushes the description to the next line.
      const std::string described = lines[k] + (k + 1 < lines.size() ? lines[k + 1] : "");
      EXPECT_NE(described.find("(default"), std::string::npos) << command << ": " << lines[k];
    }
    EXPECT_GE(options, 3) << command;
  }
}

TEST(Ensemble, AReportOfAFolderWithoutRobotsSaysSo)
{
  const auto folder = freshFolder("nao-ensemble-empty");
  std::filesystem::create_directories(folder);
  EXPECT_THROW(readEnsemble(folder), std::runtime_error);
  std::filesystem::create_directories(folder / "robot-0");
  try
  {
    readEnsemble(folder);
    FAIL() << "no error";
  }
  catch (const std::runtime_error& error)
  {
    EXPECT_NE(std::string(error.what()).find("robot-0 has no summary.csv"), std::string::npos)
        << error.what();
  }
}

TEST(RunSummary, ReadsBackWhatItWrote)
{
  SimulationResult result;
  result.scenario = "stand";
  result.seed = 12;
  result.preset = "worn";
  result.simulatedSeconds = 600.0;
  result.legsBelowHeatingAfter = 3.25;
  result.minTorsoHeight = 0.291;
  result.maxTorsoHeight = 0.315;
  for (std::size_t j = 0; j < numOfJoints; ++j)
    result.joints[j] = {0.1 * j,   0.2 * j,   1e-4 * j, 0.3 * j, 25.0 + j, 26.0 + j, static_cast<int>(j % 4),
                        100.0 + j, 1000.0 * j};
  const auto file = freshFolder("nao-summary") / "summary.csv";
  std::filesystem::create_directories(file.parent_path());
  writeSummary(file, result);
  const SimulationResult back = readSummary(file);
  EXPECT_EQ(back.scenario, "stand");
  EXPECT_EQ(back.seed, 12u);
  EXPECT_EQ(back.preset, "worn");
  EXPECT_DOUBLE_EQ(back.legsBelowHeatingAfter, 3.25);
  EXPECT_DOUBLE_EQ(back.minTorsoHeight, 0.291);
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    EXPECT_DOUBLE_EQ(back.joints[j].finalCurrent, 0.2 * j);
    EXPECT_DOUBLE_EQ(back.joints[j].finalError, 1e-4 * j);
    EXPECT_EQ(back.joints[j].maxStatus, static_cast<int>(j % 4));
    EXPECT_DOUBLE_EQ(back.joints[j].energy, 1000.0 * j);
  }
}

TEST(RunSummary, ABrokenSummaryNamesFileAndLine)
{
  const auto file = freshFolder("nao-summary-broken") / "summary.csv";
  std::filesystem::create_directories(file.parent_path());
  std::ofstream(file) << "scenario,stand\nseed,twelve\n";
  try
  {
    readSummary(file);
    FAIL() << "no error";
  }
  catch (const std::runtime_error& error)
  {
    EXPECT_NE(std::string(error.what()).find("summary.csv:2: 'twelve' is not a number"), std::string::npos)
        << error.what();
  }
  std::ofstream(file) << "scenario,stand\nseed,12\n";
  try
  {
    readSummary(file);
    FAIL() << "no error";
  }
  catch (const std::runtime_error& error)
  {
    EXPECT_NE(std::string(error.what()).find("has 0 joint rows, expected 25"), std::string::npos)
        << error.what();
  }
}

TEST(Ensemble, PercentilesInterpolateBetweenOrderStatistics)
{
  EXPECT_DOUBLE_EQ(percentile({4, 1, 3, 2, 5}, 0.5), 3.0);
  EXPECT_DOUBLE_EQ(percentile({1, 2, 3, 4, 5}, 0.1), 1.4);
  EXPECT_DOUBLE_EQ(percentile({1, 2, 3, 4, 5}, 0.9), 4.6);
  EXPECT_DOUBLE_EQ(percentile({7}, 0.9), 7.0);
  EXPECT_TRUE(std::isinf(percentile({1, INFINITY, INFINITY}, 0.9))); // "never" stays never
  EXPECT_DOUBLE_EQ(percentile({1, 2, INFINITY}, 0.25), 1.5);
}

TEST(SimulatorCommandLine, ARunLengthThatIsNotANumberOfSecondsToADayIsRefusedAtOnce)
{
  for (const char* minutes : {"nan", "inf", "1e-9", "-1", "2000", "ten"})
  {
    const std::string output = outputOf(std::string(NAO_SIMULATOR_BINARY) + " run stand --minutes " +
                                        minutes + " --no-log --no-plots --quiet 2>&1; echo status=$?");
    EXPECT_NE(
        output.find("expected a number from 1/60 (one second) to 1440, got '" + std::string(minutes) + "'"),
        std::string::npos)
        << output;
    EXPECT_EQ(output.find("status=0"), std::string::npos) << output;
  }
}

TEST(SimulatorCommandLine, ANegativeSeedOrNoRobotsIsRefusedWithAShortMessage)
{
  // "--seed -1" ran seed 18446744073709551615; "--robots 0" printed a range of two 300-digit numbers.
  for (const std::string arguments : {"run stand --seed -1", "serve stand --seed -1",
                                      "matrix stand --seed -1", "run stand --noise-seed -5"})
  {
    const std::string output =
        outputOf(std::string(NAO_SIMULATOR_BINARY) + " " + arguments + " 2>&1; echo status=$?");
    EXPECT_NE(output.find("is not a seed (a whole number from 0)"), std::string::npos)
        << arguments << ": " << output;
    EXPECT_EQ(output.find("status=0"), std::string::npos) << output;
  }
  for (const std::string arguments : {"run stand --robots 0", "matrix stand --robots 0"})
  {
    const std::string output =
        outputOf(std::string(NAO_SIMULATOR_BINARY) + " " + arguments + " 2>&1; echo status=$?");
    EXPECT_NE(output.find("--robots: Value 0 not in range 1 to 10000"), std::string::npos) << output;
    EXPECT_LT(output.size(), 200u) << output;
  }
}

TEST(SimulatorCommandLine, ASecondRunKeepsTheFirstInsteadOfOverwritingIt)
{
  const auto folder = freshFolder("nao-simulator-keeps-runs");
  std::filesystem::create_directories(folder);
  const std::string run = "cd " + folder.string() + " && " + NAO_SIMULATOR_BINARY +
                          " run stand --minutes 0.02 --config " + NAO_CONFIG_DIR +
                          " --no-log --no-plots --quiet 2>&1";
  const std::string first = outputOf(run);
  ASSERT_TRUE(std::filesystem::exists(folder / "Build/Simulation/stand/summary.csv")) << first;
  const std::string second = outputOf(run);
  EXPECT_NE(second.find("the earlier run in Build/Simulation/stand is kept in Build/Simulation/stand-"),
            std::string::npos)
      << second;
  int runs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(folder / "Build/Simulation"))
    runs += std::filesystem::exists(entry.path() / "summary.csv");
  EXPECT_EQ(runs, 2) << "both runs' results are there";
  std::filesystem::remove_all(folder);
}
