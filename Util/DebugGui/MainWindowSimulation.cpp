// --sim's controls: pause, single step and speed of the simulator running inside the GUI, sent to its control
// channel (`Simulator serve --control` reads them from stdin, Util/Simulator/README.md) and shown as the simulator
// confirms them. A paused simulator sends no LoLA packet, so the robot binary's motion thread waits with it; its
// debug channel stays up.
#include "Util/DebugGui/MainWindow.h"
#include "Util/DebugGui/RobotView3D.h"
#include "Util/DebugGui/SimulatedTeam.h"
#include "Util/DebugGui/SimulationTruth.h"
#include <QComboBox>
#include <QLabel>
#include <QMenuBar>
#include <QRegularExpression>
#include <QStatusBar>
#include <QToolBar>

namespace nao::gui
{
namespace
{
constexpr double speeds[] = {0.1, 0.25, 0.5, 1, 2, 4}; ///< times real time: the choices of the speed box
} // namespace

void MainWindow::buildSimulationMenu()
{
  simulationMenu_ = menuBar()->addMenu("&Simulation");
  simulationBar_ = addToolBar("Simulation");
  simulationBar_->setObjectName("simulationBar"); // restoreState() finds tool bars by name
  QAction* pause = simulationMenu_->addAction("&Pause");
  pause->setObjectName("pauseSimulation");
  pause->setCheckable(true);
  pause->setShortcut(QKeySequence("Ctrl+P"));
  connect(pause, &QAction::triggered, [this](bool checked) { pauseSimulation(checked); });
  QAction* step = simulationMenu_->addAction("&Step one frame (12 ms)");
  step->setObjectName("stepSimulation");
  step->setShortcut(QKeySequence("Ctrl+."));
  connect(step, &QAction::triggered, [this] { stepSimulation(1); });
  QAction* step10 = simulationMenu_->addAction("Step &10 frames");
  step10->setObjectName("step10Simulation");
  connect(step10, &QAction::triggered, [this] { stepSimulation(10); });
  auto* speed = new QComboBox;
  speed->setObjectName("simulationSpeed");
  for (const double factor : speeds)
    speed->addItem(QString("%1x").arg(factor), factor);
  speed->setCurrentIndex(3); // 1x
  connect(speed, &QComboBox::activated,
          [this, speed](int index) { setSimulationSpeed(speed->itemData(index).toDouble()); });
  QMenu* speedMenu = simulationMenu_->addMenu("Sp&eed");
  for (const double factor : speeds)
    speedMenu->addAction(QString("%1x").arg(factor), [this, factor] { setSimulationSpeed(factor); });
  simulationBar_->addAction(pause);
  simulationBar_->addAction(step);
  simulationBar_->addAction(step10);
  simulationBar_->addWidget(new QLabel(" speed "));
  simulationBar_->addWidget(speed);
  buildEventsMenu();
  enableSimulationControls(false);
}

void MainWindow::enableSimulationControls(bool enable)
{
  if (simulationMenu_) simulationMenu_->setEnabled(enable);
  if (simulationBar_) simulationBar_->setEnabled(enable);
  if (eventsBar_) eventsBar_->setEnabled(enable);
  // Ctrl-drag in the 3D view pushes the simulated robot that way, with the events bar's impulse.
  if (robotView_)
    robotView_->setDragPush(
        enable ? std::function<void(double, double)>([this](double x, double y)
                                                     { simulatorCommand(pushLine(x, y, pushImpulse_)); })
               : nullptr);
  for (const char* name : {"pauseSimulation", "stepSimulation", "step10Simulation"})
    if (auto* action = findChild<QAction*>(name)) action->setEnabled(enable);
}

void MainWindow::simulatorCommand(const std::string& line)
{
  // --robots N: pause, step and speed go to every robot, events to the target (SimulatedTeam.h).
  if (simTeam_ && !simTeam_->send(line)) return;
  if (!simulator_ || simulator_->state() != QProcess::Running)
  {
    console_->print("simulation: no simulator runs (File → Simulate…)");
    return;
  }
  console_->print(QString::fromStdString("simulation: " + line));
  simulator_->write(QByteArray::fromStdString(line + "\n"));
}

void MainWindow::pauseSimulation(bool pause)
{
  simulatorCommand(pause ? "pause" : "resume");
}

void MainWindow::stepSimulation(int frames)
{
  simulatorCommand("step " + std::to_string(frames));
}

void MainWindow::setSimulationSpeed(double factor)
{
  simulatorCommand("speed " + QString::number(factor).toStdString());
}

void MainWindow::simulatorTruth(const std::string& line)
{
  const std::optional<Sample> truth = truthSample(line);
  if (!truth) return; // a simulator of another version: no truth, nothing else changes
  if (!store_.fields().contains(truthRepresentation))
  {
    store_.setFields(truthRepresentation, truthFields());
    store_.setFields(errorRepresentation, errorFields());
    showFields();
  }
  store_.add(*truth);
  ++simulation_.truths;
  if (const std::optional<Sample> errors = estimateErrors(store_, *truth)) store_.add(*errors);
}

void MainWindow::simulatorOutput(const QString& text)
{
  // Whole lines only: "control: ..." lines are the control channel's replies, the rest goes to the console.
  simulatorLine_ += text;
  for (int end; (end = simulatorLine_.indexOf('\n')) >= 0; simulatorLine_.remove(0, end + 1))
  {
    const QString line = simulatorLine_.left(end).trimmed();
    if (line.isEmpty()) continue;
    if (line.startsWith("truth: "))
    {
      simulatorTruth(line.mid(7).toStdString());
      continue; // 25 a second: not for the console
    }
    console_->print("simulator: " + line);
    if (!line.startsWith("control: ")) continue;
    const QString reply = line.mid(9);
    ++simulation_.replies;
    simulation_.lastReply = reply.toStdString();
    if (reply.startsWith("error: "))
    {
      // A refused command changes nothing: the source is still healthy, the user reads why.
      simulation_.lastError = reply.mid(7).toStdString();
      statusBar()->showMessage("simulation: " + reply);
      continue;
    }
    if (reply.startsWith("applied ")) logAppliedEvent(reply.toStdString());
    const QRegularExpressionMatch paused = QRegularExpression("^paused at frame (\\d+)").match(reply);
    if (paused.hasMatch())
    {
      simulation_.paused = true;
      simulation_.frame = paused.captured(1).toULongLong();
    }
    else if (reply.startsWith("running at "))
      simulation_.paused = false;
    const QRegularExpressionMatch speed = QRegularExpression("(?:^speed|running at) ([0-9.]+)x").match(reply);
    if (speed.hasMatch()) simulation_.speed = speed.captured(1).toDouble();
    if (QAction* pause = findChild<QAction*>("pauseSimulation")) pause->setChecked(simulation_.paused);
    if (auto* box = findChild<QComboBox*>("simulationSpeed"))
      box->setCurrentIndex(box->findData(simulation_.speed));
    statusBar()->showMessage("simulation: " + reply);
  }
}
} // namespace nao::gui
