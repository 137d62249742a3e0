#include "Util/DebugGui/MainWindow.h"
#include "Util/DebugGui/RobotView3D.h"
#include "Util/DebugGui/SensorStrip.h"
#include "Util/DebugGui/SimulatedTeam.h"
#include "Util/DebugGui/SimulationTruth.h"
#include "Util/DebugGui/TeamView.h"
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QInputDialog>
#include <QLineEdit>
#include <QMenuBar>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QVBoxLayout>

namespace nao::gui
{
namespace
{
QString q(const std::string& text)
{
  return QString::fromStdString(text);
}

/// The dock layout's version in QSettings: a layout saved by an older arrangement is not restored.
constexpr int layoutVersion = 2;
} // namespace

MainWindow::MainWindow(GuiOptions options)
    : options_(std::move(options)), plot_(new PlotView), tree_(new RepresentationTree),
      joints_(new JointTable), sensors_(new SensorStrip),
      parameters_(new ParameterEditor(
          {[this](const std::string& module) { requestParameters(module); },
           [this](const std::string& module, const std::string& key, const std::string& value)
           { setParameter(module, key, value); }})),
      console_(new Console), timeline_(new LogTimeline), graph_(new ModuleGraphView), timer_(new QTimer(this))
{
  setWindowTitle("NAO debug GUI");
  registerFrameworkRepresentations();
  activePlot_ = plot_;
  const MainDocks docks = buildDocks();
  connectViews();
  buildMenus();
  if (options_.robots > 1) buildSimulatedTeam();
  resize(1400, 900);
  resizeDocks({docks.representations, docks.view3d}, {300, 400}, Qt::Horizontal);
  resizeDocks({docks.joints}, {300}, Qt::Vertical);
  QSettings settings("NaoMotionFramework", "DebugGui");
  restoreGeometry(settings.value("geometry").toByteArray());
  restoreState(settings.value("windowState").toByteArray(), layoutVersion);
  connect(timer_, &QTimer::timeout,
          [this]
          {
            try // an exception must never leave a Qt slot (Qt aborts): it is shown instead
            {
              pump();
            }
            catch (const std::exception& error)
            {
              onError(std::string("internal error: ") + error.what());
            }
          });
  timer_->start(16);     // ~60 Hz: plots are redrawn at most this often
  timelineDock_->hide(); // shown for logs
  statusBar()->showMessage("no source: File → Connect, Open log or Simulate");
}

MainWindow::MainDocks MainWindow::buildDocks()
{
  // The plot is the central widget and keeps at least half the width: the tree on the left, the 3D view on the
  // right, and the tables, the module graph and the console as full-width tabs below (every joint column visible).
  setCentralWidget(plot_);
  setCorner(Qt::BottomLeftCorner, Qt::BottomDockWidgetArea);
  setCorner(Qt::BottomRightCorner, Qt::BottomDockWidgetArea);
  setCorner(Qt::TopLeftCorner, Qt::TopDockWidgetArea);
  setCorner(Qt::TopRightCorner, Qt::TopDockWidgetArea);
  MainDocks docks;
  docks.representations = dock("Representations", "representations", tree_, Qt::LeftDockWidgetArea);
  // The sensors that are not joints in a row above the joint table: a failed gyroscope is seen with the joints.
  auto* jointsPanel = new QWidget;
  auto* jointsLayout = new QVBoxLayout(jointsPanel);
  jointsLayout->setContentsMargins(0, 0, 0, 0);
  jointsLayout->setSpacing(0);
  jointsLayout->addWidget(sensors_);
  jointsLayout->addWidget(joints_, 1);
  QDockWidget* joints = docks.joints = dock("Joints", "joints", jointsPanel, Qt::BottomDockWidgetArea);
  tabifyDockWidget(joints, dock("Module graph", "graph", graph_, Qt::BottomDockWidgetArea));
  tabifyDockWidget(joints, dock("Parameters", "parameters", parameters_, Qt::BottomDockWidgetArea));
  tabifyDockWidget(joints, dock("Console", "console", console_, Qt::BottomDockWidgetArea));
  joints->raise();
  // The log's timeline spans the window above everything: its slider gets the width to scrub.
  timelineDock_ = dock("Log timeline", "timeline", timeline_, Qt::TopDockWidgetArea);
  robotView_ = new RobotView3D(store_, options_.config, options_.robot);
  docks.view3d = dock("3D view", "robot3d", robotView_, Qt::RightDockWidgetArea);
  team_ = new TeamView;
  teamDock_ = dock("Team", "team", team_, Qt::BottomDockWidgetArea);
  tabifyDockWidget(joints, teamDock_);
  for (const std::string& robot : options_.team)
    addTeamRobot(robot);
  if (options_.team.empty()) teamDock_->hide(); // View → Docks → Team shows it
  parameters_->setConfig(options_.config, options_.robot);
  return docks;
}

void MainWindow::connectViews()
{
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
    const bool parametersChange =
        log_->metadata.parametersAt(frame.number) != log_->metadata.parametersAt(logFrame_);
    logFrame_ = frame.number;
    if (parametersChange && !parameters_->module().empty()) requestParameters(parameters_->module());
    for (const Sample& sample : frame.samples)
      store_.setLatest(sample);
    joints_->refresh(store_);
    sensors_->refresh(store_);
    plot_->setCursorTime(frame.time);
    for (PlotView* extra : extraPlots_)
      extra->setCursorTime(frame.time);
  };
}

