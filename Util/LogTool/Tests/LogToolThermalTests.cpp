// `LogTool thermal` on a log the robot binary recorded with the stand-in body: the block of Util/LogTool/README.md
// ("A joint's heat from a log") run as written prints every joint's fitted model, thresholds with their sources and
// forecasts, and the summary line; a log without JointThermalState is refused naming what is missing and how to log
// it. Over several logs (the README's "Who should rest" block and crafted logs) one budget line per log, from the
// logged ThermalBudget or computed from JointThermalState.
#include "Framework/Representation.h"
#include "Representations/Infrastructure/BatteryData.h"
#include "Representations/Infrastructure/FrameInfo.h"
#include "Representations/Infrastructure/Joints.h"
#include "Representations/Modeling/JointThermalState.h"
#include "Tools/BinaryIO/LogFormat.h"
#include "Tools/Testing/Files.h"
#include "Tools/Testing/Markdown.h"
#include "Tools/Testing/RunCommand.h"
#include "Tools/Testing/SourceTree.h"
#include "Tools/Testing/TemporaryFolder.h"
#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <limits>

using namespace nao;
using namespace nao::test;
using ::testing::HasSubstr;

namespace
{
/// The build folder (what the README calls Build/Release/).
std::string buildRoot()
{
  const std::string tool = NAO_LOG_TOOL_BINARY;
  return tool.substr(0, tool.size() - std::string("Util/LogTool/LogTool").size());
}

/// `block` with the build's own paths for Build/Release/; when the checkout's stand scenario does not log
/// JointThermalState yet, the robot binary runs on a copy of Config/ whose stand does.
std::string scriptOf(const std::string& block, const std::filesystem::path& scratch)
{
  std::string script = "set -e\n";
  std::size_t at = 0;
  for (std::size_t next; (next = block.find("Build/Release/", at)) != std::string::npos; at = next + 14)
    script += block.substr(at, next - at) + buildRoot();
  script += block.substr(at);
  const std::string stand = readFile(configDirectory() / "Scenarios/stand.toml");
  if (stand.find("\"JointThermalState\"") == std::string::npos)
  {
    const auto config = scratch / "Config";
    std::filesystem::copy(configDirectory(), config, std::filesystem::copy_options::recursive);
    std::string patched = stand;
    const std::size_t list = patched.find("representations = [");
    EXPECT_NE(list, std::string::npos);
    patched.insert(list + 19, "\"JointThermalState\", ");
    std::filesystem::remove(config / "Scenarios/stand.toml");
    std::ofstream(config / "Scenarios/stand.toml") << patched;
    const std::string nao = "Src/Apps/Nao/nao ";
    const std::size_t call = script.find(nao);
    EXPECT_NE(call, std::string::npos);
    script.insert(call + nao.size(), "--config " + config.string() + " ");
  }
  return script;
}

/// A log of three frames holding `T` (a FrameInfo beside it).
template<class T>
void writeLogOf(const std::filesystem::path& log, const T& value)
{
  registerFrameworkRepresentations();
  const auto& registry = RepresentationRegistry::instance();
  const auto frameId = static_cast<RepresentationId>(registry.find(typeName<FrameInfo>()));
  const auto valueId = static_cast<RepresentationId>(registry.find(typeName<T>()));
  binaryio::LogWriter writer(
      log, binaryio::TypeTable{{{frameId, registry.info(frameId).name, registry.info(frameId).schema},
                                {valueId, registry.info(valueId).name, registry.info(valueId).schema}}});
  binaryio::FrameChunkBuilder frame;
  for (std::uint32_t i = 0; i < 3; ++i)
  {
    frame.begin(i);
    const FrameInfo info{0.012 * i, i, 0};
    std::vector<char> bytes;
    registry.info(frameId).saveBinary(&info, bytes);
    frame.addRecord(frameId, bytes);
    bytes.clear();
    registry.info(valueId).saveBinary(&value, bytes);
    frame.addRecord(valueId, bytes);
    writer.writeFrame(frame);
  }
  writer.close();
}

/// Every joint estimated at 40 °C and trusted; LKneePitch reaches status 1 in `seconds`, the others never.
JointThermalState stateWithKneeAt(float seconds, bool learning)
{
  JointThermalState state;
  state.valid.fill(true);
  state.learning.fill(false);
  state.temperatures.fill(40.f);
  state.temperatures[Joint::RKneePitch] = 52.5f;
  state.hot.times.fill(std::numeric_limits<float>::infinity());
  state.hot.times[Joint::LKneePitch] = seconds;
  state.learning[Joint::LKneePitch] = learning;
  return state;
}
} // namespace

