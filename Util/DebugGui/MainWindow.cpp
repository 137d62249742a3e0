#include "Util/DebugGui/MainWindow.h"
#include "Tools/DebugClient/DebugClient.h"
#include "Util/DebugGui/RobotView3D.h"
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLineEdit>
#include <QMenuBar>
#include <QRegularExpression>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <sstream>

namespace nao::gui
{
namespace
{
QString q(const std::string& text)
{
  return QString::fromStdString(text);
}

std::vector<std::string> splitWords(const std::string& line, std::size_t maxWords)
{
  // The last word takes the rest of the line (a TOML value may contain spaces).
  std::vector<std::string> words;
  std::size_t i = line.find_first_not_of(' ');
  while (i != std::string::npos)
  {
    if (words.size() + 1 == maxWords)
    {
      words.push_back(line.substr(i));
      break;
    }
    const std::size_t end = line.find(' ', i);
    words.push_back(line.substr(i, end - i));
    i = end == std::string::npos ? end : line.find_first_not_of(' ', end);
  }
  return words;
}
} // namespace

MainWindow::MainWindow(GuiOptions options)
    : options_(std::move(options)), plot_(new PlotView), tree_(new RepresentationTree),
      joints_(new JointTable),
      parameters_(new ParameterEditor(
          {[this](const std::string& module) { requestParameters(module); },
           [this](const std::string& module, const std::string& key, const std::string& value)
           { setParameter(module, key, value); }})),
      console_(new Console), timeline_(new LogTimeline), graph_(new ModuleGraphView), timer_(new QTimer(this))
{
  setWindowTitle("NAO debug GUI");
  registerFrameworkRepresentations();
  activePlot_ = plot_;
  setCentralWidget(plot_);
  dock("Representations", "representations", tree_, Qt::LeftDockWidgetArea);
  dock("Joints", "joints", joints_, Qt::RightDockWidgetArea);
  dock("Parameters", "parameters", parameters_, Qt::RightDockWidgetArea);
  dock("Console", "console", console_, Qt::BottomDockWidgetArea);
  dock("Module graph", "graph", graph_, Qt::BottomDockWidgetArea);
  timelineDock_ = dock("Log timeline", "timeline", timeline_, Qt::BottomDockWidgetArea);
  robotView_ = new RobotView3D(store_, options_.config, options_.robot);
  dock("3D view", "robot3d", robotView_, Qt::LeftDockWidgetArea);
  parameters_->setConfig(options_.config, options_.robot);
  tree_->onActivated = [this](const std::string& field) { plotField(field); };
  plot_->onFieldDropped = [this](const std::string& field)
  {
    activePlot_ = plot_;
    plotField(field);
  };
  plot_->onCleared = [this](const std::vector<std::string>& fields) { releaseFields(fields); };
  console_->onCommand = [this](const std::string& line) { runCommand(line); };
  graph_->onProvider = [this](const std::string& representation, const std::string& provider)
  { runCommand("provider " + representation + " " + provider); };
  timeline_->onFrame = [this](int index)
  {
    if (!log_) return;
    const LoadedLog::Frame& frame = log_->frames[static_cast<std::size_t>(index)];
    for (const Sample& sample : frame.samples)
      store_.setLatest(sample);
    joints_->refresh(store_);
    plot_->setCursorTime(frame.time);
    for (PlotView* extra : extraPlots_)
      extra->setCursorTime(frame.time);
  };
  buildMenus();
  resize(1400, 900);
  QSettings settings("NaoMotionFramework", "DebugGui");
  restoreGeometry(settings.value("geometry").toByteArray());
  restoreState(settings.value("windowState").toByteArray());
  connect(timer_, &QTimer::timeout, [this] { pump(); });
  timer_->start(16);     // ~60 Hz: plots are redrawn at most this often
  timelineDock_->hide(); // shown for logs
  statusBar()->showMessage("no source: File → Connect, Open log or Simulate");
}

MainWindow::~MainWindow()
{
  link_.reset();
  stopChildren();
}

QDockWidget* MainWindow::dock(const QString& title, const QString& name, QWidget* widget,
                              Qt::DockWidgetArea area)
{
  auto* dockWidget = new QDockWidget(title, this);
  dockWidget->setObjectName(name); // restoreState() finds docks by name
  dockWidget->setWidget(widget);
  addDockWidget(area, dockWidget);
  return dockWidget;
}

void MainWindow::buildMenus()
{
  QMenu* file = menuBar()->addMenu("&File");
  file->addAction("&Connect…",
                  [this]
                  {
                    bool ok = false;
                    const QString text = QInputDialog::getText(this, "Connect", "host[:port]",
                                                               QLineEdit::Normal, "127.0.0.1:7070", &ok);
                    if (!ok) return;
                    const QString token = QInputDialog::getText(this, "Connect", "token (empty: none)",
                                                                QLineEdit::Password, "", &ok);
                    LinkTarget target;
                    target.host = text.section(':', 0, 0).toStdString();
                    target.port = static_cast<std::uint16_t>(text.section(':', 1, 1).toUInt());
                    if (target.port == 0) target.port = 7070;
                    target.token = token.toStdString();
                    connectTo(target);
                  });
  file->addAction("&Open log…",
                  [this]
                  {
                    const QString path =
                        QFileDialog::getOpenFileName(this, "Open log", "", "Logs (*.log);;All (*)");
                    if (!path.isEmpty()) openLog(path.toStdString());
                  });
  file->addAction("&Simulate…",
                  [this]
                  {
                    bool ok = false;
                    const QString scenario =
                        QInputDialog::getText(this, "Simulate", "scenario", QLineEdit::Normal, "stand", &ok);
                    if (ok && !scenario.isEmpty()) startSimulation(scenario.toStdString());
                  });
  file->addSeparator();
  file->addAction("&Quit", [this] { close(); });
  QMenu* view = menuBar()->addMenu("&View");
  view->addAction("New &plot", [this] { addPlotDock(); });
  view->addAction("New &x–y plot", [this] { addXyPlot(); });
  view->addMenu(createPopupMenu())->setText("&Docks");
}

void MainWindow::addPlotDock()
{
  auto* plot = new PlotView;
  const int number = static_cast<int>(extraPlots_.size()) + 2;
  dock(QString("Plot %1").arg(number), QString("plot%1").arg(number), plot, Qt::BottomDockWidgetArea);
  plot->onFieldDropped = [this, plot](const std::string& field)
  {
    activePlot_ = plot;
    plotField(field);
  };
  plot->onCleared = [this](const std::vector<std::string>& fields) { releaseFields(fields); };
  extraPlots_.push_back(plot);
  activePlot_ = plot;
}

XyPlotView* MainWindow::addXyPlot()
{
  auto* plot = new XyPlotView;
  const int number = static_cast<int>(xyPlots_.size()) + 1;
  dock(QString("x–y plot %1").arg(number), QString("xy%1").arg(number), plot, Qt::BottomDockWidgetArea);
  plot->onFieldDropped = [this, plot](const std::string& field)
  {
    const FieldDescription* description = store_.field(field);
    if (!description) return onError("no field " + field);
    plot->addField(field, description->unit);
    if (link_) link_->retain(field.substr(0, field.find('.')));
    plot->refresh(store_);
  };
  xyPlots_.push_back(plot);
  return plot;
}

void MainWindow::connectTo(const LinkTarget& target)
{
  link_.reset();
  timesSubscribed_ = false;
  log_.reset();
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
  std::vector<std::pair<std::string, bool>> modules;
  for (const auto& module : list.modules)
    if (!module.parameters.empty()) modules.emplace_back(module.name, module.active);
  parameters_->setModules(modules);
  graph_->setGraph(list);
  for (const std::string& representation : jointSubscriptions_)
    link_->release(representation);
  if (!timesSubscribed_ && store_.fields().contains("ModuleTimes"))
  {
    link_->retain("ModuleTimes", 2); // the graph's timings: twice a second is enough to read
    timesSubscribed_ = true;
  }
  jointSubscriptions_ = joints_->configure(store_, providers_);
  for (const std::string& representation : jointSubscriptions_)
    link_->retain(representation);
  robotView_->subscribe(*link_, providers_);
  for (const std::string& field : options_.plots)
    plotField(field);
  options_.plots.clear();
  console_->print(q("connected to " + source_ + ", scenario " + list.scenario));
  statusBar()->showMessage(statusLine());
}

void MainWindow::onError(const std::string& message)
{
  lastError_ = message;
  console_->print(q("error: " + message));
  statusBar()->showMessage(q("error: " + message));
}

void MainWindow::showFields()
{
  tree_->populate(store_, providers_);
}

void MainWindow::plotField(const std::string& field)
{
  const FieldDescription* description = store_.field(field);
  if (!description)
  {
    onError("no field " + field + " (Representation.leaf, e.g. JointSensorData.currents.LKneePitch)");
    return;
  }
  PlotView* plot = activePlot_ ? activePlot_ : plot_;
  if (!plot->addSeries(field, description->unit)) return;
  if (link_) link_->retain(field.substr(0, field.find('.')));
  plot->refresh(store_);
}

void MainWindow::releaseFields(const std::vector<std::string>& fields)
{
  if (!link_) return;
  for (const std::string& field : fields)
    link_->release(field.substr(0, field.find('.')));
}

void MainWindow::pump()
{
  if (link_)
  {
    for (const Sample& sample : link_->pump())
    {
      store_.add(sample);
      const auto pending = pendingGets_.find(sample.representation);
      if (pending != pendingGets_.end())
      {
        std::string text = sample.representation + " frame " + std::to_string(sample.frameNumber) + "\n";
        for (const auto& [leaf, value] : sample.values)
          text += "  " + leaf + " = " + value + "\n";
        console_->print(q(text));
        pendingGets_.erase(pending);
        link_->release(sample.representation);
      }
    }
  }
  if (++pumps_ % 60 == 0 && ready_) statusBar()->showMessage(statusLine());
  if (log_) return; // a log's views change with the timeline only
  plot_->refresh(store_);
  for (PlotView* extra : extraPlots_)
    extra->refresh(store_);
  joints_->refresh(store_);
  for (XyPlotView* xy : xyPlots_)
    xy->refresh(store_);
  if (store_.version() != graphVersion_ && pumps_ % 30 == 0)
  {
    graph_->setTimes(store_);
    graphVersion_ = store_.version();
  }
}

QString MainWindow::statusLine() const
{
  std::string text = ready_ ? "ready: " + source_ : "not ready: " + source_;
  if (link_)
    text += link_->connected() ? ", connected, " + std::to_string(link_->samplesReceived()) + " samples"
                               : ", not connected";
  if (log_) text += ", " + std::to_string(log_->frames.size()) + " frames";
  if (!list_.scenario.empty()) text += ", scenario " + list_.scenario;
  if (!lastError_.empty()) text += "; error: " + lastError_;
  return q(text);
}

bool MainWindow::openLog(const std::string& path)
{
  link_.reset();
  timesSubscribed_ = false;
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
  for (const std::string& field : options_.plots)
    plotField(field);
  options_.plots.clear();
  statusBar()->showMessage(statusLine());
  return true;
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
  QStringList arguments{"serve",      q(scenario), "--socket",
                        socket,       "--output",  simFolder_->filePath("simulation"),
                        "--no-plots", "--config",  q(options_.config.string())};
  if (!options_.preset.empty()) arguments << "--preset" << q(options_.preset);
  connect(simulator_, &QProcess::readyRead,
          [this]
          { console_->print("simulator: " + QString::fromLocal8Bit(simulator_->readAll()).trimmed()); });
  connect(simulator_, &QProcess::errorOccurred,
          [this](QProcess::ProcessError)
          { onError("simulator: " + simulator_->errorString().toStdString()); });
  simulator_->start(q(options_.simulatorBinary), arguments);
  console_->print("started " + q(options_.simulatorBinary) + " " + arguments.join(' '));
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
            robot_ = new QProcess(this);
            robot_->setProcessChannelMode(QProcess::MergedChannels);
            const QStringList robotArguments{
                "--scenario",   q(scenario), "--lola-socket", socket,
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
                        source_ = source + " (robot binary at 127.0.0.1:" + std::to_string(target.port) + ")";
                      }
                    });
            robot_->start(q(options_.robotBinary), robotArguments);
            console_->print("started " + q(options_.robotBinary) + " " + robotArguments.join(' '));
          });
  poll->start(50);
  statusBar()->showMessage(q("starting the simulator for " + scenario + " …"));
}

