// Every command the simulator's README (Util/Simulator/README.md), its plant's calibration (Physics/README.md) and the
// modules' READMEs show runs as written, in a scratch folder with the build's own Build/Release/. The one substitution
// keeps the test short, as the simulator's README says: `--minutes 10` and `--minutes 3` run as `--minutes 0.05`,
// `--robots 20`/`--robots 200`/`--robots 8` as `--robots 2` (`fallprotection --robots 8` as `--robots 1`, `faults
// --robots 8` as one robot and one fault) and `--worn 2`/`--worn 3` as `--worn 1`; /shared/ (a folder every host sees)
// is a folder in the scratch folder. A run without --minutes keeps its default, which must show the whole script (the
// lifted robot's put-down at 40 s).
#include "Tools/Testing/Files.h"
#include "Tools/Testing/Markdown.h"
#include "Tools/Testing/RunCommand.h"
#include "Tools/Testing/SourceTree.h"
#include "Tools/Testing/TemporaryFolder.h"
#include "Util/Simulator/Run/RunRecorder.h"
#include "Util/Simulator/Run/RunSummary.h"
#include "Util/Simulator/Run/SimulationRun.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

using namespace nao;
using namespace nao::test;

namespace
{
/// The ```sh blocks of the simulator's README, of the section under `heading` when given.
std::vector<std::string> readmeShBlocks(const std::string& heading = "")
{
  const std::string readme = readFile(sourceDirectory() / "Util/Simulator/README.md");
  return fencedBlocks(heading.empty() ? readme : markdownSection(readme, heading), "sh");
}

std::string replaceAll(std::string text, const std::string& from, const std::string& to)
{
  for (std::size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size())
    text.replace(at, from.size(), to);
  return text;
}

const std::string simulatorBinary = NAO_SIMULATOR_BINARY;
const std::string buildRoot =
    simulatorBinary.substr(0, simulatorBinary.size() - std::string("Util/Simulator/App/Simulator").size());

struct Scratch : TemporaryFolder
{
  explicit Scratch(const std::string& name) : TemporaryFolder("sim-readme-" + name) {}

  /// The block as a bash script (`set -e`: every command must succeed) with the substitutions above.
  CommandResult run(const std::string& block) const
  {
    std::string script = replaceAll(block, "Build/Release/", buildRoot);
    script = replaceAll(script, "--minutes 10", "--minutes 0.05");
    script = replaceAll(script, "--minutes 3 ", "--minutes 0.05 ");
    script = replaceAll(script, "fallprotection --robots 8 ", "fallprotection --robots 1 ");
    script = replaceAll(script, "falls --robots 8 ",
                        "falls --robots 1 "); // every push of the table: ~20 s a robot
    script = replaceAll(script, "faults --robots 8 ", "faults --robots 1 --faults chestButtonGlitch ");
    script = replaceAll(script, "--robots 200 ", "--robots 2 ");
    script = replaceAll(script, "--robots 20 ", "--robots 2 ");
    script = replaceAll(script, "--robots 8 ", "--robots 2 ");
    script = replaceAll(script, "--worn 2", "--worn 1");
    script = replaceAll(script, "--worn 3", "--worn 1");
    script = replaceAll(script, "/shared/", "shared/");
    return runScript(path, "block.sh", "set -e\n" + script);
  }
};

std::size_t count(const std::string& text, const std::string& what)
{
  std::size_t n = 0;
  for (std::size_t at = 0; (at = text.find(what, at)) != std::string::npos; at += what.size())
    ++n;
  return n;
}
} // namespace

