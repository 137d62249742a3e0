// The documentation's commands, tried literally: the "Adding a module" walk-through of Docs/AddingAModule.md (each
// block it shows is the text of the file it names, and each command it shows runs), its debug channel block, the log
// block of Util/LogTool/README.md, the robot binary's block of README.md, and the commands and fuzz targets of
// Docs/Reliability.md.
#include "Framework/Tests/DotGraph.h"
#include "Tools/Testing/Files.h"
#include "Tools/Testing/Markdown.h"
#include "Tools/Testing/RunCommand.h"
#include "Tools/Testing/SourceTree.h"
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <set>
#include <sstream>
#include <unistd.h>

using namespace nao::test;

namespace
{
/// The fenced blocks of the section of `document` (a path relative to the source tree) that starts with `heading`.
std::vector<FencedBlock> blocksOfSection(const std::string& document, const std::string& heading)
{
  const std::string section = markdownSection(readFile(sourceDirectory() / document), heading);
  EXPECT_FALSE(section.empty()) << document << ": " << heading;
  return fencedBlocks(section);
}

std::vector<FencedBlock> blocksOf(const std::vector<FencedBlock>& blocks, const std::string& language)
{
  std::vector<FencedBlock> result;
  for (const FencedBlock& block : blocks)
    if (block.language == language) result.push_back(block);
  return result;
}

const std::string addingAModule = "Docs/AddingAModule.md";
const std::string reliability = "Docs/Reliability.md";

const std::filesystem::path moduleFolder = sourceDirectory() / "Src/Modules/MotionControl/StandPoseProvider";
} // namespace

TEST(ReadmeWalkthrough, TheBlocksAreTheFilesText)
{
  const auto blocks = blocksOfSection(addingAModule, "## Adding a module");
  const auto cpp = blocksOf(blocks, "cpp");
  ASSERT_EQ(cpp.size(), 2u) << "the module's header and the harness example";
  EXPECT_NE(readFile(moduleFolder / "StandPoseProvider.h").find(cpp[0].text), std::string::npos)
      << "the walk-through's header is not StandPoseProvider.h's text:\n"
      << cpp[0].text;
  EXPECT_NE(readFile(moduleFolder / "StandPoseProvider.cpp").find("MAKE_MODULE(StandPoseProvider);"),
            std::string::npos);
  // The harness example is a test's body (indented by two spaces there).
  std::istringstream example(cpp[1].text);
  std::string indented, line;
  while (std::getline(example, line))
    indented += "  " + line + "\n";
  EXPECT_NE(readFile(sourceDirectory() /
                     "Src/Modules/Sensing/FilteredCurrentProvider/Tests/FilteredCurrentProviderTests.cpp")
                .find(indented),
            std::string::npos)
      << "the walk-through's harness example is not FilteredCurrentProviderTests.cpp's text:\n"
      << cpp[1].text;
  const auto cmake = blocksOf(blocks, "cmake");
  ASSERT_EQ(cmake.size(), 1u);
  EXPECT_EQ(readFile(moduleFolder / "CMakeLists.txt"), cmake[0].text);
  const auto toml = blocksOf(blocks, "toml");
  ASSERT_EQ(toml.size(), 1u);
  EXPECT_NE(readFile(configDirectory() / "Scenarios/standin.toml").find(toml[0].text), std::string::npos)
      << "the walk-through's scenario is not standin.toml's [Motion]:\n"
      << toml[0].text;
  EXPECT_TRUE(std::filesystem::exists(configDirectory() / "Modules/StandPoseProvider.toml"));
}

