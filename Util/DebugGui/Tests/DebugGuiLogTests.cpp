// The debug GUI's offline parts, headless: the TOML splice its parameter editor saves with, a log's replay against
// LogTool, and the commands of Util/DebugGui/README.md.
#include "Tools/Testing/Markdown.h"
#include "Tools/Testing/SourceTree.h"
#include "Util/DebugGui/Tests/DebugGuiTestSupport.h"
#include "Util/DebugGui/TomlSplice.h"

using namespace nao::gui;
using namespace nao::gui::test;
using namespace nao::test;

TEST(TomlSplice, AnEditRewritesOnlyTheValueAndKeepsCommentsAndLayout)
{
  const std::string text = "# head comment\nx = 1 # one\n\n[angles]\nLKneePitch =   48.0313  # deg\n"
                           "list = [1, 2,\n  3]\n[stiffnesses] # s\nLKneePitch = 0.75\n";
  const std::string edited = replaceTomlValue(text, "stiffnesses.LKneePitch", "0.5", "Test.toml");
  EXPECT_EQ(edited, "# head comment\nx = 1 # one\n\n[angles]\nLKneePitch =   48.0313  # deg\n"
                    "list = [1, 2,\n  3]\n[stiffnesses] # s\nLKneePitch = 0.5\n");
  EXPECT_EQ(replaceTomlValue(text, "angles.list", "[4, 5]", "Test.toml"),
            "# head comment\nx = 1 # one\n\n[angles]\nLKneePitch =   48.0313  # deg\n"
            "list = [4, 5]\n[stiffnesses] # s\nLKneePitch = 0.75\n");
  EXPECT_THROW(replaceTomlValue(text, "angles.RKneePitch", "1", "Test.toml"), std::runtime_error);
  try
  {
    replaceTomlValue(text, "x", "1.2.3", "Test.toml");
    ADD_FAILURE() << "a value that is not TOML was written";
  }
  catch (const std::runtime_error& error)
  {
    EXPECT_NE(std::string(error.what()).find("x = 1.2.3: not a TOML value"), std::string::npos)
        << error.what();
  }
  // An overlay gets the key under its table's header, or as a dotted key before the first header.
  EXPECT_EQ(setTomlValue("a = 1\n[stiffnesses]\nHeadYaw = 0.4\n", "stiffnesses.LKneePitch", "0.5", "O.toml"),
            "a = 1\n[stiffnesses]\nLKneePitch = 0.5\nHeadYaw = 0.4\n");
  EXPECT_EQ(setTomlValue("# robot 1\n", "stiffnesses.LKneePitch", "0.5", "O.toml"),
            "# robot 1\nstiffnesses.LKneePitch = 0.5\n");
  EXPECT_EQ(setTomlValue("[b]\nc = 1\n", "a", "2", "O.toml"), "a = 2\n[b]\nc = 1\n");
}

