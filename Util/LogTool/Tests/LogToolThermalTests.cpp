// `LogTool thermal` on a log the robot binary recorded with the stand-in body: the block of Util/LogTool/README.md
// ("A joint's heat from a log") run as written prints every joint's fitted model, thresholds with their sources and
// forecasts, and the summary line; a log without JointThermalState is refused naming what is missing and how to log
// it.
#include "Framework/Representation.h"
#include "Representations/Infrastructure/FrameInfo.h"
#include "Representations/Infrastructure/Joints.h"
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
  // Every joint has a row with its estimate ± deviation (the stand-in body reports 30 °C throughout).
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const std::string joint(jointNames[j]);
    const std::size_t row = out.find("\n" + joint + " ");
    ASSERT_NE(row, std::string::npos) << joint << "\n" << out;
    const std::string line = out.substr(row + 1, out.find('\n', row + 1) - row - 1);
    EXPECT_THAT(line, HasSubstr(" ± ")) << line;
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
