// --sim's pause, single step and speed through the window's own actions, against the simulator (serve --control)
// and the robot binary: what the robot reports over its debug channel must follow what the simulator says it did.
// ~2 s of the suite (the simulator's start, a second of standing, half a second paused).
#include "Util/DebugGui/RobotView3D.h"
#include "Util/DebugGui/Tests/DebugGuiTestSupport.h"
#include <QAction>
#include <QComboBox>
#include <QMenu>

using namespace nao::gui;
using namespace nao::gui::test;

namespace
{
/// Processes events for a while (the robot would have sent ~40 frames in it if it ran); nothing is asserted on
/// the time itself.
void processEventsFor(double seconds)
{
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end)
  {
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}
} // namespace

TEST(DebugGuiSimulation, PauseStopsTheRobotAStepIsOneLolaFrameAndTheSpeedIsWhatTheSimulatorSets)
{
  application();
  MainWindow window(options());
  window.show();
  auto* pause = window.findChild<QAction*>("pauseSimulation");
  auto* step = window.findChild<QAction*>("stepSimulation");
  auto* step10 = window.findChild<QAction*>("step10Simulation");
  auto* speed = window.findChild<QComboBox*>("simulationSpeed");
  ASSERT_TRUE(pause && step && step10 && speed);
  EXPECT_FALSE(pause->isEnabled()) << "no simulator yet";
  window.startSimulation("stand");
  ASSERT_TRUE(waitFor([&] { return window.ready() || !window.lastError().empty(); }))
      << window.statusLine().toStdString();
  ASSERT_TRUE(window.healthy()) << window.statusLine().toStdString();
  EXPECT_TRUE(pause->isEnabled());
  // The robot's own frame counter, every frame.
  const std::string field = "FrameInfo.frameNumber";
  window.plotField(field);
  // (Looked up each time: the store creates the series with its first sample.)
  const auto frames = [&]() -> const Series& { return window.store().series(field); };
  ASSERT_TRUE(waitFor([&] { return frames().value.size() >= 50; })) << window.statusLine().toStdString();

  // Paused: the simulator says how many packets it sent, and the robot's last frame is the last of them.
  pause->trigger();
  ASSERT_TRUE(waitFor([&] { return window.simulation().paused; })) << window.simulation().lastReply;
  const std::uint64_t sent = window.simulation().frame;
  ASSERT_TRUE(waitFor([&] { return frames().value.back() == static_cast<double>(sent - 1); }))
      << "robot at " << frames().value.back() << ", simulator sent " << sent;
  const std::size_t samples = frames().value.size();
  processEventsFor(0.5);
  EXPECT_EQ(frames().value.size(), samples) << "no robot frame while paused";
  EXPECT_EQ(frames().value.back(), static_cast<double>(sent - 1));
  EXPECT_TRUE(window.link()->connected()) << "the debug channel stays up while the motion thread waits";
  EXPECT_TRUE(pause->isChecked());

  // One step: exactly one more LoLA frame, on the robot too.
  step->trigger();
  ASSERT_TRUE(waitFor([&] { return window.simulation().frame == sent + 1; }))
      << window.simulation().lastReply;
  ASSERT_TRUE(waitFor([&] { return frames().value.back() == static_cast<double>(sent); }));
  step10->trigger();
  ASSERT_TRUE(waitFor([&] { return window.simulation().frame == sent + 11; }))
      << window.simulation().lastReply;
  ASSERT_TRUE(waitFor([&] { return frames().value.back() == static_cast<double>(sent + 10); }));
  processEventsFor(0.3);
  EXPECT_EQ(frames().value.size(), samples + 11) << "one sample per stepped frame, none more";
  EXPECT_EQ(frames().value.back(), static_cast<double>(sent + 10));
  EXPECT_TRUE(window.simulation().paused);

  // Speed: what the simulator confirms (its pacing is wall-clock, which no test judges).
  emit speed->activated(speed->findData(2.0));
  ASSERT_TRUE(waitFor([&] { return window.simulation().lastReply == "speed 2x"; }))
      << window.simulation().lastReply;
  EXPECT_EQ(window.simulation().speed, 2.0);
  window.setSimulationSpeed(9);
  ASSERT_TRUE(waitFor([&] { return !window.simulation().lastError.empty(); }));
  EXPECT_NE(
      window.simulation().lastError.find("'speed 9': speed takes a factor of real time from 0.1 to 4.0"),
      std::string::npos)
      << window.simulation().lastError;
  EXPECT_EQ(window.simulation().speed, 2.0) << "a refused speed changes nothing";
  EXPECT_TRUE(window.healthy()) << "a refused command is no failure of the source";
  EXPECT_EQ(speed->currentData().toDouble(), 2.0);

  // Resumed: the robot runs on from where it stood.
  pause->trigger();
  ASSERT_TRUE(waitFor([&] { return !window.simulation().paused; })) << window.simulation().lastReply;
  EXPECT_EQ(window.simulation().lastReply, "running at 2x from frame " + std::to_string(sent + 11) + " (" +
                                               QString::number((sent + 11) * 0.012, 'f', 3).toStdString() +
                                               " s)");
  ASSERT_TRUE(waitFor([&] { return frames().value.back() >= static_cast<double>(sent + 40); }));
  for (std::size_t i = samples - 1; i < samples + 10; ++i)
    EXPECT_EQ(frames().value[i + 1] - frames().value[i], 1.0) << "stepped frames are consecutive, at " << i;
  window.close();
}

