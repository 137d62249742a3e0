// The window's sources: a robot's debug channel, a log, or a simulation (the simulator and the robot binary as
// child processes).
#include "Util/DebugGui/MainWindow.h"
#include "Util/DebugGui/RobotView3D.h"
#include "Util/DebugGui/SimulatedTeam.h"
#include "Util/DebugGui/TeamView.h"
#include <QDockWidget>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStatusBar>
#include <QTimer>
#include <algorithm>
#include <cmath>
#include <set>

namespace nao::gui
{
namespace
{
QString q(const std::string& text)
{
  return QString::fromStdString(text);
}

/// What a log replay plots when no --plot names fields: the current and the angle of the joint that worked hardest
/// (its current spans the widest range; among equal currents, as a stand-in body reports them, its angle does), each
/// on its unit's axis.
std::vector<std::string> defaultLogPlots(const SeriesStore& store)
{
  const auto found = store.fields().find("JointSensorData");
  if (found == store.fields().end()) return {};
  const auto span = [&](const std::string& name)
  {
    const Series& series = store.series(name);
    if (series.value.empty()) return -1.0;
    const auto [low, high] = std::minmax_element(series.value.begin(), series.value.end());
    return *high - *low;
  };
  std::string joint;
  std::pair<double, double> best{-1, -1};
  for (const FieldDescription& field : found->second)
  {
    if (!field.path.starts_with("currents.")) continue;
    const std::string name = field.path.substr(9);
    // Currents within 1 mA count as equal: the angle decides.
    const std::pair<double, double> score{std::round(span("JointSensorData.currents." + name) * 1000),
                                          span("JointSensorData.angles." + name)};
    if (score > best)
    {
      best = score;
      joint = name;
    }
  }
  if (joint.empty()) return {};
  return {"JointSensorData.currents." + joint, "JointSensorData.angles." + joint};
}
} // namespace

void MainWindow::connectTo(const LinkTarget& target)
{
  link_.reset();
  timesSubscribed_ = false;
  log_.reset();
  parameters_->setReadOnly(false);
  graph_->setRecorded(false);
  store_.clear();
  ready_ = false;
  lastError_.clear();
  source_ = target.host + ":" + std::to_string(target.port);
  timelineDock_->hide();
  setWindowTitle(q("NAO debug GUI — " + source_));
  statusBar()->showMessage(q("connecting to " + source_ + " …"));
  link_ = std::make_unique<RobotLink>(
      target, [this](const debug::ListReply& list) { onConnected(list); },
      [this](const std::string& message) { onError(message); });
}

void MainWindow::onConnected(const debug::ListReply& list)
{
  list_ = list;
  providers_.clear();
  for (const auto& representation : list.representations)
  {
    providers_[representation.name] = representation.provider;
    store_.setFields(representation.name, representation.fields);
  }
  ready_ = true;
  showFields();
  // The editor opens on the first active module: the one whose parameters carry the most units (what a user tunes,
  // the safety stages), not the first by name with two unitless switches.
  std::vector<const debug::ModuleEntry*> ordered;
  for (const auto& module : list.modules)
    if (!module.parameters.empty()) ordered.push_back(&module);
  const auto withUnits = [](const debug::ModuleEntry* module)
  {
    return std::ranges::count_if(module->parameters,
                                 [](const FieldDescription& field) { return !field.unit.empty(); });
  };
  std::ranges::stable_sort(ordered, std::greater<>(), withUnits);
  std::vector<std::pair<std::string, bool>> modules;
  for (const debug::ModuleEntry* module : ordered)
    modules.emplace_back(module->name, module->active);
  parameters_->setModules(modules);
  graph_->setGraph(list);
  for (const auto& [representation, rateHz] : jointSubscriptions_)
    link_->release(representation);
  if (!timesSubscribed_ && store_.fields().contains("ModuleTimes"))
  {
    link_->retain("ModuleTimes", 2); // the graph's timings: twice a second is enough to read
    timesSubscribed_ = true;
  }
  jointSubscriptions_ = joints_->configure(store_, providers_);
  for (const auto& [representation, rateHz] : jointSubscriptions_)
    link_->retain(representation, rateHz);
  robotView_->subscribe(*link_, providers_);
  for (const std::string& field : options_.plots)
    plotField(field);
  options_.plots.clear();
  console_->print(q("connected to " + source_ + ", scenario " + list.scenario));
  statusBar()->showMessage(statusLine());
}

bool MainWindow::openLog(const std::string& path)
{
  link_.reset();
  timesSubscribed_ = false;
  parameters_->setReadOnly(false);
  graph_->setRecorded(false);
  store_.clear();
  ready_ = false;
  lastError_.clear();
  source_ = path;
  try
  {
    log_ = std::make_unique<LoadedLog>(loadLog(path));
  }
  catch (const std::exception& error)
  {
    log_.reset();
    onError(error.what());
    return false;
  }
  setWindowTitle(q("NAO debug GUI — " + path));
  providers_.clear();
  store_.setCapacity(log_->frames.size() + 1);
  const auto& registry = RepresentationRegistry::instance();
  for (const LoadedLog::Frame& frame : log_->frames)
    for (const Sample& sample : frame.samples)
    {
      if (!store_.fields().contains(sample.representation))
        store_.setFields(
            sample.representation,
            registry.info(static_cast<RepresentationId>(registry.find(sample.representation))).describe());
      store_.add(sample);
    }
  for (const std::string& warning : log_->warnings)
    console_->print(q("log: " + warning));
  ready_ = true;
  showFields();
  joints_->configure(store_, {});
  timeline_->setLog(log_.get());
  timelineDock_->show();
  logFrame_ = log_->frames.empty() ? 0 : log_->frames.front().number;
  showLogGraphAndParameters();
  std::set<std::string> logged;
  for (const auto& [name, fields] : store_.fields())
    logged.insert(name);
  robotView_->setAvailable(logged, "this log has no LimbStiffness (the robot ran no LimbStiffnessProvider)");
  if (options_.plots.empty()) options_.plots = defaultLogPlots(store_);
  plot_->removeAll();
  for (const std::string& field : options_.plots)
    plotField(field);
  options_.plots.clear();
  plot_->showAll();
  statusBar()->showMessage(statusLine());
  return true;
}

void MainWindow::showLogGraphAndParameters()
{
  if (const auto& graph = log_->metadata.graph)
  {
    // The graph the robot ran when it wrote the log, drawn as live; nothing to switch.
    graph_->setRecorded(true);
    graph_->setGraph(*graph);
  }
  else
    // A log written before logs recorded the module graph names only its representations: the view says so.
    graph_->showNoGraph(
        QString("this log holds no module graph (a log records %1 representations, not the modules "
                "that provided them): see the Representations dock")
            .arg(store_.fields().size()));
  if (log_->metadata.hasParameters())
  {
    std::vector<std::pair<std::string, bool>> modules;
    for (const auto& [module, toml] : log_->metadata.parametersAt(logFrame_))
    {
      bool active = !log_->metadata.graph;
      if (log_->metadata.graph)
        for (const debug::ModuleEntry& entry : log_->metadata.graph->modules)
          active |= entry.name == module && entry.active;
      modules.emplace_back(module, active);
    }
    parameters_->setReadOnly(true,
                             "the log's parameters at the timeline's frame (recorded in the log: read-only)");
    parameters_->setModules(modules);
  }
}

void MainWindow::startSimulation(const std::string& scenario)
{
  link_.reset();
  stopChildren();
  source_ = "simulated " + scenario;
  simFolder_ = std::make_unique<QTemporaryDir>();
  const QString socket = simFolder_->filePath("lola.sock");
  simulator_ = new QProcess(this);
  simulator_->setProcessChannelMode(QProcess::MergedChannels);
  endWithTheGui(*simulator_);
  QStringList arguments{"serve",      q(scenario), "--socket",
                        socket,       "--output",  simFolder_->filePath("simulation"),
                        "--no-plots", "--config",  q(options_.config.string()),
                        "--control"};
  arguments << SimulatedTeam::simulatorArguments(options_, 0); // --preset as given; --robots: --seed, worn
  connect(simulator_, &QProcess::readyRead,
          [this] { simulatorOutput(QString::fromLocal8Bit(simulator_->readAll())); });
  simulation_ = {};
  simulation_.running = true;
  simulation_.scenario = scenario;
  simulatorLine_.clear();
  enableSimulationControls(true);
  if (simTeam_) simTeam_->start(scenario);
  connect(simulator_, &QProcess::finished,
          [this]
          {
            simulation_.running = false;
            enableSimulationControls(false);
          });
  connect(simulator_, &QProcess::errorOccurred,
          [this](QProcess::ProcessError)
          { onError("simulator: " + simulator_->errorString().toStdString()); });
  simulator_->start(q(options_.simulatorBinary), arguments);
  console_->print("started " + q(options_.simulatorBinary) + " " + arguments.join(' '));
  // The simulator's ground truth beside the robot's estimate (SimulationTruth.h): the 3D view redraws at most 30 Hz.
  simulator_->write(QByteArray("truth ") + QByteArray::number(truthRate) + "\n");
  // The robot binary needs the socket to exist; the simulator creates it once MuJoCo is ready.
  auto* poll = new QTimer(this);
  auto started = std::make_shared<int>(0);
  connect(poll, &QTimer::timeout,
          [this, poll, socket, scenario, started]
          {
            if (++*started > 1200 || simulator_->state() == QProcess::NotRunning)
            {
              poll->deleteLater();
              onError("the simulator did not open " + socket.toStdString());
              return;
            }
            if (!QFileInfo::exists(socket)) return;
            poll->stop();
            poll->deleteLater();
            startSimulatedRobot(scenario, socket);
          });
  poll->start(50);
  statusBar()->showMessage(q("starting the simulator for " + scenario + " …"));
}

void MainWindow::startSimulatedRobot(const std::string& scenario, const QString& socket)
{
  robot_ = new QProcess(this);
  robot_->setProcessChannelMode(QProcess::MergedChannels);
  endWithTheGui(*robot_);
  const QStringList robotArguments{"--scenario",   q(scenario), "--lola-socket", socket,
                                   "--debug-port", "0",         "--config",      q(options_.config.string())};
  connect(robot_, &QProcess::readyRead,
          [this]
          {
            const QString text = QString::fromLocal8Bit(robot_->readAll());
            robotOutput_ += text;
            console_->print("robot: " + text.trimmed());
            // "... debug channel on port N": the free port the robot binary picked.
            const int at = robotOutput_.indexOf("debug channel on port ");
            if (at >= 0 && !link_)
            {
              const QString rest = robotOutput_.mid(at + 22);
              const int end = rest.indexOf(QRegularExpression("[^0-9]"));
              if (end <= 0) return;
              LinkTarget target;
              target.port = static_cast<std::uint16_t>(rest.left(end).toUInt());
              target.waitSeconds = 5;
              const std::string source = source_;
              connectTo(target);
              if (simTeam_) simTeam_->setPort(0, target.port);
              source_ = source + " (robot binary at 127.0.0.1:" + std::to_string(target.port) + ")";
            }
          });
  robot_->start(q(options_.robotBinary), robotArguments);
  console_->print("started " + q(options_.robotBinary) + " " + robotArguments.join(' '));
}

void MainWindow::buildSimulatedTeam()
{
  SimulatedTeam::Callbacks callbacks;
  callbacks.print = [this](const QString& line) { console_->print(line); };
  callbacks.error = [this](const std::string& message) { onError(message); };
  // Every robot in the team view, robot 0 first, once each has printed its debug port.
  callbacks.allPorts = [this](const std::vector<std::uint16_t>& ports)
  {
    for (const std::uint16_t port : ports)
      addTeamRobot("127.0.0.1:" + std::to_string(port));
  };
  simTeam_ = std::make_unique<SimulatedTeam>(options_, std::move(callbacks));
  simTeam_->buildTargetSelector(*eventsBar_, *simulationMenu_);
}

void MainWindow::stopChildren()
{
  // The robot binary first (SIGTERM: it closes its log and prints its tables); the simulator ends when its client
  // leaves, or is stopped.
  // A paused simulator would keep the robot's motion thread waiting for a packet: let it run to its end.
  if (simulator_ && simulation_.paused && simulator_->state() == QProcess::Running)
  {
    simulator_->write("resume\n");
    simulator_->waitForBytesWritten(1000);
  }
  for (QProcess* process : {robot_, simulator_})
  {
    if (!process) continue;
    if (process->state() != QProcess::NotRunning)
    {
      process->terminate();
      if (!process->waitForFinished(5000)) process->kill();
      process->waitForFinished(1000);
    }
    delete process;
  }
  robot_ = simulator_ = nullptr;
  if (simTeam_) simTeam_->stop();
  simFolder_.reset();
  simulation_.running = false;
  enableSimulationControls(false);
}
} // namespace nao::gui
