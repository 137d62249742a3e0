// --sim --robots N: a small team in simulation. Two simulated robots in the team view, a push addressed to robot 1
// that fells robot 1 and not robot 0, "all robots" pause reaching both simulators, every child ended with the window;
// and the README's team command. ~20 s of the suite.
#include "Tools/Testing/Markdown.h"
#include "Tools/Testing/SourceTree.h"
#include "Util/DebugGui/SimulatedTeam.h"
#include "Util/DebugGui/TeamView.h"
#include "Util/DebugGui/Tests/DebugGuiTestSupport.h"
#include <QAction>
#include <QComboBox>
#include <QMenu>
#include <csignal>

using namespace nao::gui;
using namespace nao::gui::test;
using namespace nao::test;

TEST(DebugGuiTeam, EachRobotDrawsItsOwnSeedAndTheLastWornOnesThePresetWorn)
{
  GuiOptions team = options();
  EXPECT_TRUE(SimulatedTeam::simulatorArguments(team, 0).isEmpty()) << "one robot: the simulator's defaults";
  team.preset = "worn";
  EXPECT_EQ(SimulatedTeam::simulatorArguments(team, 0), QStringList({"--preset", "worn"}));
  team.preset.clear();
  team.robots = 4;
  team.worn = 1;
  team.seed = 5;
  EXPECT_EQ(SimulatedTeam::simulatorArguments(team, 0), QStringList({"--seed", "5"}));
  EXPECT_EQ(SimulatedTeam::simulatorArguments(team, 2), QStringList({"--seed", "7"}));
  EXPECT_EQ(SimulatedTeam::simulatorArguments(team, 3), QStringList({"--seed", "8", "--preset", "worn"}));
  EXPECT_TRUE(SimulatedTeam::forEveryRobot("step 10"));
  EXPECT_TRUE(SimulatedTeam::forEveryRobot("pause"));
  EXPECT_FALSE(SimulatedTeam::forEveryRobot("push 45 0 0 for 0.1"));
}