// Simulation → Events: the tool bar's push fells the standing robot and the robot's own FallDownState counts the
// fall; the fault menu lists Config/Sim/faults.toml and the simulator applies what it sends. ~6 s of the suite.
TEST(DebugGuiSimulation, ThePushOfTheEventsBarFellsTheRobotAndTheFaultMenuSendsFaults)
{
  application();
  MainWindow window(options());
  window.show();
  auto* pushFront = window.findChild<QAction*>("pushFront");
  ASSERT_TRUE(pushFront);
  EXPECT_EQ(MainWindow::pushLine(1, 0, 4.5), "push 45 0 0 for 0.1") << "4.5 N·s: the fall scenarios' push";
  window.startSimulation("stand");
  ASSERT_TRUE(waitFor([&] { return window.ready() || !window.lastError().empty(); }))
      << window.statusLine().toStdString();
  ASSERT_TRUE(window.healthy()) << window.statusLine().toStdString();
  const std::string falls = "FallDownState.falls", frame = "FrameInfo.frameNumber";
  window.plotField(falls);
  window.plotField(frame);
  // Risen from the crouch and standing (the stand scenario's 1.5 s keyframe, then a second).
  ASSERT_TRUE(waitFor([&] { return window.store().series(frame).value.size() >= 220; }, 30))
      << window.statusLine().toStdString();
  ASSERT_FALSE(window.store().series(falls).value.empty());
  EXPECT_EQ(window.store().series(falls).value.back(), 0.0) << "standing before the push";

  pushFront->trigger();
  ASSERT_TRUE(
      waitFor([&] { return window.simulation().lastReply.starts_with("applied push 45 0 0 for 0.1"); }))
      << window.simulation().lastReply;
  ASSERT_TRUE(waitFor([&] { return window.store().series(falls).value.back() >= 1.0; }, 20))
      << "the robot did not count a fall after a 4.5 N·s push";

  QMenu* faults = nullptr;
  for (QMenu* menu : window.findChildren<QMenu*>())
    if (menu->title() == "Sensor &fault") faults = menu;
  ASSERT_TRUE(faults);
  QAction* stuck = nullptr;
  for (QAction* action : faults->actions())
    if (action->text() == "gyroStuck5") stuck = action;
  ASSERT_TRUE(stuck) << "faults.toml's gyroStuck5 in the menu";
  stuck->trigger();
  ASSERT_TRUE(waitFor([&] { return window.simulation().lastReply.starts_with("applied fault gyroStuck5"); }))
      << window.simulation().lastReply;

  // Ctrl-drag in the 3D view: from the default camera (azimuth 210°, at the robot's front left), a drag straight up
  // the screen pushes away from the camera, along (cos 210°, sin 210°).
  window.robotView().dragPush(0, -120);
  ASSERT_TRUE(waitFor(
      [&] { return window.simulation().lastReply.starts_with("applied push -38.9711 -22.5 0 for 0.1"); }))
      << window.simulation().lastReply;
  window.close();
}

TEST(DebugGuiSimulation, ADragPushesTheWayItGoesOnTheScreen)
{
  // The camera in front of the robot (azimuth 180°: it looks along −x): up the screen is the robot's back, right on
  // the screen the robot's left.
  const auto up = dragDirection(180, 0, -50), right = dragDirection(180, 50, 0);
  EXPECT_NEAR(up[0], -1, 1e-12);
  EXPECT_NEAR(up[1], 0, 1e-12);
  EXPECT_NEAR(right[0], 0, 1e-12);
  EXPECT_NEAR(right[1], 1, 1e-12);
  const auto diagonal = dragDirection(90, 30, 30); // camera looks along +y; down-right: +x and −y
  EXPECT_NEAR(diagonal[0], std::sqrt(0.5), 1e-12);
  EXPECT_NEAR(diagonal[1], -std::sqrt(0.5), 1e-12);
  EXPECT_EQ(dragDirection(0, 0, 0)[0], 0.0);
}