MainWindow::~MainWindow()
{
  std::erase(windowList(), this);
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
  file->addAction("&New connection…", [this] { newWindow()->findChild<QAction*>("connect")->trigger(); });
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
                  })
      ->setObjectName("connect");
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
  addEventLogActions(file);
  file->addSeparator();
  file->addAction("&Quit", [this] { close(); });
  QMenu* view = menuBar()->addMenu("&View");
  view->addAction("New &plot", [this] { addPlotDock(); });
  view->addAction("New &x–y plot", [this] { addXyPlot(); });
  view->addMenu(createPopupMenu())->setText("&Docks");
  buildSimulationMenu();
  buildWindowMenu();
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

void MainWindow::addTeamRobot(const std::string& hostPort)
{
  LinkTarget target;
  const QString text = q(hostPort);
  target.host = text.section(':', 0, 0).toStdString();
  bool ok = true;
  if (text.contains(':')) target.port = text.section(':', 1).toUShort(&ok);
  if (!ok || target.port == 0 || target.host.empty())
    return onError("team: '" + hostPort + "' is not host[:port] (port 1 to 65535, 7070 without one)");
  target.token = options_.token;
  target.waitSeconds = 5;
  team_->addRobot(target);
  teamDock_->show();
  teamDock_->raise();
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
  if (const std::string representation = robotRepresentationOf(field); link_ && !representation.empty())
    link_->retain(representation);
  plot->refresh(store_);
  if (log_) plot->showAll(); // a log is known whole: show all of it
}

void MainWindow::releaseFields(const std::vector<std::string>& fields)
{
  if (!link_) return;
  for (const std::string& field : fields)
    if (const std::string representation = robotRepresentationOf(field); !representation.empty())
      link_->release(representation);
}

std::string MainWindow::robotRepresentationOf(const std::string& field)
{
  const std::string representation = field.substr(0, field.find('.'));
  if (representation == truthRepresentation) return {}; // the simulator sends it
  // "error.InertialData.pitch": the estimate's representation, which the error needs
  if (representation == errorRepresentation)
  {
    const std::string estimate = field.substr(representation.size() + 1);
    return estimate.substr(0, estimate.find('.'));
  }
  return representation;
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
  if (pumps_ % 15 == 0) team_->pump();
  if (log_) return; // a log's views change with the timeline only
  plot_->refresh(store_);
  for (PlotView* extra : extraPlots_)
    extra->refresh(store_);
  joints_->refresh(store_);
  sensors_->refresh(store_);
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
  {
    text += link_->connected() ? ", connected, " + std::to_string(link_->samplesReceived()) + " samples"
                               : ", not connected";
    if (link_->samplesDiscarded() > 0)
      text += ", " + std::to_string(link_->samplesDiscarded()) + " discarded (the GUI fell behind)";
    if (link_->samplesUndecodable() > 0)
      text += ", " + std::to_string(link_->samplesUndecodable()) + " undecodable";
  }
  if (simTeam_) // --robots N: how many of the team view's rows are connected
  {
    int connected = 0;
    for (int robot = 0; robot < team_->robotCount(); ++robot)
      connected += team_->cell(robot, "state").startsWith("connected") ? 1 : 0;
    text +=
        ", team of " + std::to_string(simTeam_->size()) + " (" + std::to_string(connected) + " connected)";
  }
  if (log_) text += ", " + std::to_string(log_->frames.size()) + " frames";
  if (!list_.scenario.empty()) text += ", scenario " + list_.scenario;
  if (!lastError_.empty()) text += "; error: " + lastError_;
  return q(text);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
  QSettings settings("NaoMotionFramework", "DebugGui");
  settings.setValue("geometry", saveGeometry());
  settings.setValue("windowState", saveState(layoutVersion));
  link_.reset();
  stopChildren();
  event->accept();
}
} // namespace nao::gui
