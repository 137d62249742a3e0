// Installed, not only built: `cmake --install` puts the robot binary, the tools and Config/ under a prefix; the
// installed programs find their Config/ there, also after the prefix has moved, and nothing of the build or source
// tree is needed. A binary finds the Config/ of the tree it lies in (a copied checkout uses its own), and one
// without any Config/ says where it looked.
#include "Tools/Testing/Files.h"
#include "Tools/Testing/Markdown.h"
#include "Tools/Testing/RunCommand.h"
#include "Tools/Testing/SourceTree.h"
#include "Tools/Testing/TemporaryFolder.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

using namespace nao::test;

namespace
{
std::string replaceAll(std::string text, const std::string& from, const std::string& to)
{
  for (std::size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size())
    text.replace(at, from.size(), to);
  return text;
}

/// The one ```sh block of Docs/Install.md's section `heading`.
std::string readmeBlock(const std::string& heading)
{
  const auto blocks =
      fencedBlocks(markdownSection(readFile(sourceDirectory() / "Docs/Install.md"), heading), "sh");
  return blocks.empty() ? "" : blocks.front();
}

void expectRuns(const CommandResult& result, const std::string& expected, const std::string& what)
{
  EXPECT_EQ(result.status, 0) << what << "\n" << result.output;
  EXPECT_NE(result.output.find(expected), std::string::npos) << what << "\n" << result.output;
}

/// Every installed program from `prefix`, run in `work` (outside the source and build trees).
void expectInstalledProgramsRun(const std::filesystem::path& prefix, const std::filesystem::path& work)
{
  const std::string bin = (prefix / "bin").string() + "/";
  expectRuns(runCommand(bin + "nao --help"), "--scenario", "nao --help");
  expectRuns(runCommand(bin + "nao --body standin --scenario stand --frames 50 --no-debug --log stand.log",
                        work.string()),
             "robot 'Default', scenario 'stand'", "nao with the installed Config/");
  expectRuns(runCommand(bin + "LogTool info stand.log", work.string()), "frames: 50", "LogTool");
  expectRuns(runCommand(bin + "DebugClient --help"), "subscribe", "DebugClient --help");
  expectRuns(runCommand(bin + "StiffnessTool --help"), "metric", "StiffnessTool --help");
  expectRuns(runCommand(bin + "TaskTool --help"), "hqp", "TaskTool --help");
  expectRuns(runCommand(bin + "DebugGui --help"), "--sim", "DebugGui --help");
  // The GUI finds the installed Config/, robot binary and simulator next to it (headless: Qt's offscreen platform).
  expectRuns(
      runCommand("QT_QPA_PLATFORM=offscreen " + bin + "DebugGui --sim stand --quit-after 3", work.string()),
      "connected", "DebugGui --sim with the installed programs");
  // The simulator builds its NAO from the installed URDF and Config/Sim/, and runs the installed robot binary.
  expectRuns(runCommand(bin + "Simulator run stand --minutes 0.05 --no-plots --output sim --robot-binary " +
                            bin + "nao",
                        work.string()),
             "3 s simulated", "Simulator run with the installed robot binary");
  EXPECT_TRUE(std::filesystem::exists(work / "sim" / "summary.csv"));
}
} // namespace

