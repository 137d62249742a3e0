// SensorHealth in the GUI (issue 43), headless: the joint table's "reading" column, the sensor strip above it and
// the 3D view's corner text (the distrusted sensors and the fall's witness) show what the robot sends. Fed once with
// a SensorHealth the robot's own serialisation wrote (a failed gyroscope, a failed and a suspect joint), and once
// live: the robot binary against the simulator whose LKneePitch current reads NaN. ~5 s of the suite.
#include "Framework/Representation.h"
#include "Representations/Modeling/FallDownState.h"
#include "Representations/Sensing/JointSensorData.h"
#include "Representations/Sensing/SensorHealth.h"
#include "Util/DebugGui/HealthDisplay.h"
#include "Util/DebugGui/RobotLink.h"
#include "Util/DebugGui/RobotView3D.h"
#include "Util/DebugGui/SensorStrip.h"
#include "Util/DebugGui/Tests/DebugGuiTestSupport.h"
#include "Util/DebugGui/Tests/ReceiveRepresentation.h"

using namespace nao;
using namespace nao::gui;
using namespace nao::gui::test;

namespace
{
const QColor failedRed(255, 120, 120), suspectYellow(255, 230, 110);

/// The robot binary against `Simulator serve stand` with a sensor fault from the first frame, in real time.
struct FaultyRobot
{
  QProcess simulator, robot;
  std::uint16_t port = 0;
  std::filesystem::path folder;
  explicit FaultyRobot(const QString& fault)
      : folder(std::filesystem::temp_directory_path() /
               ("DebugGuiTests-health-" + std::to_string(::getpid())))
  {
    std::filesystem::create_directories(folder);
    const QString socket = QString::fromStdString((folder / "lola.sock").string());
    simulator.setProcessChannelMode(QProcess::MergedChannels);
    simulator.start(NAO_SIMULATOR_BINARY,
                    {"serve", "stand", "--socket", socket, "--minutes", "1", "--fault", fault, "--fault-at",
                     "0", "--no-plots", "--output", QString::fromStdString((folder / "sim").string())});
    robot.setProcessChannelMode(QProcess::MergedChannels);
    robot.start(NAO_ROBOT_BINARY, {"--scenario", "stand", "--lola-socket", socket, "--debug-port", "0"});
    QString output;
    waitFor(
        [&]
        {
          output += QString::fromLocal8Bit(robot.readAll());
          const int at = output.indexOf("debug channel on port ");
          if (at < 0) return robot.state() == QProcess::NotRunning;
          port = static_cast<std::uint16_t>(
              output.mid(at + 22).section(QRegularExpression("[^0-9]"), 0, 0).toUInt());
          return true;
        },
        30);
    EXPECT_NE(port, 0) << output.toStdString() << simulator.readAll().toStdString();
  }
  ~FaultyRobot()
  {
    for (QProcess* process : {&robot, &simulator})
    {
      process->terminate();
      if (!process->waitForFinished(10000)) process->kill();
    }
    std::filesystem::remove_all(folder);
  }
};
} // namespace

