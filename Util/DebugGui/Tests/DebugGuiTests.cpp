// The debug GUI against live processes, headless (Qt's offscreen platform): a simulated NAO standing with the
// robot binary, a stand-in robot for parameter edits, the token, the console and the module graph. Every field is
// plotted and edited through the same window code a user's clicks run.
#include "Util/DebugGui/Tests/DebugGuiTestSupport.h"
#include <QDockWidget>
#include <QDropEvent>
#include <QMimeData>
#include <QTableWidget>
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <qcustomplot.h>

using namespace nao::gui;
using namespace nao::gui::test;

namespace
{
/// A window and the robot binary on the stand-in body, with a scratch copy of Config/ named `name`.
struct StandInSession
{
  explicit StandInSession(const std::string& name)
      : config((application(), name)), robot(config.directory), window(options(config.directory))
  {
  }
  /// Connects the window to the robot and waits until it is ready (fails the test if it is not healthy).
  void connect()
  {
    ASSERT_NE(robot.port, 0);
    window.connectTo({"127.0.0.1", robot.port, "", 5});
    ASSERT_TRUE(waitFor([&] { return window.ready() || !window.lastError().empty(); }));
    ASSERT_TRUE(window.healthy()) << window.statusLine().toStdString();
  }

  const ScratchConfig config;
  StandInRobot robot;
  MainWindow window;
};
} // namespace

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
  // The heat adjustment's guard has taken the knee's reference (a round after it began, 4.5 s ago) and watches
  // it or holds it; the smart stiffness guard's column says whether it lifted the knee's limit.
  const QString heatGuard = window.joints().cell("LKneePitch", "heat guard");
  EXPECT_TRUE(heatGuard == "watching" || heatGuard == "heldAtBest" || heatGuard == "heldAtZero")
      << heatGuard.toStdString();
  const QString stiffnessGuard = window.joints().cell("LKneePitch", "stiffness guard");
  EXPECT_TRUE(stiffnessGuard == "false" || stiffnessGuard == "true") << stiffnessGuard.toStdString();
  // The module graph was laid out, and the exports write what the plot holds.
  EXPECT_GT(window.graph().nodeCount(), 10);
  const std::filesystem::path csv = std::filesystem::temp_directory_path() / "DebugGuiTests-plot.csv";
  ASSERT_TRUE(window.plot().exportCsv(QString::fromStdString(csv.string())));
  const auto csvLines = lines(readFile(csv));
  EXPECT_EQ(csvLines.front(), "time [s]," + left + " [mA]," + right + " [mA]")
      << "labels with the shown units";
  EXPECT_GE(csvLines.size(), window.store().series(left).time.size());
  std::filesystem::remove(csv);
  // A screenshot to look at (the README's comes from DebugGui3DTests: this platform has no OpenGL for the 3D view).
  EXPECT_TRUE(window.grab().save(QString(NAO_BUILD_DIR) + "/DebugGui-stand.png"));
  window.close();
}

TEST(DebugGui, AParameterEditChangesTheRobotAndIsSavedAsThatKeyOnly)
{
  StandInSession session("parameters");
  ASSERT_NO_FATAL_FAILURE(session.connect());
  const ScratchConfig& config = session.config;
  MainWindow& window = session.window;
  const std::string field = "JointRequest.stiffnesses.LKneePitch";
  window.plotField(field);
  ASSERT_TRUE(waitFor([&] { return window.store().latest(field) == "0.75"; }))
      << window.store().latest(field);

  ParameterEditor& editor = window.parameters();
  editor.selectModule("StandPoseProvider");
  ASSERT_TRUE(waitFor([&] { return editor.value("stiffnesses.LKneePitch") == "0.75"; }));
  // Each row says what the parameter does (its serialize() doc), in a column and as the key's tooltip.
  const auto* table = editor.findChild<QTableWidget*>();
  ASSERT_NE(table, nullptr);
  ASSERT_EQ(table->horizontalHeaderItem(4)->text(), "what it does");
  bool documented = false;
  for (int row = 0; row < table->rowCount(); ++row)
    if (table->item(row, 0)->text() == "transitionTime")
    {
      EXPECT_EQ(table->item(row, 4)->text(), "time from the measured posture to `angles`");
      EXPECT_EQ(table->item(row, 0)->toolTip(), table->item(row, 4)->text());
      documented = true;
    }
  EXPECT_TRUE(documented) << "no row transitionTime";
  const std::filesystem::path file = config.directory / "Modules" / "StandPoseProvider.toml";
  const std::string before = readFile(file);

  ASSERT_TRUE(editor.editValue("stiffnesses.LKneePitch", "0.5"));
  ASSERT_TRUE(waitFor([&] { return editor.message().startsWith("applied"); }))
      << editor.message().toStdString();
  ASSERT_TRUE(waitFor([&] { return window.store().latest(field) == "0.5"; }))
      << "the robot sends the new stiffness";
  ASSERT_TRUE(editor.save("module")) << editor.message().toStdString();
  // The file states only what differs from the defaults: the key is added, every line it had stays.
  const auto beforeLines = lines(before), afterLines = lines(readFile(file));
  ASSERT_EQ(afterLines.size(), beforeLines.size() + 1) << readFile(file);
  std::vector<std::string> added;
  std::size_t kept = 0;
  for (const std::string& line : afterLines)
    if (kept < beforeLines.size() && line == beforeLines[kept])
      ++kept;
    else
      added.push_back(line);
  EXPECT_EQ(kept, beforeLines.size()) << readFile(file);
  EXPECT_THAT(added, testing::ElementsAre("stiffnesses.LKneePitch = 0.5")) << readFile(file);

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

TEST(DebugGui, TheConsoleAndTheModuleGraphSendTheDebugChannelsCommands)
{
  StandInSession session("console");
  ASSERT_NO_FATAL_FAILURE(session.connect());
  MainWindow& window = session.window;
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
    console->raise(); // a tab beside the joints
    QApplication::processEvents();
    EXPECT_TRUE(console->isVisible());
    console->hide();
    window.close();
  }
  MainWindow window(options());
  window.show();
  EXPECT_FALSE(window.findChild<QDockWidget*>("console")->isVisible()) << "restored from QSettings";
  EXPECT_TRUE(window.findChild<QDockWidget*>("console")->isHidden()) << "closed, not only behind another tab";
  window.findChild<QDockWidget*>("console")->show();
  window.close(); // leave the default for the other tests
}