TEST(Install, TheInstalledProgramsFindTheirConfigAlsoAfterThePrefixMoved)
{
  // Docs/Install.md's block as written, with this build for Build/Release and a scratch prefix for /opt/nao.
  const TemporaryFolder scratch("install");
  const auto prefix = scratch.path / "prefix";
  std::string block = readmeBlock("## Installing into a prefix");
  ASSERT_NE(block.find("cmake --install Build/Release --prefix /opt/nao"), std::string::npos) << block;
  block = replaceAll(block, "cmake --install Build/Release",
                     std::string("'") + NAO_CMAKE_COMMAND + "' --install '" + NAO_BUILD_DIR + "'");
  block = replaceAll(block, "/opt/nao", prefix.string());
  const CommandResult install = runScript(scratch.path, "block.sh", "set -e\n" + block);
  ASSERT_EQ(install.status, 0) << block << install.output;
  EXPECT_NE(install.output.find("robot 'Default', scenario 'standin'"), std::string::npos) << install.output;
  ASSERT_TRUE(std::filesystem::exists(prefix / "share/nao-framework/Config/settings.toml"));
  ASSERT_TRUE(std::filesystem::exists(prefix / "share/nao-framework/Config/Robots/Default/nao-v6.urdf"));
  ASSERT_TRUE(std::filesystem::exists(prefix / "share/nao-framework/Config/Sim/motors.toml"));
  for (const char* program :
       {"nao", "Simulator", "LogTool", "DebugClient", "StiffnessTool", "TaskTool", "DebugGui"})
    ASSERT_TRUE(std::filesystem::exists(prefix / "bin" / program)) << program;
  // No installed file names the source or the build tree.
  const CommandResult paths =
      runCommand("grep -rlF -e '" + sourceDirectory().string() + "' '" + prefix.string() + "' || true");
  EXPECT_EQ(paths.output, "") << "installed files that name the source tree";

  std::filesystem::create_directories(scratch.path / "work");
  expectInstalledProgramsRun(prefix, scratch.path / "work");
  const auto moved = scratch.path / "elsewhere" / "prefix";
  std::filesystem::create_directories(moved.parent_path());
  std::filesystem::rename(prefix, moved);
  std::filesystem::create_directories(scratch.path / "work2");
  expectInstalledProgramsRun(moved, scratch.path / "work2");
}

TEST(Install, ABinaryUsesTheConfigOfTheTreeItLiesIn)
{
  // A copied checkout: its build's binary must read the copy's Config/, not the one it was built from.
  const TemporaryFolder scratch("install");
  const auto tree = scratch.path / "copy";
  std::filesystem::create_directories(tree);
  std::filesystem::copy(configDirectory(), tree / "Config", std::filesystem::copy_options::recursive);
  std::ofstream(tree / "Config/settings.toml", std::ios::app) << "# the copy\n";
  {
    std::string text = readFile(tree / "Config/settings.toml");
    const auto at = text.find("scenario = \"standin\"");
    ASSERT_NE(at, std::string::npos);
    text.replace(at, 20, "scenario = \"stand\"  ");
    std::ofstream(tree / "Config/settings.toml") << text;
  }
  const auto binary = tree / "Build/Release/Src/Apps/Nao/nao";
  std::filesystem::create_directories(binary.parent_path());
  std::filesystem::copy_file(NAO_ROBOT_BINARY, binary);
  expectRuns(runCommand(binary.string() + " --body standin --frames 5 --no-debug"), "scenario 'stand'",
             "the copy's settings.toml");

  const auto lonely = scratch.path / "lonely/bin/nao";
  std::filesystem::create_directories(lonely.parent_path());
  std::filesystem::copy_file(NAO_ROBOT_BINARY, lonely);
  const CommandResult missing = runCommand(lonely.string() + " --body standin --frames 5 --no-debug");
  EXPECT_EQ(missing.status, 1) << missing.output;
  EXPECT_NE(missing.output.find("no Config/ folder"), std::string::npos) << missing.output;
  EXPECT_NE(missing.output.find((scratch.path / "lonely/bin/Config").string()), std::string::npos)
      << missing.output;
  EXPECT_NE(missing.output.find((scratch.path / "lonely/share/nao-framework/Config").string()),
            std::string::npos)
      << missing.output;
  EXPECT_NE(missing.output.find("--config"), std::string::npos) << missing.output;
  // --config still says where it is.
  expectRuns(runCommand(lonely.string() + " --body standin --frames 5 --no-debug --config " + NAO_CONFIG_DIR),
             "scenario 'standin'", "--config");
}