TEST(DebugGuiHealth, TheTablesStripAndCornerTextNameEachDistrustedSensorAndItsFault)
{
  application();
  SeriesStore store;
  SensorStrip strip;
  EXPECT_EQ(strip.text("gyroscope").toStdString(), "gyroscope —") << "no SensorHealth yet";

  JointSensorData joints;
  SensorHealth health;
  health[Sensor::gyroscope] = {SensorState::failed, SensorFault::stuck, 1.25f, false};
  health.joints[Joint::LKneePitch] = {SensorState::failed, SensorFault::notFollowing, 2.5f, false};
  health.joints[Joint::RAnklePitch] = {SensorState::suspect, SensorFault::flapping, 3.f, true};
  health.batteryCharge = 0.87f;
  FallDownState fall;
  fall.state = FallState::fallen;
  fall.side = FallenSide::back;
  fall.witness = FallWitness::soleEdge;
  ASSERT_NO_FATAL_FAILURE(receive(store, "JointSensorData", joints));
  ASSERT_NO_FATAL_FAILURE(receive(store, "SensorHealth", health));
  ASSERT_NO_FATAL_FAILURE(receive(store, "FallDownState", fall));

  // The joint table: the "reading" column, subscribed at sensorHealthRateHz, red while failed, yellow while suspect.
  JointTable table;
  const std::map<std::string, float> subscriptions = table.configure(store, {});
  ASSERT_TRUE(subscriptions.contains("SensorHealth"));
  EXPECT_EQ(subscriptions.at("SensorHealth"), sensorHealthRateHz);
  table.refresh(store);
  const QTableWidgetItem* knee = table.cellItem("LKneePitch", "reading");
  ASSERT_NE(knee, nullptr);
  EXPECT_EQ(knee->text().toStdString(), "failed: notFollowing");
  EXPECT_EQ(knee->background().color(), failedRed);
  EXPECT_TRUE(knee->toolTip().contains("since 2.50 s") && knee->toolTip().contains("stuck encoder"))
      << knee->toolTip().toStdString();
  const QTableWidgetItem* ankle = table.cellItem("RAnklePitch", "reading");
  ASSERT_NE(ankle, nullptr);
  EXPECT_EQ(ankle->text().toStdString(), "suspect: flapping");
  EXPECT_EQ(ankle->background().color(), suspectYellow);
  EXPECT_EQ(table.cell("HeadYaw", "reading").toStdString(), "ok");
  EXPECT_EQ(table.cellItem("HeadYaw", "reading")->background().style(), Qt::NoBrush);

  // The sensor strip: the failed gyroscope in red with its fault, the others ok, the charge the robot believes.
  strip.refresh(store);
  EXPECT_EQ(strip.text("gyroscope").toStdString(), "gyroscope failed (stuck)");
  EXPECT_EQ(strip.colour("gyroscope"), failedRed);
  EXPECT_TRUE(strip.toolTip("gyroscope").contains("since 1.25 s"))
      << strip.toolTip("gyroscope").toStdString();
  EXPECT_EQ(strip.text("accelerometer").toStdString(), "accelerometer ok");
  EXPECT_FALSE(strip.colour("accelerometer").isValid());
  EXPECT_EQ(strip.text("battery").toStdString(), "battery 87 %");

  // The 3D view's corner (its text; the pixels need OpenGL: DebugGui3DTests): the fall with its witness, and the
  // distrusted sensor while the sensor health overlay is on (it is by default).
  RobotView3D view(store, NAO_CONFIG_DIR, "Default");
  ASSERT_TRUE(view.overlay(Overlay::sensorHealth));
  view.refresh();
  EXPECT_EQ(view.fallLabel().toStdString(), "fallen on back (soleEdge)");
  ASSERT_EQ(view.healthLines().size(), 1u);
  EXPECT_EQ(view.healthLines()[0].first.toStdString(), "gyroscope failed (stuck)");
  EXPECT_EQ(view.healthLines()[0].second, failedRed);
  view.setOverlay(Overlay::sensorHealth, false);
  view.refresh();
  EXPECT_TRUE(view.healthLines().empty());
  // The links: the failed knee red; a joint whose readings are valid keeps its colour.
  const auto colours = healthColours(store);
  ASSERT_TRUE(colours[Joint::LKneePitch]);
  EXPECT_FLOAT_EQ((*colours[Joint::LKneePitch])[0], static_cast<float>(failedRed.redF()));
  EXPECT_FALSE(colours[Joint::HeadYaw]);
}

TEST(DebugGuiHealth, ARobotWhoseKneeCurrentReadsNaNShowsItInTheReadingColumn)
{
  application();
  FaultyRobot robot("currentNaN");
  ASSERT_NE(robot.port, 0);
  MainWindow window(options());
  window.show();
  window.connectTo({"127.0.0.1", robot.port, "", 5});
  ASSERT_TRUE(waitFor([&] { return window.ready() || !window.lastError().empty(); }, 30));
  ASSERT_TRUE(window.healthy()) << window.statusLine().toStdString();
  const QRegularExpression notFinite("^(suspect|failed): notFinite$");
  EXPECT_TRUE(
      waitFor([&] { return notFinite.match(window.joints().cell("LKneePitch", "reading")).hasMatch(); }, 20))
      << window.joints().cell("LKneePitch", "reading").toStdString();
  EXPECT_TRUE(window.joints().cellItem("LKneePitch", "reading")->background().style() != Qt::NoBrush);
  // The other readings are trusted: the gyroscope in the strip, the right knee in the table.
  EXPECT_EQ(window.joints().cell("RKneePitch", "reading").toStdString(), "ok");
  EXPECT_EQ(window.sensors().text("gyroscope").toStdString(), "gyroscope ok");
  window.close();
}
