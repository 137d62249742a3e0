// Several sources side by side in one process: two stand-in robots that stand with different knee stiffnesses and
// a log, one window each (as File → New connection… opens them), each showing its own values; the Window menu
// lists and switches them. ~1 s of the suite (two robot binaries and a short log).
#include "Util/DebugGui/Tests/DebugGuiTestSupport.h"
#include "Util/DebugGui/TomlSplice.h"
#include <QDialog>
#include <QMenu>
#include <QTimer>

using namespace nao::gui;
using namespace nao::gui::test;

TEST(DebugGuiWindows, TwoRobotsAndALogSideBySideEachShowTheirOwnValues)
{
  application();
  const ScratchConfig firstConfig("windows-first"), secondConfig("windows-second");
  // The second robot stands with another knee stiffness: a window showing the other robot's values would fail.
  const std::filesystem::path file = secondConfig.directory / "Modules" / "StandPoseProvider.toml";
  const std::string edited = setTomlValue(readFile(file), "stiffnesses.LKneePitch", "0.6", file.string());
  std::ofstream(file, std::ios::binary) << edited;
  StandInRobot firstRobot(firstConfig.directory), secondRobot(secondConfig.directory);
  ASSERT_NE(firstRobot.port, 0);
  ASSERT_NE(secondRobot.port, 0);
  const std::filesystem::path log = firstConfig.directory / "short.log";
  QProcess logged;
  logged.start(NAO_ROBOT_BINARY, {"--body", "standin", "--scenario", "stand", "--frames", "100", "--no-debug",
                                  "--log", QString::fromStdString(log.string())});
  ASSERT_TRUE(logged.waitForFinished(60000));
  ASSERT_EQ(logged.exitCode(), 0) << logged.readAll().toStdString();

  const std::size_t before = MainWindow::windows().size();
  MainWindow first(options(firstConfig.directory));
  first.show();
  first.connectTo({"127.0.0.1", firstRobot.port, "", 5});
  // What File → New connection… does before its host dialog (which needs a person): a window of its own.
  MainWindow* second = first.newWindow();
  second->connectTo({"127.0.0.1", secondRobot.port, "", 5});
  MainWindow* replay = first.newWindow();
  ASSERT_TRUE(replay->openLog(log.string())) << replay->lastError();
  ASSERT_EQ(MainWindow::windows().size(), before + 3);
  ASSERT_TRUE(waitFor(
      [&]
      {
        return (first.ready() && second->ready()) || !first.lastError().empty() ||
               !second->lastError().empty();
      }));
  ASSERT_TRUE(first.healthy()) << first.statusLine().toStdString();
  ASSERT_TRUE(second->healthy()) << second->statusLine().toStdString();

  const std::string field = "JointRequest.stiffnesses.LKneePitch";
  for (MainWindow* window : {&first, second, replay})
    window->plotField(field);
  const std::size_t logSamples = replay->store().series(field).value.size();
  EXPECT_EQ(logSamples, 100u) << "one sample per logged frame";
  ASSERT_TRUE(waitFor(
      [&]
      {
        return first.store().series(field).value.size() >= 30 &&
               second->store().series(field).value.size() >= 30;
      }));
  // Every sample of each window is its own robot's (the stand pose's stiffness from the first frame on).
  for (const auto& [window, expected] : {std::pair{&first, 0.75}, std::pair{second, 0.6}})
    for (const double value : window->store().series(field).value)
      ASSERT_EQ(value, expected) << window->statusLine().toStdString();
  EXPECT_EQ(replay->store().series(field).value.size(), logSamples) << "the log window takes no live samples";
  EXPECT_EQ(replay->link(), nullptr);
  EXPECT_NE(first.link(), second->link());

  // The Window menu lists every window by its source; choosing one brings it to the front.
  auto* menu = first.findChild<QMenu*>("windowMenu");
  ASSERT_NE(menu, nullptr);
  emit menu->aboutToShow();
  const QList<QAction*> actions = menu->actions();
  ASSERT_EQ(static_cast<std::size_t>(actions.size()), before + 3);
  const auto listed = [&](const std::string& text)
  {
    for (QAction* action : actions)
      if (action->text().contains(QString::fromStdString(text))) return action;
    return static_cast<QAction*>(nullptr);
  };
  QAction* secondEntry = listed("127.0.0.1:" + std::to_string(secondRobot.port));
  ASSERT_NE(secondEntry, nullptr);
  ASSERT_NE(listed("127.0.0.1:" + std::to_string(firstRobot.port)), nullptr);
  ASSERT_NE(listed(log.string()), nullptr);
  EXPECT_TRUE(listed("127.0.0.1:" + std::to_string(firstRobot.port))->isChecked()) << "this window is marked";
  EXPECT_FALSE(secondEntry->isChecked());
  first.activateWindow();
  ASSERT_TRUE(waitFor([&] { return first.isActiveWindow(); }, 10));
  secondEntry->trigger();
  EXPECT_TRUE(waitFor([&] { return second->isActiveWindow(); }, 10));

  // File → New connection… itself: a new window asks for the host (the dialog is cancelled here, as a person
  // might), and stays open without a source.
  QAction* newConnection = nullptr;
  for (QAction* action : first.findChildren<QAction*>())
    if (action->text() == "&New connection…") newConnection = action;
  ASSERT_NE(newConnection, nullptr);
  QTimer cancel;
  QObject::connect(&cancel, &QTimer::timeout,
                   []
                   {
                     if (auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget()))
                       dialog->reject();
                   });
  cancel.start(20);
  newConnection->trigger(); // returns when the dialog is cancelled
  cancel.stop();
  ASSERT_EQ(MainWindow::windows().size(), before + 4);
  MainWindow* fresh = MainWindow::windows().back();
  EXPECT_FALSE(fresh->ready());
  EXPECT_EQ(fresh->link(), nullptr);

  // A window opened from the menu owns itself: closing it removes it from the list.
  for (MainWindow* window : {second, replay, fresh})
    window->close();
  QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
  EXPECT_EQ(MainWindow::windows().size(), before + 1);
  EXPECT_TRUE(first.healthy());
  first.close();
}
