// The debug GUI against real processes, headless (Qt's offscreen platform): a simulated NAO standing with the
// robot binary, a stand-in robot for parameter edits and the token, a log against LogTool. Every field is plotted,
// edited and replayed through the same window code a user's clicks run.
#include "Util/DebugGui/MainWindow.h"
#include "Util/DebugGui/TomlSplice.h"
#include <QApplication>
#include <QDockWidget>
#include <QDropEvent>
#include <QMimeData>
#include <arpa/inet.h>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <ifaddrs.h>
#include <qcustomplot.h>
#include <sstream>
#include <thread>
#include <unistd.h>

using namespace nao::gui;

namespace
{
std::filesystem::path settingsFolder()
{
  return std::filesystem::temp_directory_path() / ("DebugGuiTests-" + std::to_string(::getpid()));
}

/// Removes the tests' QSettings folder when the test program ends.
struct RemoveSettingsAtExit
{
  ~RemoveSettingsAtExit() { std::filesystem::remove_all(settingsFolder()); }
} removeSettingsAtExit;

QApplication& application()
{
  static int argc = 1;
  static char name[] = "DebugGuiTests";
  static char* argv[] = {name, nullptr};
  static QApplication* app = []
  {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    // QSettings of the tests go to a scratch folder, not the user's.
    qputenv("XDG_CONFIG_HOME", QByteArray::fromStdString(settingsFolder().string()));
    return new QApplication(argc, argv);
  }();
  return *app;
}

/// Processes events until the condition holds. The limit only keeps a broken run from hanging; what the tests
/// assert is the condition, never the time it took.
template<class Condition>
bool waitFor(Condition condition, double limitSeconds = 120)
{
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(limitSeconds);
  while (!condition())
  {
    if (std::chrono::steady_clock::now() > deadline) return false;
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
}

std::string readFile(const std::filesystem::path& file)
{
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> lines(const std::string& text)
{
  std::vector<std::string> result;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    result.push_back(line);
  return result;
}

/// A scratch copy of Config/ (edits are saved into it), optionally with other debug settings.
struct ScratchConfig
{
  std::filesystem::path directory;
  explicit ScratchConfig(const std::string& name, const std::string& settingsAppend = "")
  {
    directory =
        std::filesystem::temp_directory_path() / ("DebugGuiTests-" + name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(directory);
    std::filesystem::copy(NAO_CONFIG_DIR, directory, std::filesystem::copy_options::recursive);
    if (!settingsAppend.empty())
    {
      std::string settings = readFile(directory / "settings.toml");
      for (const std::string key : {"debugBind", "debugToken"})
        if (settingsAppend.find(key) != std::string::npos)
        {
          const auto at = settings.find(key);
          settings.erase(at, settings.find('\n', at) - at + 1);
        }
      std::ofstream(directory / "settings.toml") << settings << settingsAppend;
    }
  }
  ~ScratchConfig() { std::filesystem::remove_all(directory); }
};

/// The robot binary with the stand-in body in real time, on a free debug port.
struct StandInRobot
{
  QProcess process;
  std::uint16_t port = 0;
  explicit StandInRobot(const std::filesystem::path& config, const QString& scenario = "standin")
  {
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(NAO_ROBOT_BINARY,
                  {"--body", "standin", "--realtime", "--frames", "100000", "--scenario", scenario,
                   "--debug-port", "0", "--config", QString::fromStdString(config.string())});
    QString output;
    waitFor(
        [&]
        {
          output += QString::fromLocal8Bit(process.readAll());
          const int at = output.indexOf("debug channel on port ");
          if (at < 0) return process.state() == QProcess::NotRunning;
          port = static_cast<std::uint16_t>(
              output.mid(at + 22).section(QRegularExpression("[^0-9]"), 0, 0).toUInt());
          return true;
        },
        60);
    EXPECT_NE(port, 0) << output.toStdString();
  }
  ~StandInRobot()
  {
    process.terminate();
    if (!process.waitForFinished(10000)) process.kill();
  }
};

GuiOptions options(const std::filesystem::path& config = NAO_CONFIG_DIR)
{
  GuiOptions result;
  result.config = config;
  result.robot = "Default";
  result.robotBinary = NAO_ROBOT_BINARY;
  result.simulatorBinary = NAO_SIMULATOR_BINARY;
  return result;
}

/// Pixels of the plot's axis rectangle within a small distance of a colour.
int pixelsOfColour(const QImage& image, const QRect& area, const QColor& colour)
{
  int count = 0;
  for (int y = area.top(); y <= area.bottom(); ++y)
    for (int x = area.left(); x <= area.right(); ++x)
    {
      const QColor pixel = image.pixelColor(x, y);
      if (std::abs(pixel.red() - colour.red()) + std::abs(pixel.green() - colour.green()) +
              std::abs(pixel.blue() - colour.blue()) <
          30)
        ++count;
    }
  return count;
}
} // namespace

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

TEST(DebugGui, SimulatedStandPlotsTheKneeCurrentsThroughTheUi)
{
  application();
  MainWindow window(options());
  window.show();
  window.startSimulation("stand");
  ASSERT_TRUE(waitFor([&] { return window.ready() || !window.lastError().empty(); }))
      << window.statusLine().toStdString();
  ASSERT_TRUE(window.healthy()) << window.statusLine().toStdString();

  // Left knee: a double-click in the representation tree; right knee: dropped onto the plot.
  const std::string left = "JointSensorData.currents.LKneePitch",
                    right = "JointSensorData.currents.RKneePitch";
  const auto items = window.tree().findItems("currents.LKneePitch", Qt::MatchRecursive | Qt::MatchExactly);
  QTreeWidgetItem* leftItem = nullptr;
  for (QTreeWidgetItem* item : items)
    if (item->data(0, Qt::UserRole).toString().toStdString() == left) leftItem = item;
  ASSERT_NE(leftItem, nullptr);
  emit window.tree().itemDoubleClicked(leftItem, 0);
  QMimeData mime;
  mime.setText(QString::fromStdString(right));
  QCustomPlot* plot = window.plot().plot();
  // As a drag does: enter (the application then knows the target), then drop.
  QDragEnterEvent enter(QPoint(plot->width() / 2, plot->height() / 2), Qt::CopyAction, &mime, Qt::LeftButton,
                        Qt::NoModifier);
  QCoreApplication::sendEvent(plot, &enter);
  ASSERT_TRUE(enter.isAccepted()) << "the plot takes a field from the tree";
  QDropEvent drop(QPointF(plot->width() / 2.0, plot->height() / 2.0), Qt::CopyAction, &mime, Qt::LeftButton,
                  Qt::NoModifier);
  QCoreApplication::sendEvent(plot, &drop);
  ASSERT_EQ(window.plot().seriesNames(), (std::vector<std::string>{left, right}));

  // 500 frames: 6 s of the robot standing up and holding the stand.
  ASSERT_TRUE(waitFor([&] { return window.store().series(right).time.size() >= 500; }))
      << window.statusLine().toStdString();
  window.pump();
  for (const std::string& name : {left, right})
  {
    const Series& series = window.store().series(name);
    EXPECT_EQ(window.plot().pointCount(name), series.time.size()) << name << ": the plot holds every sample";
    // Subscribed every frame: the robot sent every motion frame (none dropped for this connection), in order,
    // 12 ms apart. (Under load the real-time simulator may advance past a packet the robot binary did not read in
    // time; such frames are missing on the robot too, so a gap in frame numbers is allowed, not a lost sample.)
    EXPECT_EQ(window.link()->dropped(), 0u);
    for (std::size_t i = 1; i < series.frame.size(); ++i)
    {
      ASSERT_GT(series.frame[i], series.frame[i - 1]) << name << " at " << i;
      ASSERT_NEAR(series.time[i] - series.time[i - 1], 0.012 * (series.frame[i] - series.frame[i - 1]), 1e-6)
          << name << " at " << i;
    }
    // The knees carry the robot while it stands up: currents well above the sensor's noise.
    EXPECT_GT(*std::max_element(series.value.begin(), series.value.end()), 0.1) << name << " [A]";
  }
  // Both curves are drawn inside the axis rectangle.
  const QImage image = plot->toPixmap().toImage();
  const QRect area = plot->axisRect()->rect();
  EXPECT_GT(pixelsOfColour(image, area, plot->graph(0)->pen().color()), 300);
  EXPECT_GT(pixelsOfColour(image, area, plot->graph(1)->pen().color()), 300);
  // The joint table shows the measured knee angle near its request (48° in the stand).
  const double measured = window.joints().cell("LKneePitch", "measured [°]").toDouble();
  EXPECT_NEAR(measured, window.joints().cell("LKneePitch", "request [°]").toDouble(), 3.0);
  EXPECT_GT(measured, 20.0);
  // The module graph was laid out, and the exports write what the plot holds.
  EXPECT_GT(window.graph().nodeCount(), 10);
  const std::filesystem::path csv = std::filesystem::temp_directory_path() / "DebugGuiTests-plot.csv";
  ASSERT_TRUE(window.plot().exportCsv(QString::fromStdString(csv.string())));
  const auto csvLines = lines(readFile(csv));
  EXPECT_EQ(csvLines.front(), "time [s]," + left + " [A]," + right + " [A]") << "labels with units";
  EXPECT_GE(csvLines.size(), window.store().series(left).time.size());
  std::filesystem::remove(csv);
  // A screenshot to look at (the README's comes from DebugGui3DTests: this platform has no OpenGL for the 3D view).
  EXPECT_TRUE(window.grab().save(QString(NAO_BUILD_DIR) + "/DebugGui-stand.png"));
  window.close();
}

TEST(DebugGui, AParameterEditChangesTheRobotAndIsSavedAsThatKeyOnly)
{
  application();
  const ScratchConfig config("parameters");
  StandInRobot robot(config.directory);
  ASSERT_NE(robot.port, 0);
  MainWindow window(options(config.directory));
  window.connectTo({"127.0.0.1", robot.port, "", 5});
  ASSERT_TRUE(waitFor([&] { return window.ready() || !window.lastError().empty(); }));
  ASSERT_TRUE(window.healthy()) << window.statusLine().toStdString();
  const std::string field = "JointRequest.stiffnesses.LKneePitch";
  window.plotField(field);
  ASSERT_TRUE(waitFor([&] { return window.store().latest(field) == "0.75"; }))
      << window.store().latest(field);

  ParameterEditor& editor = window.parameters();
  editor.selectModule("StandPoseProvider");
  ASSERT_TRUE(waitFor([&] { return editor.value("stiffnesses.LKneePitch") == "0.75"; }));
  const std::filesystem::path file = config.directory / "Modules" / "StandPoseProvider.toml";
  const std::string before = readFile(file);

  ASSERT_TRUE(editor.editValue("stiffnesses.LKneePitch", "0.5"));
  ASSERT_TRUE(waitFor([&] { return editor.message().startsWith("applied"); }))
      << editor.message().toStdString();
  ASSERT_TRUE(waitFor([&] { return window.store().latest(field) == "0.5"; }))
      << "the robot sends the new stiffness";
  ASSERT_TRUE(editor.save("module")) << editor.message().toStdString();
  const auto beforeLines = lines(before), afterLines = lines(readFile(file));
  ASSERT_EQ(beforeLines.size(), afterLines.size());
  std::vector<std::size_t> changed;
  for (std::size_t i = 0; i < beforeLines.size(); ++i)
    if (beforeLines[i] != afterLines[i]) changed.push_back(i);
  ASSERT_EQ(changed.size(), 1u) << readFile(file);
  EXPECT_EQ(afterLines[changed[0]], "LKneePitch = 0.5");
  EXPECT_LT(before.find("[stiffnesses]"),
            before.find(beforeLines[changed[0]], before.find("[stiffnesses]")) + 1)
      << "the changed line is the stiffness, not the angle";

  // Out of range: the robot refuses with its own message, and nothing changes.
  const std::string saved = readFile(file);
  ASSERT_TRUE(editor.editValue("stiffnesses.LKneePitch", "1.5"));
  ASSERT_TRUE(waitFor([&] { return editor.message().startsWith("refused"); }))
      << editor.message().toStdString();
  EXPECT_TRUE(editor.messageIsError());
  EXPECT_NE(editor.message().indexOf("stiffnesses.LKneePitch"), -1) << editor.message().toStdString();
  EXPECT_NE(editor.message().indexOf("1.5"), -1) << editor.message().toStdString();
  ASSERT_TRUE(waitFor([&] { return editor.value("stiffnesses.LKneePitch") == "0.5"; }))
      << "the editor shows the robot's value again";
  const auto samples = window.store().series(field).time.size();
  ASSERT_TRUE(waitFor([&] { return window.store().series(field).time.size() >= samples + 20; }));
  EXPECT_EQ(window.store().latest(field), "0.5");
  EXPECT_EQ(window.store().series(field).value.back(), 0.5);
  ASSERT_TRUE(editor.save("module"));
  EXPECT_EQ(readFile(file), saved) << "a refused edit is not saved";

  // The robot overlay gets only that key, and the robot binary starts with it.
  ASSERT_TRUE(editor.save("robot")) << editor.message().toStdString();
  const std::filesystem::path overlay =
      config.directory / "Robots" / "Default" / "Modules" / "StandPoseProvider.toml";
  EXPECT_EQ(readFile(overlay), "stiffnesses.LKneePitch = 0.5\n");
  QProcess check;
  check.start(NAO_ROBOT_BINARY, {"--body", "standin", "--frames", "5", "--no-debug", "--config",
                                 QString::fromStdString(config.directory.string())});
  ASSERT_TRUE(check.waitForFinished(60000));
  EXPECT_EQ(check.exitCode(), 0) << check.readAll().toStdString();
}

TEST(DebugGui, ConnectsWithTheTokenAndIsRefusedWithoutIt)
{
  application();
  const ScratchConfig config("token", "debugBind = \"0.0.0.0\"\ndebugToken = \"team-secret\"\n");
  StandInRobot robot(config.directory);
  ASSERT_NE(robot.port, 0);
  // An address of this machine that is not loopback, when it has one.
  std::vector<std::string> hosts = {"127.0.0.1"};
  ifaddrs* addresses = nullptr;
  if (::getifaddrs(&addresses) == 0)
  {
    for (ifaddrs* a = addresses; a; a = a->ifa_next)
      if (a->ifa_addr && a->ifa_addr->sa_family == AF_INET)
      {
        char text[INET_ADDRSTRLEN] = {};
        ::inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(a->ifa_addr)->sin_addr, text, sizeof text);
        if (std::string(text) != "127.0.0.1" && hosts.size() == 1) hosts.push_back(text);
      }
    ::freeifaddrs(addresses);
  }
  std::cout << "hosts tried:";
  for (const std::string& host : hosts)
    std::cout << " " << host;
  std::cout << "\n";
  for (const std::string& host : hosts)
  {
    MainWindow with(options(config.directory));
    with.connectTo({host, robot.port, "team-secret", 5});
    ASSERT_TRUE(waitFor([&] { return with.ready() || !with.lastError().empty(); }));
    EXPECT_TRUE(with.healthy()) << host << ": " << with.statusLine().toStdString();
    with.plotField("FrameInfo.time");
    EXPECT_TRUE(waitFor([&] { return with.store().series("FrameInfo.time").time.size() >= 10; })) << host;

    MainWindow without(options(config.directory));
    without.connectTo({host, robot.port, "", 5});
    ASSERT_TRUE(waitFor([&] { return without.ready() || !without.lastError().empty(); }));
    EXPECT_FALSE(without.ready()) << host;
    EXPECT_NE(without.lastError().find("refused the connection: a token is required"), std::string::npos)
        << without.lastError();

    MainWindow wrong(options(config.directory));
    wrong.connectTo({host, robot.port, "guess", 5});
    ASSERT_TRUE(waitFor([&] { return wrong.ready() || !wrong.lastError().empty(); }));
    EXPECT_FALSE(wrong.ready()) << host;
    EXPECT_NE(wrong.lastError().find("refused the connection: wrong token"), std::string::npos)
        << wrong.lastError();
  }
}

TEST(DebugGui, LogReplayShowsWhatLogToolPrints)
{
  application();
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / ("DebugGuiTests-log-" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder);
  const std::filesystem::path log = folder / "stand.log";
  QProcess robot;
  robot.start(NAO_ROBOT_BINARY, {"--body", "standin", "--scenario", "stand", "--frames", "300", "--no-debug",
                                 "--log", QString::fromStdString(log.string())});
  ASSERT_TRUE(robot.waitForFinished(60000));
  ASSERT_EQ(robot.exitCode(), 0) << robot.readAll().toStdString();
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
  const std::string readme = readFile(std::filesystem::path(NAO_SOURCE_DIR) / "README.md");
  const std::size_t section = readme.find("\n## Debug GUI\n");
  ASSERT_NE(section, std::string::npos);
  const std::size_t begin = readme.find("```sh\n", section) + 6, end = readme.find("```", begin);
  const auto commands = lines(readme.substr(begin, end - begin));
  ASSERT_EQ(commands.size(), 3u);

  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / ("DebugGuiTests-readme-folder-" + std::to_string(::getpid()));
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder / "Build" / "Logs");
  QProcess logged; // the log of the README's "Logs" block
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

TEST(DebugGui, TheConsoleAndTheModuleGraphSendTheDebugChannelsCommands)
{
  application();
  const ScratchConfig config("console");
  StandInRobot robot(config.directory);
  ASSERT_NE(robot.port, 0);
  MainWindow window(options(config.directory));
  window.connectTo({"127.0.0.1", robot.port, "", 5});
  ASSERT_TRUE(waitFor([&] { return window.ready() || !window.lastError().empty(); }));
  ASSERT_TRUE(window.healthy()) << window.statusLine().toStdString();
  Console& console = window.console();

  console.execute("get StandPoseProvider");
  EXPECT_TRUE(waitFor([&] { return console.text().contains("transitionTime = 1000"); }))
      << console.text().toStdString();
  console.execute("get JointRequest");
  EXPECT_TRUE(waitFor([&] { return console.text().contains("stiffnesses.LKneePitch = 0.75"); }))
      << console.text().toStdString();
  console.execute("set StandPoseProvider transitionTime 500");
  EXPECT_TRUE(
      waitFor([&] { return console.text().contains("set: StandPoseProvider.transitionTime [ms] = 500"); }))
      << console.text().toStdString();

  // The graph's right-click menu: the self-collision stage off, then the motion source off (refused by the robot).
  EXPECT_NE(window.graph().dot().find("\"CollisionFreeJointRequest\" [shape=ellipse];"), std::string::npos);
  window.graph().onProvider("CollisionFreeJointRequest", "off");
  EXPECT_TRUE(waitFor(
      [&]
      {
        return window.graph().dot().find("\"CollisionFreeJointRequest\" [shape=ellipse,style=dashed];") !=
               std::string::npos;
      }))
      << window.graph().dot();
  EXPECT_TRUE(console.text().contains("CollisionFreeJointRequest = off")) << console.text().toStdString();
  window.graph().onProvider("MotionJointRequest", "off");
  EXPECT_TRUE(waitFor([&] { return console.text().contains("refused: "); })) << console.text().toStdString();
  // Module timings (ModuleTimes, subscribed at 2 Hz) in the module boxes.
  EXPECT_TRUE(waitFor([&] { return window.graph().timeText("StandPoseProvider").startsWith("median "); }))
      << window.graph().timeText("StandPoseProvider").toStdString();
  console.execute("frobnicate");
  EXPECT_TRUE(console.text().contains("unknown command 'frobnicate'"));
}

TEST(DebugGui, TheLayoutIsSavedPerUser)
{
  application();
  {
    MainWindow window(options());
    window.show();
    auto* console = window.findChild<QDockWidget*>("console");
    ASSERT_NE(console, nullptr);
    EXPECT_TRUE(console->isVisible());
    console->hide();
    window.close();
  }
  MainWindow window(options());
  window.show();
  EXPECT_FALSE(window.findChild<QDockWidget*>("console")->isVisible()) << "restored from QSettings";
  window.findChild<QDockWidget*>("console")->show();
  window.close(); // leave the default for the other tests
}