void MainWindow::stopChildren()
{
  // The robot binary first (SIGTERM: it closes its log and prints its tables); the simulator ends when its client
  // leaves, or is stopped.
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
  simFolder_.reset();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
  QSettings settings("NaoMotionFramework", "DebugGui");
  settings.setValue("geometry", saveGeometry());
  settings.setValue("windowState", saveState());
  link_.reset();
  stopChildren();
  event->accept();
}

void MainWindow::requestParameters(const std::string& module)
{
  if (!link_) return;
  link_->post(
      [this, module](DebugClient& client) -> std::function<void()>
      {
        try
        {
          const debug::Parameters parameters = client.parameters(module);
          return [this, parameters]
          { parameters_->showParameters(parameters.module, parameters.toml, parameters.fields); };
        }
        catch (const std::exception& error)
        {
          return [this, message = std::string(error.what())] { onError(message); };
        }
      });
}

void MainWindow::setParameter(const std::string& module, const std::string& key, const std::string& value)
{
  if (!link_)
  {
    parameters_->editResult(module, key, value, false, "not connected to a robot");
    return;
  }
  link_->post(
      [this, module, key, value](DebugClient& client) -> std::function<void()>
      {
        const debug::Reply reply = client.setParameter(module, key, value);
        return [this, module, key, value, reply]
        {
          parameters_->editResult(module, key, value, reply.ok, reply.message);
          console_->print(q((reply.ok ? "set: " : "refused: ") + reply.message));
        };
      });
}