TEST(ReadmeWalkthrough, TheCommandsRun)
{
  const auto sh = blocksOf(blocksOfSection(addingAModule, "## Adding a module"), "sh");
  ASSERT_EQ(sh.size(), 1u);
  const std::string binary = "Build/Release/Src/Apps/Nao/nao";
  const auto directory = std::filesystem::temp_directory_path() / "nao-readme-walkthrough";
  std::filesystem::create_directories(directory);
  std::istringstream lines(sh[0].text);
  std::string line;
  int ran = 0;
  while (std::getline(lines, line))
  {
    if (line == "Make/build") continue;               // this test runs in the build it would make
    const bool graphviz = line.rfind("dot ", 0) == 0; // Make/install-deps installs it: no skipping without it
    ASSERT_TRUE(graphviz || line.rfind(binary, 0) == 0) << "a command the test does not know: " << line;
    const std::string command = graphviz ? line : NAO_ROBOT_BINARY + line.substr(binary.size());
    const CommandResult result = runCommand(command, directory.string());
    EXPECT_EQ(result.status, 0) << line << "\n" << result.output;
    if (graphviz)
    {
      // The drawing holds the module and the representation it provides.
      const std::string svg = readFile(directory / "standin.svg");
      EXPECT_NE(svg.find("<svg"), std::string::npos) << svg.substr(0, 200);
      EXPECT_NE(svg.find(">StandPoseProvider</text>"), std::string::npos);
      EXPECT_NE(svg.find(">MotionJointRequest</text>"), std::string::npos);
    }
    if (line.find("--print-plan") != std::string::npos)
    {
      EXPECT_NE(result.output.find("StandPoseProvider -> MotionJointRequest"), std::string::npos)
          << result.output;
    }
    if (line.find("--print-graph dot > standin.dot") != std::string::npos)
    {
      const DotGraph graph = DotGraph::parse(readFile(directory / "standin.dot"));
      EXPECT_TRUE(graph.hasEdge("module:StandPoseProvider", "representation:MotionJointRequest"));
    }
    ++ran;
  }
  EXPECT_EQ(ran, 3);
  std::filesystem::remove_all(directory);
}