TEST(SimulatorReadme, TheRunsAndTheReportRunAsWritten)
{
  const auto blocks = readmeShBlocks();
  ASSERT_EQ(blocks.size(), 5u)
      << "the runs, the robot binary and a provider override, a sweep across hosts, the "
         "plant variants, the sensor faults";
  const Scratch scratch("runs");
  const CommandResult result = scratch.run(blocks[0]);
  EXPECT_EQ(result.status, 0) << blocks[0] << result.output;
  EXPECT_EQ(count(result.output, "output in Build/Simulation/stand:"), 2u) << "two single runs\n"
                                                                           << result.output;
  EXPECT_NE(result.output.find("the earlier run in Build/Simulation/stand is kept"), std::string::npos)
      << result.output;
  // The ensemble's table and the report of the same folder.
  EXPECT_EQ(count(result.output, "Build/Simulation/stand: stand, 2 robots"), 2u) << result.output;
  EXPECT_NE(result.output.find("Build/Simulation/stand/robot-1: stand, one run (seed 1)"), std::string::npos)
      << "the report of one robot's folder\n"
      << result.output;
  // Seeds 1 and 2 (the default --seed 1), each in the folder of its seed; the last one worn.
  const auto summary = readSummary(scratch.path / "Build/Simulation/stand/robot-2/summary.csv");
  EXPECT_EQ(summary.seed, 2u);
  EXPECT_EQ(summary.preset, "worn");
  EXPECT_TRUE(std::filesystem::exists(scratch.path / "Build/Simulation/stand/robot-1/currents.png"))
      << "each robot's plots in its folder";
  EXPECT_NEAR(summary.simulatedSeconds, 3.0, 0.02);
}

TEST(SimulatorReadme, TheSweepAcrossHostsRunsAsWritten)
{
  const auto blocks = readmeShBlocks();
  ASSERT_EQ(blocks.size(), 5u);
  const Scratch scratch("sweep");
  std::ofstream(scratch.path / "hosts.txt") << ":\n"; // this machine, as the README says
  const CommandResult result = scratch.run(blocks[2]);
  EXPECT_EQ(result.status, 0) << blocks[2] << result.output;
  EXPECT_EQ(count(readFile(scratch.path / "jobs.txt"), "\n"), 2u) << "one job per robot";
  EXPECT_NE(result.output.find("== shared/stand: stand, 2 robots"), std::string::npos) << result.output;
}