void MainWindow::runCommand(const std::string& line)
{
  const std::vector<std::string> words = splitWords(line, line.starts_with("set ") ? 4 : 3);
  const std::string command = words.empty() ? "" : words[0];
  const auto print = [this](const std::string& text) { console_->print(q(text)); };
  if (command == "help" || command.empty())
    return print(
        "list | get <module|representation> | set <module> <key> <value> | provider <representation> "
        "<module|off> | subscribe <representation> | unsubscribe <representation> | log start [name] | "
        "log stop | plot <Representation.leaf>");
  if (command == "plot" && words.size() == 2) return plotField(words[1]);
  if (!link_ || !link_->connected()) return print("not connected to a robot");
  auto replyPrinter = [this](const debug::Reply& reply) -> std::function<void()>
  { return [this, reply] { console_->print(q((reply.ok ? "" : "refused: ") + reply.message)); }; };
  if (command == "list")
    return link_->post(
        [this](DebugClient& client) -> std::function<void()>
        {
          const debug::ListReply list = client.list();
          return [this, list]
          {
            std::ostringstream text;
            text << "scenario " << list.scenario << "\nexecution order:\n"
                 << list.plan << "representations:\n";
            for (const auto& representation : list.representations)
              text << "  " << representation.name << " <- "
                   << (representation.provider.empty() ? "(none)" : representation.provider) << "\n";
            console_->print(q(text.str()));
            graph_->setGraph(list);
          };
        });
  if (command == "get" && words.size() == 2)
  {
    for (const auto& module : list_.modules)
      if (module.name == words[1])
        return link_->post(
            [this, name = words[1]](DebugClient& client) -> std::function<void()>
            {
              try
              {
                const std::string toml = client.parameters(name).toml;
                return [this, toml] { console_->print(q(toml)); };
              }
              catch (const std::exception& error)
              {
                return [this, message = std::string(error.what())]
                { console_->print(q("refused: " + message)); };
              }
            });
    ++pendingGets_[words[1]];
    link_->retain(words[1]);
    return;
  }
  if (command == "set" && words.size() == 4) return setParameter(words[1], words[2], words[3]);
  if (command == "provider" && words.size() == 3)
    return link_->post(
        [this, words](DebugClient& client) -> std::function<void()>
        {
          const debug::Reply reply = client.setProvider(words[1], words[2]);
          const debug::ListReply list = client.list();
          return [this, reply, list]
          {
            console_->print(q((reply.ok ? "" : "refused: ") + reply.message));
            graph_->setGraph(list);
          };
        });
  if (command == "subscribe" && words.size() == 2)
    return link_->retain(words[1]), print("subscribed " + words[1]);
  if (command == "unsubscribe" && words.size() == 2)
    return link_->release(words[1]), print("released " + words[1]);
  if (command == "log" && words.size() >= 2 && words[1] == "start")
    return link_->post([replyPrinter, name = words.size() > 2 ? words[2] : std::string()](DebugClient& client)
                       { return replyPrinter(client.startLog(name)); });
  if (command == "log" && words.size() == 2 && words[1] == "stop")
    return link_->post([replyPrinter](DebugClient& client) { return replyPrinter(client.stopLog()); });
  print("unknown command '" + line + "' (help lists the commands)");
}
} // namespace nao::gui