TEST(LogToolThermal, TheReadmeBlockPrintsEveryJointsModelAndForecast)
{
  const std::vector<std::string> blocks = fencedBlocks(
      markdownSection(readFile(sourceDirectory() / "Util/LogTool/README.md"), "## A joint's heat from a log"),
      "sh");
  ASSERT_EQ(blocks.size(), 1u);
  TemporaryFolder folder("logtool-thermal");
  const CommandResult result = runScript(folder.path, "block.sh", scriptOf(blocks[0], folder.path));
  ASSERT_EQ(result.status, 0) << result.output;
  const std::string& out = result.output;
  EXPECT_THAT(out, HasSubstr("k [K/A²]"));
  EXPECT_THAT(out, HasSubstr("tau [s]"));
  EXPECT_THAT(out, HasSubstr("T_amb [°C]"));
  EXPECT_THAT(out, HasSubstr("status 1 [°C]"));
  EXPECT_THAT(out, HasSubstr(" prior")) << "each threshold with its source";
  // Every joint has a row with its estimate and its steady state, each ± its deviation (the stand-in body reports
  // 30 °C throughout).
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const std::string joint(jointNames[j]);
    const std::size_t row = out.find("\n" + joint + " ");
    ASSERT_NE(row, std::string::npos) << joint << "\n" << out;
    const std::string line = out.substr(row + 1, out.find('\n', row + 1) - row - 1);
    EXPECT_THAT(line, ::testing::ContainsRegex(" ± [0-9.]+ .* ± [0-9.]+ ")) << line;
    EXPECT_THAT(line, ::testing::Not(HasSubstr("no estimate"))) << line;
  }
  EXPECT_THAT(out,
              ::testing::ContainsRegex("summary [^\n]*: hottest joint [A-Za-z]+ 3[0-9]\\.[0-9] ± [0-9.]+ °C; "
                                       "least time left ([A-Za-z]+, status 1 |none: no joint reaches)"));
  // The default graph names the sitting posture (limp): no joint of the stand-in body is in a status, and the hottest
  // one settles at its fitted ambient without current.
  EXPECT_THAT(
      out, ::testing::ContainsRegex("posture 'sit' \\(if the robot took it now\\): no joint is in a status; "
                                    "the hottest, [A-Za-z]+, settles at [0-9.]+ °C at 0.000 A"));
}

TEST(LogToolThermal, ALogWithoutJointThermalStateNamesWhatIsMissingAndHowToLogIt)
{
  registerFrameworkRepresentations();
  TemporaryFolder folder("logtool-thermal-missing");
  const auto log = folder.path / "plain.log";
  const auto& registry = RepresentationRegistry::instance();
  const auto id = static_cast<RepresentationId>(registry.find(typeName<FrameInfo>()));
  {
    binaryio::LogWriter writer(log,
                               binaryio::TypeTable{{{id, registry.info(id).name, registry.info(id).schema}}});
    binaryio::FrameChunkBuilder frame;
    for (std::uint32_t i = 0; i < 3; ++i)
    {
      frame.begin(i);
      const FrameInfo info{0.012 * i, i, 0};
      std::vector<char> bytes;
      registry.info(id).saveBinary(&info, bytes);
      frame.addRecord(id, bytes);
      writer.writeFrame(frame);
    }
    writer.close();
  }
  const CommandResult result =
      runCommand(std::string(NAO_LOG_TOOL_BINARY) + " thermal " + log.string() + " 2>&1");
  EXPECT_EQ(result.status, 2) << result.output;
  EXPECT_THAT(result.output, HasSubstr("holds no JointThermalState"));
  EXPECT_THAT(result.output, HasSubstr("[Log] representations"));
  EXPECT_THAT(result.output, HasSubstr("Config/Scenarios/<scenario>.toml"));
}