TEST(SimulatorReadme, TheVariantRunAndTheMatrixRunAsWritten)
{
  const auto blocks = readmeShBlocks();
  ASSERT_EQ(blocks.size(), 5u);
  const Scratch scratch("variants");
  const CommandResult result = scratch.run(blocks[3]);
  EXPECT_EQ(result.status, 0) << blocks[3] << result.output;
  const auto summary = readSummary(scratch.path / "Build/Simulation/stand/summary.csv");
  EXPECT_EQ(summary.variant, "unsharedWornKnees");
  EXPECT_EQ(summary.seed, 105u);
  // Every variant of the file and the home plant, four configurations each.
  EXPECT_NE(result.output.find("| home |"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("| random |"), std::string::npos) << result.output;
  EXPECT_TRUE(std::filesystem::exists(scratch.path / "Build/Simulation/matrix-stand/matrix.md"));
  EXPECT_TRUE(
      std::filesystem::exists(scratch.path / "Build/Simulation/matrix-stand/wornKneesAnkles/smart/robot-101"))
      << "seeds 100 and 101 (the matrix's default --seed 100)";
}

TEST(SimulatorReadme, TheFaultRunAndTheFaultMatrixRunAsWritten)
{
  const auto blocks = readmeShBlocks("## Sensor faults: readings that lie");
  ASSERT_EQ(blocks.size(), 1u);
  const Scratch scratch("faults");
  const CommandResult result = scratch.run(blocks[0]);
  EXPECT_EQ(result.status, 0) << blocks[0] << result.output;
  const auto summary = readSummary(scratch.path / "Build/Simulation/stand/summary.csv");
  ASSERT_TRUE(summary.fault.has_value());
  EXPECT_EQ(summary.fault->name, "batteryZeroOnce");
  EXPECT_NEAR(summary.fault->onset, 10.0, 1e-9);
  std::optional<FaultEvent> fault;
  readEvents(scratch.path / "Build/Simulation/stand/events.csv", &fault);
  EXPECT_TRUE(fault.has_value()) << "the fault among the events";
  // The matrix of one fault and one robot, its table headed by the command that wrote it.
  const std::string table = readFile(scratch.path / "Docs/Results/FaultMatrix.md");
  EXPECT_EQ(table.rfind("Written by `" + buildRoot +
                            "Util/Simulator/App/Simulator faults --robots 1 --faults "
                            "chestButtonGlitch --markdown Docs/Results/FaultMatrix.md`.",
                        0),
            0u)
      << table;
  EXPECT_NE(table.find("| baseline |"), std::string::npos) << table;
  EXPECT_NE(table.find("| chestButtonGlitch |"), std::string::npos) << table;
  EXPECT_TRUE(std::filesystem::exists(scratch.path / "Build/Simulation/faults/faults.md"));
}

TEST(SimulatorReadme, TheRobotBinaryAndProviderBlockRunsAsWritten)
{
  const auto blocks = readmeShBlocks("## LoLA, the robot binary and other providers");
  ASSERT_EQ(blocks.size(), 1u);
  const Scratch scratch("main");
  const CommandResult result = scratch.run(blocks[0]);
  EXPECT_EQ(result.status, 0) << blocks[0] << result.output;
  EXPECT_EQ(count(result.output, "output in Build/Simulation/stand:"), 2u) << result.output;
  EXPECT_NE(result.output.find("output in Build/Simulation/lifted:"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("Build/Simulation/stand: stand, 2 robots"), std::string::npos)
      << result.output;

  // `run lifted` without --minutes: the default shows the whole script, the put-down at 40 s and the robot
  // standing again (its feet carry it) afterwards.
  const auto folder = scratch.path / "Build/Simulation/lifted";
  const SimulationResult lifted = readSummary(folder / "summary.csv");
  EXPECT_NEAR(lifted.simulatedSeconds, 40.0 + scriptMarginSeconds, 0.02);
  const std::vector<RunSample> samples = readSamples(folder / "lifted.csv");
  double inTheAir = 1e9, standingAgain = 0;
  for (const RunSample& sample : samples)
  {
    if (sample.time > 15.0 && sample.time < 35.0) inTheAir = std::min<double>(inTheAir, sample.fsrTotal);
    if (sample.time > 60.0) standingAgain = std::max<double>(standingAgain, sample.fsrTotal);
  }
  EXPECT_LT(inTheAir, 0.5) << "kg on the feet while lifted";
  EXPECT_GT(standingAgain, 4.0) << "kg on the feet after the put-down (the NAO weighs 5.3 kg)";
}

TEST(SimulatorReadme, ThePlantsCalibrationRunsAsWritten)
{
  // Util/Simulator/Physics/README.md, "Calibration": 2 robots (one worn), 3 simulated seconds, the table written.
  const std::string readme = readFile(sourceDirectory() / "Util/Simulator/Physics/README.md");
  const auto blocks = fencedBlocks(markdownSection(readme, "## Calibration"), "sh");
  ASSERT_EQ(blocks.size(), 1u);
  const Scratch scratch("calibration");
  const CommandResult result = scratch.run(blocks[0]);
  EXPECT_EQ(result.status, 0) << blocks[0] << result.output;
  const std::string table = readFile(scratch.path / "Docs/Results/Calibration.md");
  EXPECT_EQ(table.rfind("Written by `" + buildRoot +
                            "Util/Simulator/App/Simulator calibration --robots 2 --worn 1 --seed 100 ",
                        0),
            0u)
      << table;
  for (const char* row : {"| seed 100 | - |", "| seed 101 | worn |", "| nominal | - |"})
    EXPECT_EQ(count(table, row), std::string(row) == "| nominal | - |" ? 1u : 2u) << row << "\n" << table;
  EXPECT_TRUE(
      std::filesystem::exists(scratch.path / "Build/Simulation/calibration/stand/robot-101/summary.csv"));
}

TEST(SimulatorReadme, TheEventsIntoAServedSimulationRunAsWritten)
{
  // Util/Simulator/App/README.md, "Events into a running simulation": the stand served in lock-step to the robot
  // binary, the events queued before its first frame; each answered, the unknown body refused, events.csv's rows;
  // replayed by `run`: the same rows.
  const std::string readme = readFile(sourceDirectory() / "Util/Simulator/App/README.md");
  const auto blocks =
      fencedBlocks(markdownSection(readme, "## Events into a running simulation (`serve --control`)"), "sh");
  ASSERT_EQ(blocks.size(), 1u);
  const Scratch scratch("events");
  const CommandResult result = scratch.run(blocks[0]);
  EXPECT_EQ(result.status, 0) << blocks[0] << result.output;
  for (const char* reply :
       {"control: applied battery 0.5 at frame 0 (0.000 s)\n",
        "control: applied temperature LKneePitch 70 at frame 0 (0.000 s)\n",
        "control: applied press head-front 1 at frame 0 (0.000 s)\n",
        "control: applied push 0 30 0 for 0.1 at Head at frame 0 (0.000 s)\n",
        "control: error: line 5: 'push 0 30 at Nose': unknown body 'Nose' (torso, Neck, Head, "})
    EXPECT_NE(result.output.find(reply), std::string::npos) << reply << result.output;
  const std::string served = readFile(scratch.path / "Build/Simulation/serve-stand/events.csv");
  EXPECT_EQ(served.rfind("time [s],event,force.x [N],force.y [N],force.z [N],duration [s],fault,control\n"
                         "0,control,0,0,0,0,,battery 0.5\n",
                         0),
            0u)
      << served;
  EXPECT_EQ(readFile(scratch.path / "replayed/events.csv"), served) << "the same events in the same frames";
}

TEST(SimulatorReadme, EveryModuleReadmesBlocksRunAsWritten)
{
  // The modules' READMEs (Src/Modules/<Area>/<Name>/README.md) show simulator runs (and other tools, such as their
  // parameter tables); each block runs as written, with the substitutions above, and a simulator run says where
  // its output went.
  int blocksRun = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(sourceDirectory() / "Src/Modules"))
  {
    if (entry.path().filename() != "README.md") continue;
    const auto blocks = fencedBlocks(readFile(entry.path()), "sh");
    for (std::size_t b = 0; b < blocks.size(); ++b)
    {
      const Scratch scratch("module-" + entry.path().parent_path().filename().string() + std::to_string(b));
      const CommandResult result = scratch.run(blocks[b]);
      EXPECT_EQ(result.status, 0) << entry.path() << ":\n" << blocks[b] << result.output;
      if (blocks[b].find("Simulator fallprotection") != std::string::npos)
      {
        // FallProtectionProvider's ensemble, one robot: every direction's row, the table written.
        EXPECT_NE(result.output.find("| front-right (315°) | 1 | "), std::string::npos) << result.output;
        EXPECT_NE(result.output.find("output in Build/Simulation/fallprotection: fallprotection.md"),
                  std::string::npos)
            << result.output;
        EXPECT_TRUE(
            std::filesystem::exists(scratch.path / "Build/Simulation/fallprotection/fallprotection.md"));
      }
      if (blocks[b].find("Simulator tasks") != std::string::npos)
      {
        // TaskSpaceMotionProvider's scenarios, two robots: a row per scenario and robot, the tables written.
        const std::string table = readFile(scratch.path / "Docs/Results/TaskSpaceScenarios.md");
        EXPECT_EQ(
            table.rfind("Written by `" + buildRoot + "Util/Simulator/App/Simulator tasks --robots 2 ", 0), 0u)
            << table;
        for (const char* row : {"| reach | 2 |", "| lookat | 2 |", "| goalieblock | 2 |"})
          EXPECT_NE(table.find(row), std::string::npos) << row << "\n" << table;
      }
      // A results file the block writes is headed by its command (Docs/Results/README.md).
      for (std::size_t at = 0; (at = blocks[b].find("--markdown Docs/Results/", at)) != std::string::npos;
           ++at)
      {
        const std::string file = blocks[b].substr(at + 11, blocks[b].find_first_of(" \n", at + 11) - at - 11);
        EXPECT_EQ(readFile(scratch.path / file)
                      .rfind("Written by `" + buildRoot + "Util/Simulator/App/Simulator ", 0),
                  0u)
            << file;
      }
      if (blocks[b].find("Simulator/App/Simulator run") == std::string::npos) continue;
      // One run says where its output went, an ensemble how long its robots took.
      EXPECT_TRUE(result.output.find("output in ") != std::string::npos ||
                  result.output.find(" robots in ") != std::string::npos)
          << blocks[b] << result.output;
      ++blocksRun;
    }
  }
  EXPECT_GE(blocksRun, 2)
      << "simulator runs: BHumanEnergySavingProvider's, JointThermalStateProvider's, ScenarioPlayer's";
}