TEST(DebugGui, LogReplayShowsWhatLogToolPrints)
{
  application();
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / ("DebugGuiTests-log-" + std::to_string(::getpid()));
  const std::filesystem::path log = folder / "stand.log";
  ASSERT_NO_FATAL_FAILURE(recordStandLog(folder, log));
  QProcess logTool;
  logTool.start(NAO_LOG_TOOL_BINARY,
                {"csv", QString::fromStdString(log.string()), "FrameInfo.time",
                 "JointSensorData.currents.LKneePitch", "JointRequest.angles.LKneePitch"});
  ASSERT_TRUE(logTool.waitForFinished(60000));
  const auto csv = lines(logTool.readAllStandardOutput().toStdString());
  ASSERT_GT(csv.size(), 250u);
  const QStringList header = QString::fromStdString(csv[0]).split(',');

  MainWindow window(options());
  ASSERT_TRUE(window.openLog(log.string())) << window.lastError();
  window.plotField("JointSensorData.currents.LKneePitch");
  for (const std::size_t row : {1u, 2u, 100u, 250u, static_cast<unsigned>(csv.size() - 1)})
  {
    const QStringList cells = QString::fromStdString(csv[row]).split(',');
    window.timeline().setFrameIndex(static_cast<int>(row - 1));
    EXPECT_EQ(QString::number(window.timeline().frameNumber()), cells[0]);
    for (int column = 1; column < header.size(); ++column)
      EXPECT_EQ(window.timeline().shownValue(header[column].section(" [", 0, 0)), cells[column])
          << header[column].toStdString() << " at frame " << cells[0].toStdString();
  }
  // The plot holds the whole log, the joint table the frame's values.
  EXPECT_EQ(window.plot().pointCount("JointSensorData.currents.LKneePitch"), csv.size() - 1);
  EXPECT_FALSE(window.joints().cell("LKneePitch", "current [mA]").isEmpty());
  // An x–y plot of the knee's current over its angle: one point per frame.
  XyPlotView* xy = window.addXyPlot();
  xy->onFieldDropped("JointSensorData.angles.LKneePitch");
  xy->onFieldDropped("JointSensorData.currents.LKneePitch");
  EXPECT_EQ(xy->xField(), "JointSensorData.angles.LKneePitch");
  EXPECT_EQ(xy->yField(), "JointSensorData.currents.LKneePitch");
  EXPECT_EQ(xy->pointCount(), csv.size() - 1);
  std::filesystem::remove_all(folder);
}

TEST(DebugGuiReadme, TheBlockRuns)
{
  application();
  const auto blocks = fencedBlocks(readFile(sourceDirectory() / "Util/DebugGui/README.md"), "sh");
  ASSERT_FALSE(blocks.empty());
  const auto commands = lines(blocks.front()); // the first block: how to start the GUI
  ASSERT_EQ(commands.size(), 3u);

  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / ("DebugGuiTests-readme-folder-" + std::to_string(::getpid()));
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder / "Build" / "Logs");
  QProcess logged; // the log of Util/LogTool/README.md's block
  logged.start(NAO_ROBOT_BINARY,
               {"--body", "standin", "--scenario", "stand", "--frames", "500", "--no-debug", "--log",
                QString::fromStdString((folder / "Build/Logs/stand.log").string())});
  ASSERT_TRUE(logged.waitForFinished(60000));
  const ScratchConfig config("readme");
  StandInRobot robot(config.directory);
  ASSERT_NE(robot.port, 0);

  const std::string robotBinary = NAO_ROBOT_BINARY;
  const std::string buildRoot =
      robotBinary.substr(0, robotBinary.size() - std::string("Src/Apps/Nao/nao").size());
  for (std::string command : commands)
  {
    const std::string original = command;
    command.replace(command.find("Build/Release/"), 14, buildRoot);
    if (const auto port = command.find(":7070"); port != std::string::npos)
      command.replace(port, 5, ":" + std::to_string(robot.port));
    command.insert(command.find("   #"), " --quit-after 4");
    QProcess gui;
    gui.setProcessChannelMode(QProcess::MergedChannels);
    gui.setWorkingDirectory(QString::fromStdString(folder.string()));
    gui.start("bash", {"-c", QString::fromStdString(command)});
    ASSERT_TRUE(gui.waitForFinished(120000)) << original;
    const std::string output = gui.readAll().toStdString();
    EXPECT_EQ(gui.exitCode(), 0) << original << "\n" << output;
    EXPECT_NE(output.find("DebugGui: ready: "), std::string::npos) << original << "\n" << output;
    if (original.find("--plot") != std::string::npos)
    {
      // "connected, N samples": the plotted field streams.
      const std::size_t at = output.find("connected, ");
      ASSERT_NE(at, std::string::npos) << output;
      EXPECT_GT(std::stoul(output.substr(at + 11)), 50u) << output;
    }
  }
  std::filesystem::remove_all(folder);
}