TEST(LogToolThermal, TheReadmeBlockOfManyLogsPrintsOneLinePerRobot)
{
  const std::vector<std::string> blocks =
      fencedBlocks(markdownSection(readFile(sourceDirectory() / "Util/LogTool/README.md"),
                                   "## Who should rest: many logs at once"),
                   "sh");
  ASSERT_EQ(blocks.size(), 1u);
  TemporaryFolder folder("logtool-thermal-many");
  const CommandResult result = runScript(folder.path, "block.sh", scriptOf(blocks[0], folder.path));
  ASSERT_EQ(result.status, 0) << result.output;
  for (const std::string log : {"robot1.log", "robot2.log"})
    EXPECT_THAT(result.output, ::testing::ContainsRegex(
                                   "budget " + log +
                                   ": hottest [A-Za-z]+ 3[0-9]\\.[0-9] °C; left never (trusted|learning); "
                                   "sitting never; standing (never|unknown \\(no stand seen\\)); rest no "
                                   "\\(logged ThermalBudget\\)\n"))
        << result.output;
  EXPECT_THAT(result.output, ::testing::Not(HasSubstr("k [K/A²]"))) << "several logs: no joint tables";
}

TEST(LogToolThermal, ManyLogsComputeTheBudgetFromJointThermalStateAndRestOnlyOnATrustedForecast)
{
  TemporaryFolder folder("logtool-thermal-computed");
  const auto trusted = folder.path / "trusted.log", learning = folder.path / "learning.log",
             plain = folder.path / "plain.log";
  writeLogOf(trusted, stateWithKneeAt(120.f, false));
  writeLogOf(learning, stateWithKneeAt(60.f, true));
  writeLogOf(plain, BatteryData{}); // neither JointThermalState nor ThermalBudget
  const CommandResult result = runCommand(std::string(NAO_LOG_TOOL_BINARY) + " thermal " + trusted.string() +
                                          " " + plain.string() + " " + learning.string() + " 2>&1");
  EXPECT_EQ(result.status, 2) << "plain.log holds neither\n" << result.output;
  EXPECT_THAT(result.output,
              HasSubstr("budget " + trusted.string() +
                        ": hottest RKneePitch 52.5 °C; left 2.0 min (LKneePitch) trusted; sitting "
                        "2.0 min (no sitting forecast: at the present load); standing unknown (no stand "
                        "seen); rest YES (computed from "
                        "JointThermalState, restBelow 5.0 min)"));
  EXPECT_THAT(result.output, HasSubstr("budget " + learning.string() +
                                       ": hottest RKneePitch 52.5 °C; left 1.0 min (LKneePitch) learning"));
  EXPECT_THAT(result.output, ::testing::ContainsRegex("budget [^\n]*learning.log[^\n]*rest no \\(computed"));
  EXPECT_THAT(result.output, HasSubstr(plain.string() + " holds no JointThermalState"));
  const CommandResult lower = runCommand(std::string(NAO_LOG_TOOL_BINARY) + " thermal " + trusted.string() +
                                         " " + learning.string() + " --rest-below 1.5 2>&1");
  EXPECT_EQ(lower.status, 0) << lower.output;
  EXPECT_THAT(lower.output, ::testing::Not(HasSubstr("rest YES"))) << lower.output;
  const CommandResult overlay = runCommand(std::string(NAO_LOG_TOOL_BINARY) + " thermal " + trusted.string() +
                                           " " + learning.string() + " --overlay x.toml 2>&1");
  EXPECT_EQ(overlay.status, 1) << overlay.output;
  EXPECT_THAT(overlay.output, HasSubstr("give one log"));
}
