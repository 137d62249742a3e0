#include "Util/DebugGui/SimulatedTeam.h"
#include "Util/DebugGui/MainWindow.h"
#include <QActionGroup>
#include <QComboBox>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QRegularExpression>
#include <QTimer>
#include <QToolBar>
#include <csignal>
#include <sys/prctl.h>
#include <unistd.h>

namespace nao::gui
{
namespace
{
QString q(const std::string& text)
{
  return QString::fromStdString(text);
}

/// Terminates the processes together, then waits for each (kill after 5 s).
void terminateAll(const std::vector<QProcess*>& processes)
{
  for (QProcess* process : processes)
    if (process && process->state() != QProcess::NotRunning) process->terminate();
  for (QProcess* process : processes)
    if (process && process->state() != QProcess::NotRunning)
    {
      if (!process->waitForFinished(5000)) process->kill();
      process->waitForFinished(1000);
    }
}
} // namespace

void endWithTheGui(QProcess& process)
{
  const pid_t gui = ::getpid();
  process.setChildProcessModifier(
      [gui]
      {
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (::getppid() != gui) ::raise(SIGTERM); // the GUI ended before the line above
      });
}

SimulatedTeam::SimulatedTeam(const GuiOptions& options, Callbacks callbacks)
    : options_(options), callbacks_(std::move(callbacks)), robots_(std::max(1, options.robots)),
      members_(static_cast<std::size_t>(robots_)), ports_(static_cast<std::size_t>(robots_), 0)
{
}

SimulatedTeam::~SimulatedTeam()
{
  stop();
}

QStringList SimulatedTeam::simulatorArguments(const GuiOptions& options, int robot)
{
  QStringList arguments;
  const unsigned seed = options.seed + static_cast<unsigned>(robot);
  if (seed != 1) arguments << "--seed" << QString::number(seed); // 1: the simulator's default
  const bool worn = robot >= std::max(1, options.robots) - options.worn;
  if (worn)
    arguments << "--preset"
              << "worn";
  else if (!options.preset.empty())
    arguments << "--preset" << q(options.preset);
  return arguments;
}

bool SimulatedTeam::forEveryRobot(const std::string& line)
{
  const std::string command = line.substr(0, line.find(' '));
  return command == "pause" || command == "resume" || command == "step" || command == "speed";
}

void SimulatedTeam::start(const std::string& scenario)
{
  stop();
  for (int robot = 1; robot < robots_; ++robot)
  {
    Member& member = members_[static_cast<std::size_t>(robot)];
    member.folder = std::make_unique<QTemporaryDir>();
    member.simulator = std::make_unique<QProcess>();
    QProcess& simulator = *member.simulator;
    simulator.setProcessChannelMode(QProcess::MergedChannels);
    endWithTheGui(simulator);
    QStringList arguments{"serve",
                          q(scenario),
                          "--socket",
                          member.folder->filePath("lola.sock"),
                          "--output",
                          member.folder->filePath("simulation"),
                          "--no-plots",
                          "--config",
                          q(options_.config.string()),
                          "--control"};
    arguments << simulatorArguments(options_, robot);
    QObject::connect(&simulator, &QProcess::readyRead,
                     [this, robot, &simulator]
                     { simulatorOutput(robot, QString::fromLocal8Bit(simulator.readAll())); });
    simulator.start(q(options_.simulatorBinary), arguments);
    callbacks_.print(
        QString("robot %1: started %2 %3").arg(robot).arg(q(options_.simulatorBinary), arguments.join(' ')));
  }
  // Each robot binary needs its socket; a simulator creates it once MuJoCo is ready.
  poll_ = std::make_unique<QTimer>();
  polls_ = 0;
  QObject::connect(poll_.get(), &QTimer::timeout,
                   [this, scenario]
                   {
                     bool waiting = false;
                     for (int robot = 1; robot < robots_; ++robot)
                     {
                       Member& member = members_[static_cast<std::size_t>(robot)];
                       if (member.robot) continue;
                       const QString socket = member.folder->filePath("lola.sock");
                       if (QFileInfo::exists(socket))
                         startRobotBinary(robot, scenario);
                       else if (++polls_ > 1200 * robots_ ||
                                member.simulator->state() == QProcess::NotRunning)
                       {
                         poll_->stop();
                         callbacks_.error("robot " + std::to_string(robot) + ": the simulator did not open " +
                                          socket.toStdString());
                         return;
                       }
                       else
                         waiting = true;
                     }
                     if (!waiting) poll_->stop();
                   });
  poll_->start(50);
}

void SimulatedTeam::startRobotBinary(int robot, const std::string& scenario)
{
  Member& member = members_[static_cast<std::size_t>(robot)];
  member.robot = std::make_unique<QProcess>();
  QProcess& process = *member.robot;
  process.setProcessChannelMode(QProcess::MergedChannels);
  endWithTheGui(process);
  const QStringList arguments{
      "--scenario",   q(scenario), "--lola-socket", member.folder->filePath("lola.sock"),
      "--debug-port", "0",         "--config",      q(options_.config.string())};
  QObject::connect(&process, &QProcess::readyRead,
                   [this, robot, &process]
                   { robotOutput(robot, QString::fromLocal8Bit(process.readAll())); });
  process.start(q(options_.robotBinary), arguments);
  callbacks_.print(
      QString("robot %1: started %2 %3").arg(robot).arg(q(options_.robotBinary), arguments.join(' ')));
}

void SimulatedTeam::robotOutput(int robot, const QString& text)
{
  Member& member = members_[static_cast<std::size_t>(robot)];
  member.robotOutput += text;
  callbacks_.print(QString("robot %1: %2").arg(robot).arg(text.trimmed()));
  // "... debug channel on port N": the free port the robot binary picked.
  const int at = member.robotOutput.indexOf("debug channel on port ");
  if (at < 0 || ports_[static_cast<std::size_t>(robot)] != 0) return;
  const QString rest = member.robotOutput.mid(at + 22);
  const int end = rest.indexOf(QRegularExpression("[^0-9]"));
  if (end > 0) setPort(robot, static_cast<std::uint16_t>(rest.left(end).toUInt()));
}

void SimulatedTeam::simulatorOutput(int robot, const QString& text)
{
  Member& member = members_[static_cast<std::size_t>(robot)];
  member.simulatorLine += text;
  for (int end; (end = member.simulatorLine.indexOf('\n')) >= 0; member.simulatorLine.remove(0, end + 1))
  {
    const QString line = member.simulatorLine.left(end).trimmed();
    if (line.isEmpty() || line.startsWith("truth: ")) continue;
    callbacks_.print(QString("simulator %1: %2").arg(robot).arg(line));
    if (!line.startsWith("control: ")) continue;
    const QString reply = line.mid(9);
    Control& control = member.control;
    ++control.replies;
    control.lastReply = reply.toStdString();
    if (reply.startsWith("paused at frame "))
      control.paused = true;
    else if (reply.startsWith("running at "))
      control.paused = false;
  }
}

void SimulatedTeam::setPort(int robot, std::uint16_t port)
{
  if (robot < 0 || robot >= robots_) return;
  ports_[static_cast<std::size_t>(robot)] = port;
  if (portsAnnounced_ || std::ranges::count(ports_, std::uint16_t{0}) > 0) return;
  portsAnnounced_ = true;
  callbacks_.allPorts(ports_);
}

void SimulatedTeam::stop()
{
  if (poll_) poll_->stop();
  // A paused simulator would keep its robot's motion thread waiting for a packet: let it run to its end.
  for (Member& member : members_)
    if (member.simulator && member.control.paused && member.simulator->state() == QProcess::Running)
    {
      member.simulator->write("resume\n");
      member.simulator->waitForBytesWritten(1000);
    }
  // The robot binaries first (SIGTERM: each closes its log), then the simulators.
  std::vector<QProcess*> robots, simulators;
  for (Member& member : members_)
  {
    robots.push_back(member.robot.get());
    simulators.push_back(member.simulator.get());
  }
  terminateAll(robots);
  terminateAll(simulators);
  for (Member& member : members_)
    member = Member{};
  std::ranges::fill(ports_, std::uint16_t{0});
  portsAnnounced_ = false;
}

const SimulatedTeam::Control& SimulatedTeam::control(int robot) const
{
  static const Control none;
  if (robot < 1 || robot >= robots_) return none;
  return members_[static_cast<std::size_t>(robot)].control;
}

std::vector<qint64> SimulatedTeam::processIds() const
{
  std::vector<qint64> ids;
  for (const Member& member : members_)
    for (const QProcess* process : {member.simulator.get(), member.robot.get()})
      if (process && process->state() != QProcess::NotRunning) ids.push_back(process->processId());
  return ids;
}

bool SimulatedTeam::send(const std::string& line)
{
  const bool all = target_ == allRobots || forEveryRobot(line);
  for (int robot = 1; robot < robots_; ++robot)
  {
    QProcess* simulator = members_[static_cast<std::size_t>(robot)].simulator.get();
    if (!all && target_ != robot) continue;
    if (!simulator || simulator->state() != QProcess::Running)
    {
      callbacks_.print(QString("simulation: robot %1's simulator does not run").arg(robot));
      continue;
    }
    callbacks_.print(QString("simulation (robot %1): %2").arg(robot).arg(q(line)));
    simulator->write(QByteArray::fromStdString(line + "\n"));
  }
  return all || target_ == 0;
}

void SimulatedTeam::setTarget(int target)
{
  target_ = target >= 0 && target < robots_ ? target : allRobots;
  if (targetBox_) targetBox_->setCurrentIndex(targetBox_->findData(target_));
  if (targetMenu_)
    for (QAction* action : targetMenu_->actions())
      action->setChecked(action->data().toInt() == target_);
}

void SimulatedTeam::buildTargetSelector(QToolBar& bar, QMenu& menu)
{
  targetBox_ = new QComboBox;
  targetBox_->setObjectName("simulationTarget");
  targetBox_->setToolTip("the robot the events go to (pause, step and speed go to every robot)");
  targetMenu_ = menu.addMenu("&Target");
  auto* group = new QActionGroup(targetMenu_);
  for (int robot = 0; robot <= robots_; ++robot)
  {
    const int target = robot < robots_ ? robot : allRobots;
    const QString title = target == allRobots ? QString("all robots") : QString("robot %1").arg(robot);
    targetBox_->addItem(title, target);
    QAction* action = targetMenu_->addAction(title, [this, target] { setTarget(target); });
    action->setData(target);
    action->setCheckable(true);
    group->addAction(action);
  }
  QObject::connect(targetBox_, &QComboBox::activated,
                   [this](int index) { setTarget(targetBox_->itemData(index).toInt()); });
  bar.addWidget(new QLabel(" target "));
  bar.addWidget(targetBox_);
  setTarget(target_);
}
} // namespace nao::gui
