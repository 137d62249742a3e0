// Runs the StiffnessTool binary: its JSON output parses and matches nao::stiffness, simulate holds the
// endpoint and writes its CSV and PNG, errors name the problem with a non-zero exit code, and every command
// the README shows runs.
#include "JsonReader.h"
#include "Tools/Kinematics/UrdfLoader.h"
#include "Tools/Stiffness/ChainKinematics.h"
#include "Tools/Stiffness/Metric.h"
#include "Tools/Testing/Files.h"
#include "Util/StiffnessTool/NullSpaceSimulation.h"
#include "Util/StiffnessTool/Ranking.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace nao::stiffness::tool::test
{
namespace
{
using ::testing::HasSubstr;
namespace fs = std::filesystem;

const std::string sourceDir = NAO_SOURCE_DIR;
const std::string data = "Util/StiffnessTool/Tests/Data/";    ///< the UR3 and the planar arm's configurations
const std::string planar = "Src/Tools/Stiffness/Tests/Data/"; ///< the planar arm, the library's test chain
const std::string ur3Args = "--urdf " + data + "ur3.urdf --base base_link --tip tool0 ";
const std::string planarArgs = "--urdf " + planar + "planar4.urdf --base base --tip tip ";

struct ToolRun
{
  int exitCode;
  std::string out, err;
};

/// A directory of this test process, removed when the process ends.
class ScratchDirectory
{
public:
  ScratchDirectory()
      : path_(fs::temp_directory_path() / ("stiffness-tool-test-" + std::to_string(::getpid())))
  {
    fs::create_directories(path_);
  }
  ~ScratchDirectory() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }

private:
  fs::path path_;
};

fs::path scratchDirectory()
{
  static const ScratchDirectory directory;
  return directory.path();
}

using nao::test::readFile;

/// Runs `StiffnessTool <arguments>` from the source directory (the README's paths are relative to it).
ToolRun runTool(const std::string& arguments)
{
  const fs::path out = scratchDirectory() / "stdout", err = scratchDirectory() / "stderr";
  const std::string command = "cd '" + sourceDir + "' && '" + std::string(STIFFNESS_TOOL) + "' " + arguments +
                              " >'" + out.string() + "' 2>'" + err.string() + "'";
  const int status = std::system(command.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, readFile(out), readFile(err)};
}

JsonValue runJson(const std::string& arguments)
{
  const ToolRun run = runTool(arguments + " --json");
  EXPECT_EQ(run.exitCode, 0) << run.err;
  return parseJson(run.out);
}

/// The library's view of the same chain and file.
struct Ur3
{
  kinematics::Model model = kinematics::loadModel(sourceDir + "/" + data + "ur3.urdf");
  Chain chain{model, "base_link", "tool0"};
  Workspace workspace{chain};
  Eigen::MatrixXd configurations = readCsv();

  Eigen::MatrixXd readCsv() const
  {
    std::ifstream file(sourceDir + "/" + data + "ur3_ik_solutions.csv");
    std::string line;
    std::getline(file, line);
    std::vector<Eigen::VectorXd> rows;
    while (std::getline(file, line))
    {
      std::replace(line.begin(), line.end(), ',', ' ');
      std::istringstream fields(line);
      Eigen::VectorXd q(6);
      for (int i = 0; i < 6; ++i)
        fields >> q[i];
      rows.push_back(q);
    }
    Eigen::MatrixXd all(6, static_cast<Eigen::Index>(rows.size()));
    for (std::size_t c = 0; c < rows.size(); ++c)
      all.col(static_cast<Eigen::Index>(c)) = rows[c];
    return all;
  }
};

TEST(StiffnessTool, MetricJsonMatchesTheLibrary)
{
  // Columns in reverse order: the tool maps them to the chain and reports q and the gradient in file order.
  Ur3 ur3;
  const fs::path csv = scratchDirectory() / "reversed.csv";
  {
    std::ofstream file(csv);
    file << "joint6,joint5,joint4,joint3,joint2,joint1\n";
    for (Eigen::Index c = 0; c < ur3.configurations.cols(); ++c)
    {
      const Eigen::VectorXd q = ur3.configurations.col(c).reverse();
      file.precision(17);
      for (int i = 0; i < 6; ++i)
        file << q[i] << (i < 5 ? "," : "\n");
    }
  }
  StiffnessQuery query;
  query.direction << 0.3, -0.5, 0.8, 0.1, 0.0, 0.2;
  query.cartesianStiffness.diagonal() << 2000, 2000, 1000, 40, 40, 20;
  const JsonValue output = runJson("metric " + ur3Args + "--direction 0.3,-0.5,0.8,0.1,0,0.2 " +
                                   "--kc 2000,2000,1000,40,40,20 --configs " + csv.string());
  ASSERT_EQ(output.array().size(), 8u);
  for (std::size_t c = 0; c < 8; ++c)
  {
    const JsonValue& entry = output[c];
    const auto index = static_cast<Eigen::Index>(c);
    EXPECT_EQ(entry["configuration"].number(), static_cast<double>(c + 1));
    EXPECT_EQ(entry["line"].number(), static_cast<double>(c + 2));
    EXPECT_EQ(entry["joints"][0].text(), "joint6");
    updateChain(ur3.chain, ur3.workspace, ur3.configurations.col(index));
    Eigen::VectorXd gradient(6);
    const double p = computeMetricGradient(ur3.chain, ur3.workspace, query, gradient);
    const StiffnessEllipsoid ellipsoid = computeStiffnessEllipsoid(ur3.workspace, query.cartesianStiffness);
    EXPECT_NEAR(entry["p"].number(), p, 1e-12 * p);
    const std::vector<double> q = entry["q"].numbers(), fileGradient = entry["gradient"].numbers();
    const std::vector<double> values = entry["ellipsoid"]["values"].numbers();
    for (int i = 0; i < 6; ++i)
    {
      EXPECT_EQ(q[static_cast<std::size_t>(i)], ur3.configurations(5 - i, index));
      EXPECT_NEAR(fileGradient[static_cast<std::size_t>(i)], gradient[5 - i], 1e-12 * gradient.norm());
      EXPECT_NEAR(values[static_cast<std::size_t>(i)], ellipsoid.values[i], 1e-12 * ellipsoid.values[5]);
      const std::vector<double> vector = entry["ellipsoid"]["vectors"][static_cast<std::size_t>(i)].numbers();
      EXPECT_NEAR(
          std::abs(Eigen::Map<const kinematics::Vector6>(vector.data()).dot(ellipsoid.vectors.col(i))), 1.0,
          1e-9);
    }
  }
}

TEST(StiffnessTool, RankJsonMatchesTheLibraryForXYZ)
{
  Ur3 ur3;
  for (int axis = 0; axis < 3; ++axis)
  {
    StiffnessQuery query;
    query.direction = kinematics::Vector6::Unit(axis);
    const std::vector<RankedConfiguration> expected =
        rankConfigurations(ur3.chain, ur3.workspace, query, ur3.configurations);
    const std::string direction = axis == 0 ? "1,0,0,0,0,0" : axis == 1 ? "0,1,0,0,0,0" : "0,0,1,0,0,0";
    const JsonValue output = runJson("rank " + ur3Args + "--direction " + direction + " --configs " + data +
                                     "ur3_ik_solutions.csv");
    ASSERT_EQ(output.array().size(), expected.size());
    for (std::size_t r = 0; r < expected.size(); ++r)
    {
      EXPECT_EQ(output[r]["rank"].number(), static_cast<double>(r + 1));
      EXPECT_EQ(output[r]["configuration"].number(), static_cast<double>(expected[r].index + 1)) << axis;
      EXPECT_NEAR(output[r]["p"].number(), expected[r].metric, 1e-12 * expected[r].metric);
    }
  }
}

TEST(StiffnessTool, SimulateHoldsTheEndpointAndWritesCsvAndPng)
{
  const kinematics::Model model = kinematics::loadModel(sourceDir + "/" + planar + "planar4.urdf");
  const Chain chain(model, "base", "tip");
  for (const double alpha : {-5.0, 5.0})
  {
    const fs::path prefix = scratchDirectory() / (alpha < 0 ? "stiff" : "compliant");
    std::ostringstream arguments;
    arguments << "simulate " << planarArgs << "--direction 0,1,0,0,0,0 --alpha " << alpha
              << " --q0 2,-1,-1,-1 --hold x,y --out " << prefix.string();
    const JsonValue summary = runJson(arguments.str());
    SimulationSettings settings;
    settings.redundancy = {alpha, 4.0};
    settings.hold.rows = {true, true, false, false, false, false};
    settings.duration = 20.0;
    StiffnessQuery query;
    query.direction = kinematics::Vector6::Unit(1);
    const SimulationResult expected =
        simulateNullSpaceMotion(chain, query, Eigen::Vector4d(2, -1, -1, -1), settings);
    EXPECT_DOUBLE_EQ(summary["p_end"].number(), expected.samples.back().metric);
    EXPECT_LT(summary["max_endpoint_drift_m"].number(), 1e-6);
    if (alpha < 0)
    {
      EXPECT_LT(summary["p_end"].number(), summary["p_start"].number());
    }
    else
    {
      EXPECT_GT(summary["p_end"].number(), summary["p_start"].number());
    }
    const std::string png = readFile(prefix.string() + ".png");
    ASSERT_GT(png.size(), 8u);
    EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
    std::ifstream csv(prefix.string() + ".csv");
    std::string header, line, last;
    std::getline(csv, header);
    EXPECT_EQ(header, "time_s,j1,j2,j3,j4,p,endpoint_drift_m,rotation_drift_rad");
    int rows = 0;
    while (std::getline(csv, line))
    {
      last = line;
      ++rows;
    }
    EXPECT_EQ(rows, static_cast<int>(expected.samples.size()));
    EXPECT_THAT(last, ::testing::StartsWith("20,"));
  }
}

TEST(StiffnessTool, ErrorsNameTheProblemAndFail)
{
  const std::string ur3Csv = " --configs " + data + "ur3_ik_solutions.csv";
  const fs::path shortRow = scratchDirectory() / "short.csv", badHeader = scratchDirectory() / "header.csv",
                 notNumber = scratchDirectory() / "word.csv";
  std::ofstream(shortRow) << "joint1,joint2,joint3,joint4,joint5,joint6\n0,0,0,0,0,0\n0.1,0.2,0.3,0.4,0.5\n";
  std::ofstream(badHeader) << "joint1,joint2,joint3,elbow,joint5,joint6\n0,0,0,0,0,0\n";
  std::ofstream(notNumber) << "joint1,joint2,joint3,joint4,joint5,joint6\n0,0,0,zero,0,0\n";
  // 36 values of diag(1, 1, 1, 1, 1, -1): symmetric but indefinite.
  std::string indefinite;
  for (int i = 0; i < 36; ++i)
    indefinite += std::string(i > 0 ? "," : "") + (i == 35 ? "-1" : i % 7 == 0 ? "1" : "0");
  const struct
  {
    std::string arguments, message;
  } cases[] = {
      {"metric --urdf " + data + "ur3.urdf --base base_link --tip hand --direction 1,0,0,0,0,0" + ur3Csv,
       "ur3.urdf: model 'ur3': unknown link 'hand' (the tip link)"},
      {"metric --urdf " + data + "ur3.urdf --base tool0 --tip link3 --direction 1,0,0,0,0,0" + ur3Csv,
       "base link 'tool0' is not an ancestor of tip link 'link3'"},
      {"rank " + ur3Args + "--direction 1,0,0,0,0,0 --configs " + shortRow.string(),
       "short.csv line 3: 5 joint values, the header names 6 joints"},
      {"rank " + ur3Args + "--direction 1,0,0,0,0,0 --configs " + badHeader.string(),
       "header.csv line 1: column 'elbow' is not a chain joint"},
      {"rank " + ur3Args + "--direction 1,0,0,0,0,0 --configs " + notNumber.string(),
       "word.csv line 2, column 'joint4': 'zero' is not a finite number"},
      {"rank " + ur3Args + "--direction 1,0,0" + ur3Csv, "--direction needs 6 comma-separated numbers"},
      {"rank " + ur3Args + "--direction 1,0,0,0,0,0 --kc 1,1,1,1,1,0" + ur3Csv,
       "--kc: diagonal value 6 (rz)"},
      {"rank " + ur3Args + "--direction 1,0,0,0,0,0 --kc 1,2,3" + ur3Csv,
       "--kc takes 6 diagonal values or 36"},
      {"rank " + ur3Args + "--direction 1,0,0,0,0,0 --kc " + indefinite + ur3Csv,
       "--kc is not positive definite"},
      {"simulate " + planarArgs + "--direction 1,0,0,0,0,0 --alpha -5 --q0 2,-1,-1 --hold x,y --out " +
           (scratchDirectory() / "never").string(),
       "--q0 has 3 values, the chain from 'base' to 'tip' has 4 joints (j1, j2, j3, j4)"},
      {"simulate " + planarArgs + "--direction 1,0,0,0,0,0 --alpha -5 --q0 0,0,0,0 --hold x,y --out " +
           (scratchDirectory() / "never").string(),
       "singular case: the held endpoint rows (x,y)"},
      {"simulate " + planarArgs + "--direction 1,0,0,0,0,0 --alpha -5 --q0 2,-1,-1,-1 --out " +
           (scratchDirectory() / "never").string(),
       "singular case: the held endpoint rows (x,y,z)"},
  };
  for (const auto& c : cases)
  {
    const ToolRun run = runTool(c.arguments);
    EXPECT_EQ(run.exitCode, 1) << c.arguments;
    EXPECT_THAT(run.err, HasSubstr(c.message)) << c.arguments;
    EXPECT_TRUE(run.out.empty()) << run.out;
  }
  EXPECT_FALSE(fs::exists(scratchDirectory() / "never.csv"));
  // Command-line mistakes (CLI11): a missing option or file also fails.
  EXPECT_NE(runTool("rank " + ur3Args + ur3Csv).exitCode, 0);
  EXPECT_NE(runTool("metric --urdf missing.urdf --base a --tip b --direction 1,0,0,0,0,0" + ur3Csv).exitCode,
            0);
}

/// The binary as the README names it (`Make/build`'s Release build), relative to the repository root.
const std::string readmeBinary = "Build/Release/Util/StiffnessTool/StiffnessTool ";

/// The command lines of the README's ```sh blocks (backslash continuations joined), in order.
std::vector<std::string> readmeCommands()
{
  std::ifstream readme(sourceDir + "/Util/StiffnessTool/README.md");
  std::vector<std::string> commands;
  std::string line, pending;
  bool inBlock = false;
  while (std::getline(readme, line))
  {
    if (line.starts_with("```"))
    {
      inBlock = line == "```sh";
      continue;
    }
    if (!inBlock) continue;
    const bool continues = line.ends_with("\\");
    pending += continues ? line.substr(0, line.size() - 1) : line;
    if (continues) continue;
    if (!pending.empty()) commands.push_back(pending);
    pending.clear();
  }
  return commands;
}

/// The value of `option` in `command` ("" when absent).
std::string optionValue(const std::string& command, const std::string& option)
{
  const std::size_t at = command.find(" " + option + " ");
  if (at == std::string::npos) return "";
  const std::size_t begin = at + option.size() + 2;
  return command.substr(begin, command.find(' ', begin) - begin);
}

TEST(StiffnessTool, EveryReadmeCommandRunsAndWritesOnlyIntoBuild)
{
  // Each command as written: the README's binary path, and figures into Build/ (git-ignored), never over the
  // tracked files. Here this build's binary runs them, with Build/StiffnessTool/ a scratch directory.
  const std::vector<std::string> commands = readmeCommands();
  ASSERT_GE(commands.size(), 10u);
  int simulations = 0;
  for (const std::string& command : commands)
  {
    ASSERT_TRUE(command.starts_with(readmeBinary))
        << "not the binary's path from the repository root: " << command;
    std::string arguments = command.substr(readmeBinary.size());
    const std::string out = optionValue(command, "--out");
    if (command.find(" simulate ") != std::string::npos || arguments.starts_with("simulate "))
    {
      EXPECT_TRUE(out.starts_with("Build/StiffnessTool/")) << "the figures go into Build/: " << command;
      ++simulations;
    }
    const std::string build = "Build/StiffnessTool/";
    for (std::size_t at = arguments.find(build); at != std::string::npos; at = arguments.find(build))
      arguments.replace(at, build.size(), scratchDirectory().string() + "/");
    const ToolRun run = runTool(arguments);
    EXPECT_EQ(run.exitCode, 0) << command << "\n" << run.err;
    if (command.find("--json") != std::string::npos)
    {
      EXPECT_NO_THROW(parseJson(run.out)) << command;
    }
    if (!out.empty())
    {
      const fs::path written = scratchDirectory() / fs::path(out).filename();
      EXPECT_TRUE(fs::exists(written.string() + ".csv")) << command;
      EXPECT_TRUE(fs::exists(written.string() + ".png")) << command;
    }
  }
  EXPECT_EQ(simulations, 6);
}

TEST(StiffnessTool, SimulateWritesIntoBuildByDefaultAndMakesTheFolder)
{
  // Run from a fresh folder, without --out: Build/StiffnessTool/simulation.{csv,png} there, folders made.
  const fs::path folder = scratchDirectory() / "default-out";
  fs::create_directories(folder);
  const std::string command = "cd '" + folder.string() + "' && '" + std::string(STIFFNESS_TOOL) +
                              "' simulate --urdf '" + sourceDir + "/" + planar +
                              "planar4.urdf' --base base --tip tip --direction 1,0,0,0,0,0 --alpha -5 "
                              "--q0 2,-1,-1,-1 --hold x,y --duration 1 > /dev/null 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  EXPECT_TRUE(fs::exists(folder / "Build/StiffnessTool/simulation.csv"));
  EXPECT_TRUE(fs::exists(folder / "Build/StiffnessTool/simulation.png"));
  const ToolRun help = runTool("simulate --help");
  EXPECT_THAT(help.out, HasSubstr("Build/StiffnessTool/simulation")) << "--help shows the default";
}
} // namespace
} // namespace nao::stiffness::tool::test