TEST(DebugGuiTeam, APushAtRobotOneFellsRobotOneNotRobotZeroAndPauseReachesEveryRobot)
{
  application();
  GuiOptions team = options();
  team.robots = 2;
  MainWindow window(team);
  window.show();
  SimulatedTeam* simulated = window.simulatedTeam();
  ASSERT_TRUE(simulated);
  auto* target = window.findChild<QComboBox*>("simulationTarget");
  auto* pushFront = window.findChild<QAction*>("pushFront");
  auto* pause = window.findChild<QAction*>("pauseSimulation");
  ASSERT_TRUE(target && pushFront && pause);
  ASSERT_EQ(target->count(), 3) << "robot 0, robot 1, all robots";
  window.startSimulation("stand");
  ASSERT_TRUE(waitFor([&] { return window.ready() || !window.lastError().empty(); }))
      << window.statusLine().toStdString();
  ASSERT_TRUE(window.healthy()) << window.statusLine().toStdString();

  // Both robots in the team view, robot 0 first, each on its own debug port, with values.
  TeamView& view = window.team();
  const auto filled = [&](int robot)
  {
    return view.cell(robot, "state").startsWith("connected, scenario stand") &&
           view.cell(robot, "hottest joint").contains("°C") &&
           view.cell(robot, "highest current").contains("mA");
  };
  ASSERT_TRUE(waitFor([&] { return view.robotCount() == 2 && filled(0) && filled(1); }, 60))
      << view.cell(0, "state").toStdString() << " | " << view.cell(1, "state").toStdString();
  const std::vector<std::uint16_t> ports = simulated->ports();
  ASSERT_EQ(ports.size(), 2u);
  EXPECT_NE(ports[0], ports[1]);
  EXPECT_EQ(view.cell(0, "robot").toStdString(), "127.0.0.1:" + std::to_string(ports[0]));
  EXPECT_EQ(view.cell(1, "robot").toStdString(), "127.0.0.1:" + std::to_string(ports[1]));

  // Standing (the stand's 1.5 s keyframe, then a second), then a push at robot 1 only.
  const std::string falls = "FallDownState.falls", frame = "FrameInfo.frameNumber";
  window.plotField(falls);
  window.plotField(frame);
  ASSERT_TRUE(waitFor([&] { return window.store().series(frame).value.size() >= 220; }, 30));
  EXPECT_EQ(view.store(1).latest(falls), "0") << "robot 1 stands before the push";
  emit target->activated(target->findData(1));
  EXPECT_EQ(simulated->target(), 1);
  pushFront->trigger();
  ASSERT_TRUE(
      waitFor([&] { return simulated->control(1).lastReply.starts_with("applied push 45 0 0 for 0.1"); }))
      << simulated->control(1).lastReply;
  ASSERT_TRUE(waitFor(
      [&] { return view.store(1).latest(falls) != "0" && view.cell(1, "state").contains("fallen"); }, 20))
      << view.store(1).latest(falls) << " | " << view.cell(1, "state").toStdString();
  EXPECT_EQ(window.simulation().lastReply.find("applied push"), std::string::npos) << "robot 0 got no push";
  EXPECT_EQ(window.store().series(falls).value.back(), 0.0) << "robot 0 still stands";
  EXPECT_EQ(view.store(0).latest(falls), "0");
  EXPECT_FALSE(view.cell(0, "state").contains("fall")) << view.cell(0, "state").toStdString();

  // "all robots" (the Simulation menu's Target): the pause reaches both simulators.
  QMenu* targets = nullptr;
  for (QMenu* menu : window.findChildren<QMenu*>())
    if (menu->title() == "&Target") targets = menu;
  ASSERT_TRUE(targets);
  ASSERT_EQ(targets->actions().size(), 3);
  targets->actions().back()->trigger();
  EXPECT_EQ(simulated->target(), SimulatedTeam::allRobots);
  EXPECT_EQ(target->currentText(), "all robots");
  pause->trigger();
  ASSERT_TRUE(waitFor([&] { return window.simulation().paused && simulated->control(1).paused; }))
      << window.simulation().lastReply << " | " << simulated->control(1).lastReply;

  // Closing the window ends every child: robot 1's simulator and robot binary too.
  const std::vector<qint64> children = simulated->processIds();
  EXPECT_EQ(children.size(), 2u);
  window.close();
  for (const qint64 child : children)
    EXPECT_NE(::kill(static_cast<pid_t>(child), 0), 0) << "process " << child << " still runs";
}

TEST(DebugGuiReadme, TheTeamBlockRuns)
{
  application();
  std::string command;
  for (const std::string& block : fencedBlocks(readFile(sourceDirectory() / "Util/DebugGui/README.md"), "sh"))
    if (block.find("--robots") != std::string::npos) command = lines(block).front();
  ASSERT_FALSE(command.empty()) << "the README shows --sim --robots";
  const std::string robotBinary = NAO_ROBOT_BINARY;
  const std::string buildRoot =
      robotBinary.substr(0, robotBinary.size() - std::string("Src/Apps/Nao/nao").size());
  const std::string original = command;
  command.replace(command.find("Build/Release/"), 14, buildRoot);
  command.insert(command.find("   #"), " --quit-after 5");
  QProcess gui;
  gui.setProcessChannelMode(QProcess::MergedChannels);
  gui.start("bash", {"-c", QString::fromStdString(command)});
  ASSERT_TRUE(gui.waitForFinished(120000)) << original;
  const std::string output = gui.readAll().toStdString();
  EXPECT_EQ(gui.exitCode(), 0) << original << "\n" << output;
  EXPECT_NE(output.find("DebugGui: ready: "), std::string::npos) << original << "\n" << output;
  EXPECT_NE(output.find(", team of 4 ("), std::string::npos) << original << "\n" << output;
}