namespace
{
/// Runs a documented sh block as one bash script in a scratch folder, with the build's own paths for
/// `Build/Release/` (the documents' paths are relative to the repository).
CommandResult runBlock(const std::string& block, const std::string& name)
{
  const std::string binary = NAO_ROBOT_BINARY;
  const std::string buildRoot = binary.substr(0, binary.size() - std::string("Src/Apps/Nao/nao").size());
  std::string script = block.rfind("set +e", 0) == 0 ? "" : "set -e\n";
  std::size_t at = 0;
  for (std::size_t next; (next = block.find("Build/Release/", at)) != std::string::npos; at = next + 14)
    script += block.substr(at, next - at) + buildRoot;
  script += block.substr(at);
  const auto directory =
      std::filesystem::temp_directory_path() / ("nao-readme-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(directory);
  std::filesystem::create_directories(directory);
  std::ofstream(directory / "block.sh") << script;
  CommandResult result = runCommand("bash block.sh", directory.string());
  std::filesystem::remove_all(directory);
  return result;
}
} // namespace

TEST(ReadmeCommands, TheLogsBlockRunsAsWritten)
{
  const auto sh =
      blocksOf(blocksOfSection("Util/LogTool/README.md", "## Writing a log and reading it"), "sh");
  ASSERT_EQ(sh.size(), 1u);
  const CommandResult result = runBlock(sh[0].text, "logs");
  EXPECT_EQ(result.status, 0) << result.output;
  EXPECT_NE(result.output.find("frames: 500"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("closed properly: yes"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("frame 100"), std::string::npos) << result.output;
  // Units, the one convention everywhere: `name [unit]` in the CSV header and in the dump.
  EXPECT_NE(result.output.find("frame,FrameInfo.time [s],JointSensorData.currents.HeadYaw [A],"),
            std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("  currents.LKneePitch [A] = "), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("  temperatures.LKneePitch [°C] = "), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("  stiffnesses.LKneePitch = "), std::string::npos) << "dimensionless";
  // What the robot ran with: the module graph and the parameters, from the log itself.
  EXPECT_NE(result.output.find("module graph (scenario stand, "), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("\n  ScenarioPlayer\n"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("# parameters in force at frame 100"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("## StandPoseProvider\ntransitionTime = 1000"), std::string::npos)
      << result.output;
}

TEST(ReadmeCommands, TheDebugChannelBlockRunsAsWritten)
{
  const auto sh = blocksOf(blocksOfSection(addingAModule, "## Adding a parameter"), "sh");
  ASSERT_EQ(sh.size(), 1u);
  const CommandResult result = runBlock(sh[0].text, "debug");
  EXPECT_EQ(result.status, 0) << result.output;
  EXPECT_NE(result.output.find("StandPoseProvider"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("logging to Logs/run.log"), std::string::npos) << result.output;
  // get and set say which unit they show (the module file's), subscribe labels every value with its unit.
  EXPECT_NE(result.output.find("# StandPoseProvider in the units of Config/Modules/StandPoseProvider.toml: "
                               "angles.* [deg], transitionTime [ms]"),
            std::string::npos)
      << result.output;
  // ... and what each parameter does, one comment line per field (an array's elements share one).
  EXPECT_NE(result.output.find("\n# angles.* [deg]: the pose's joint angles"), std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("\n# transitionTime [ms]: time from the measured posture to `angles`\n"),
            std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("StandPoseProvider.transitionTime [ms] = 500"), std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("  currents.LKneePitch [A] = "), std::string::npos) << result.output;
  // A unit after the number is converted to the file's; chosen fields are a header and one row per sample.
  EXPECT_NE(result.output.find("StandPoseProvider.transitionTime: 0.5 s = 500 ms"), std::string::npos)
      << result.output;
  const std::size_t header = result.output.find("currents.LKneePitch [A]  temperatures.LShoulderPitch [°C]");
  EXPECT_NE(header, std::string::npos) << result.output;
  EXPECT_EQ(result.output.find("temperatures.RKneePitch", header), std::string::npos)
      << "only temperatures.L*";
  EXPECT_NE(result.output.find("log closed: Logs/run.log"), std::string::npos) << result.output;
}

TEST(ReadmeCommands, TheRobotBinaryBlockRunsAgainstTheServedSimulator)
{
  const auto sh = blocksOf(blocksOfSection("README.md", "## The robot binary"), "sh");
  ASSERT_EQ(sh.size(), 1u);
  // The first line runs on a robot (LoLA at /tmp/robocup); the rest runs here. The block runs without `set -e`
  // and is checked line by line: when the served simulation ends, the robot binary ends too, with status 0.
  const std::string block = sh[0].text;
  const std::size_t firstNewline = block.find('\n');
  ASSERT_NE(block.substr(0, firstNewline).find("# on the robot"), std::string::npos);
  std::string script = block.substr(firstNewline + 1);
  script = "set +e\n" + script + "echo nao-status=$?\nwait\necho serve-status=$?\n";
  const CommandResult result = runBlock(script, "robot-binary");
  EXPECT_NE(result.output.find("StandPoseProvider -> MotionJointRequest"), std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("waiting for a LoLA client at /tmp/sim.sock"), std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("60 s simulated"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("output in Build/Simulation/serve-stand"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("log stand.log: "), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("nao: the body closed the connection"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("nao-status=0"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("serve-status=0"), std::string::npos) << result.output;
}

namespace
{
/// `text` without a trailing `# comment` and surrounding blanks.
std::string withoutComment(const std::string& text)
{
  std::string command = text.substr(0, text.find(" #"));
  command.erase(command.find_last_not_of(' ') + 1);
  return command;
}

/// The fuzz targets Docs/Reliability.md names in its tables (rows starting "| `<name>Fuzzer` |").
std::set<std::string> readmeFuzzTargets()
{
  std::istringstream section(readFile(sourceDirectory() / reliability));
  std::set<std::string> targets;
  for (std::string line; std::getline(section, line);)
    if (line.rfind("| `", 0) == 0 && line.find("Fuzzer` |") != std::string::npos)
      targets.insert(line.substr(3, line.find('`', 3) - 3));
  return targets;
}
} // namespace

TEST(ReadmeCommands, TheReliabilityCommandsParseAndDispatch)
{
  // The real runs take minutes to hours of sanitizer builds: Make/sanitize runs them (its fuzz step runs the
  // document's `Make/fuzz LolaFuzzer --minutes 0.05` as written, CTest MakeFuzzCommand). Here each command of
  // Docs/Reliability.md runs with --dry-run: its arguments must parse, and what it would run must be what the
  // document says.
  const auto sh = blocksOf(blocksOfSection(reliability, "## Fuzz targets"), "sh");
  ASSERT_EQ(sh.size(), 1u);
  // The document with every run of blanks and line breaks as one space: a list of tests may wrap.
  std::string readme;
  for (const char c : readFile(sourceDirectory() / reliability))
  {
    const bool blank = c == ' ' || c == '\n';
    if (!blank || (!readme.empty() && readme.back() != ' ')) readme += blank ? ' ' : c;
  }
  std::istringstream lines(sh[0].text);
  std::string line;
  int ran = 0;
  while (std::getline(lines, line))
  {
    const std::string command = withoutComment(line);
    const std::size_t space = command.find(' ');
    const std::string script = command.substr(0, space);
    ASSERT_TRUE(script == "Make/sanitize" || script == "Make/fuzz")
        << "a command the test does not know: " << line;
    const std::string arguments = space == std::string::npos ? "" : command.substr(space);
    const CommandResult result = runCommand((sourceDirectory() / script).string() + " --dry-run" + arguments);
    EXPECT_EQ(result.status, 0) << line << "\n" << result.output;
    std::istringstream output(result.output);
    std::set<std::string> fuzzTargets;
    int sanitizeSteps = 0;
    for (std::string printed; std::getline(output, printed);)
    {
      if (const std::size_t at = printed.find("would build and run in Build/Asan: "); at != std::string::npos)
      {
        EXPECT_NE(readme.find("`" + printed.substr(at + 35) + "`"), std::string::npos)
            << "Docs/Reliability.md's AddressSanitizer build lists the tests Make/sanitize runs: " << printed;
      }
      if (printed.rfind("Make/sanitize: ", 0) == 0) ++sanitizeSteps;
      if (const std::size_t at = printed.find("would run "); at != std::string::npos)
      {
        const std::string target = printed.substr(at + 10, printed.find(' ', at + 10) - at - 10);
        fuzzTargets.insert(target);
        if (arguments.find("--minutes 10") != std::string::npos)
        {
          EXPECT_NE(printed.find(" for 600 s "), std::string::npos) << printed;
        }
        if (arguments.find("--minutes 0.05") != std::string::npos)
        {
          EXPECT_NE(printed.find(" for 3 s "), std::string::npos) << printed;
        }
      }
    }
    if (script == "Make/sanitize")
      EXPECT_EQ(sanitizeSteps, 3) << "asan, tsan, fuzz:\n" << result.output;
    else if (arguments.find("LolaFuzzer") != std::string::npos)
      EXPECT_EQ(fuzzTargets, std::set<std::string>{"LolaFuzzer"}) << result.output;
    else
      EXPECT_EQ(fuzzTargets, readmeFuzzTargets())
          << "every target Docs/Reliability.md lists runs, and no other";
    ++ran;
  }
  EXPECT_EQ(ran, 3);
  EXPECT_EQ(readmeFuzzTargets().size(), 7u);

  // Bad input gets a clear error before anything is built.
  const std::string source = sourceDirectory().string();
  const CommandResult unknownTarget = runCommand(source + "/Make/fuzz --dry-run NoSuchFuzzer");
  EXPECT_EQ(unknownTarget.status, 2);
  EXPECT_NE(
      unknownTarget.output.find("Make/fuzz: no fuzz target 'NoSuchFuzzer' (targets: DebugChannelFuzzer"),
      std::string::npos)
      << unknownTarget.output;
  const CommandResult badMinutes = runCommand(source + "/Make/fuzz --dry-run --minutes nan");
  EXPECT_EQ(badMinutes.status, 2);
  EXPECT_NE(badMinutes.output.find("--minutes 'nan' is not a positive number of minutes"), std::string::npos)
      << badMinutes.output;
  // An unknown step is refused before the first step would build anything.
  const CommandResult unknownStep = runCommand(source + "/Make/sanitize --dry-run asan no-such-step");
  EXPECT_EQ(unknownStep.status, 2);
  EXPECT_NE(unknownStep.output.find("Make/sanitize: unknown step 'no-such-step'"), std::string::npos)
      << unknownStep.output;
}
