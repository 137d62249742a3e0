// The debug GUI's offline parts, headless: the TOML splice its parameter editor saves with, a log's replay against
// LogTool and with the module graph and parameters the log recorded, and the commands of Util/DebugGui/README.md.
#include "Framework/ParameterFiles.h"
#include "Modules/MotionControl/StandPoseProvider/StandPoseProvider.h"
#include "Tools/Streams/TomlFiles.h"
#include "Tools/Testing/Markdown.h"
#include "Tools/Testing/SourceTree.h"
#include "Util/DebugGui/Tests/DebugGuiTestSupport.h"
#include "Util/DebugGui/TomlSplice.h"
#include <algorithm>

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

TEST(DebugGui, LogReplayDrawsTheLogsModuleGraphAndShowsItsParametersReadOnly)
{
  application();
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / ("DebugGuiTests-metadata-" + std::to_string(::getpid()));
  const std::filesystem::path log = folder / "stand.log";
  ASSERT_NO_FATAL_FAILURE(recordStandLog(folder, log, 100));
  // What the robot loads: the defaults with Config/'s files over them.
  const toml::table file = nao::layeredParameterTable(nao::streams::saveToTable(nao::StandPoseParameters{}),
                                                      {NAO_CONFIG_DIR, "Default"}, "StandPoseProvider");
  const double loadedTransitionTime = *file["transitionTime"].value<double>();
  {
    MainWindow window(options());
    ASSERT_TRUE(window.openLog(log.string())) << window.lastError();
    ASSERT_TRUE(waitFor([&] { return !window.graph().layingOut(); }, 30));
    const std::vector<std::string>& nodes = window.graph().nodeNames();
    for (const std::string module : {"ScenarioPlayer", "RobotModelProvider"})
      EXPECT_NE(std::find(nodes.begin(), nodes.end(), module), nodes.end()) << module;
    EXPECT_GT(window.graph().nodeCount(), 5);
    EXPECT_TRUE(window.graph().message().contains("recorded in the log"))
        << window.graph().message().toStdString();
    EXPECT_FALSE(window.graph().message().contains("right-click"));

    // The parameters as the robot loaded them, not editable.
    window.timeline().setFrameIndex(50);
    window.parameters().selectModule("StandPoseProvider");
    EXPECT_EQ(window.parameters().module(), "StandPoseProvider");
    EXPECT_TRUE(window.parameters().readOnly());
    EXPECT_EQ(window.parameters().value("transitionTime").toDouble(),
              *file["transitionTime"].value<double>());
    EXPECT_EQ(window.parameters().value("angles.LKneePitch").toDouble(),
              *file["angles"]["LKneePitch"].value<double>());
    EXPECT_FALSE(window.parameters().editValue("transitionTime", "5"));
    EXPECT_EQ(window.parameters().value("transitionTime").toDouble(), *file["transitionTime"].value<double>())
        << "a log's parameters are read-only";
    EXPECT_FALSE(window.parameters().save("module"));
  }

  // The same log with a live edit of StandPoseProvider from its 51st frame on, and as written before logs carried
  // the graph and parameters.
  const std::filesystem::path edited = folder / "edited.log", old = folder / "old.log";
  std::uint32_t editFrame = 0;
  {
    nao::binaryio::LogReader reader(log);
    std::vector<nao::binaryio::LogFrame> frames;
    while (auto frame = reader.nextFrame())
      frames.push_back(std::move(*frame));
    ASSERT_GT(frames.size(), 60u);
    editFrame = frames[50].frameNumber();
    nao::binaryio::LogWriter withEdit(edited, reader.typeTable()), without(old, reader.typeTable());
    for (const nao::binaryio::LogAnnotation& annotation : reader.annotations())
      if (nao::LogMetadata::isMetadata(annotation.text)) withEdit.writeAnnotation(annotation.text);
    nao::binaryio::FrameChunkBuilder builder;
    for (const nao::binaryio::LogFrame& frame : frames)
    {
      if (frame.frameNumber() == editFrame)
        withEdit.writeAnnotation(nao::parametersAnnotation(
            {"StandPoseProvider", false, editFrame, "transitionTime = 777\n[angles]\nLKneePitch = 40.0\n"}));
      builder.begin(frame.frameNumber());
      for (const nao::binaryio::FrameRecord& record : frame.view())
        builder.addRecord(record.typeId, record.bytes);
      withEdit.writeFrame(builder);
      without.writeFrame(builder);
    }
  }
  {
    // The Parameters dock follows the timeline: the loaded values before the edit's frame, the edit's from it on.
    MainWindow window(options());
    ASSERT_TRUE(window.openLog(edited.string())) << window.lastError();
    window.parameters().selectModule("StandPoseProvider");
    window.timeline().setFrameIndex(49);
    EXPECT_EQ(window.parameters().value("transitionTime").toDouble(), loadedTransitionTime);
    window.timeline().setFrameIndex(50);
    EXPECT_EQ(window.timeline().frameNumber(), editFrame);
    EXPECT_EQ(window.parameters().value("transitionTime").toDouble(), 777);
    EXPECT_EQ(window.parameters().value("angles.LKneePitch").toDouble(), 40.0);
    window.timeline().setFrameIndex(10);
    EXPECT_EQ(window.parameters().value("transitionTime").toDouble(), loadedTransitionTime);
  }
  MainWindow window(options());
  ASSERT_TRUE(window.openLog(old.string())) << window.lastError();
  EXPECT_TRUE(window.graph().message().contains("holds no module graph"))
      << window.graph().message().toStdString();
  EXPECT_TRUE(window.ready());
  EXPECT_FALSE(window.parameters().readOnly());
  std::filesystem::remove_all(folder);
}
