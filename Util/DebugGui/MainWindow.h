#pragma once
// The debug GUI's window: one source at a time (a robot's debug channel, a simulator with the robot binary it
// starts, or a log) feeding dockable views whose layout is saved per user (QSettings). Several windows side by side
// show several sources (File → New connection…, the Window menu switches between them).
#include "Util/DebugGui/ModuleGraphView.h"
#include "Util/DebugGui/ParameterEditor.h"
#include "Util/DebugGui/PlotView.h"
#include "Util/DebugGui/RobotLink.h"
#include "Util/DebugGui/SeriesStore.h"
#include "Util/DebugGui/Views.h"
#include <QMainWindow>
#include <QProcess>
#include <QTemporaryDir>
#include <memory>

class QTimer;
class QToolBar;
class QMenu;

namespace nao::gui
{
class RobotView3D;
class SensorStrip;
class SimulatedTeam;
class TeamView;

struct GuiOptions
{
  std::string connect; ///< host[:port]
  std::string token;
  double wait = 0;                ///< s to keep trying to connect
  std::string log;                ///< a log file to replay
  std::string sim;                ///< a scenario: starts `Simulator serve` and the robot binary
  std::string preset;             ///< robots.toml preset of the simulated robot
  int robots = 1;                 ///< --sim: robots in the team (SimulatedTeam.h); robot 0 in the views
  int worn = 0;                   ///< --sim: the last `worn` robots get the preset worn
  unsigned seed = 1;              ///< --sim: robot i's simulator draws its robot with seed + i
  std::vector<std::string> plots; ///< fields to plot at start ("Repr.leaf")
  std::vector<std::string> team;  ///< host:port of each robot in the team view
  std::filesystem::path config; ///< Config/ folder: parameter files, and for --sim the robot's configuration
  std::string robot; ///< overlay folder for "Save to robot overlay" (default: settings.toml's robot)
  std::string robotBinary, simulatorBinary;
};

class MainWindow : public QMainWindow
{
public:
  explicit MainWindow(GuiOptions options);
  ~MainWindow() override;

  void connectTo(const LinkTarget& target);
  bool openLog(const std::string& path);
  void startSimulation(const std::string& scenario);

  /// Plots a field in the main plot (the path of a double-click or a drop); subscribes as needed.
  void plotField(const std::string& field);
  /// View → New x–y plot: a dock whose first dropped field is x, the second y.
  XyPlotView* addXyPlot();
  /// Runs the GUI's timer work now: drains the link, refreshes the views.
  void pump();

  /// An event the simulator applied (its reply "applied <line> at frame N (T s)"): the event log.
  struct AppliedEvent
  {
    double time = 0; ///< s of simulated time (T): a restart is an event like the others, replayed at its time
    std::string line; ///< the control line that repeats it
  };
  /// --sim: what the simulator last reported on its control channel (`Simulator serve --control`).
  struct SimulationState
  {
    std::string scenario;              ///< the scenario it runs
    std::vector<AppliedEvent> applied; ///< since the simulator started, in order (MainWindowEventLog.cpp)
    std::uint64_t notes = 0;           ///< events the robot's running log took as notes
    bool running = false;              ///< a simulator process is up
    bool paused = false;
    std::uint64_t frame = 0; ///< LoLA packets sent when it paused (the robot's last frame number + 1)
    double speed = 1;        ///< times real time, as the simulator confirmed it
    std::string lastReply, lastError;
    std::uint64_t replies = 0; ///< control lines received
    std::uint64_t truths = 0;  ///< truth lines received (SimulationTruth.h)
  };
  const SimulationState& simulation() const { return simulation_; }
  /// File → Save events as scenario…: the running scenario's file with an [[Script.events]] entry of kind
  /// "control" appended for each applied event, so that `Simulator run` repeats the run. An error text, or empty.
  std::string saveEventsAsScenario(const std::filesystem::path& path) const;
  /// Simulation → Pause / Step / Speed: commands to the simulator's control channel (its stdin).
  void pauseSimulation(bool pause);
  void stepSimulation(int frames);
  void setSimulationSpeed(double factor);
  inline static constexpr int truthRate = 25; ///< Hz of the simulator's truth lines (`truth <hz>`)
  /// Simulation → Events: the push of the tool bar's impulse (N·s) along (x, y) of the world frame as the control
  /// line `push <fx> <fy> 0 for <pushSeconds>` (a force of impulse / pushSeconds on the torso).
  static std::string pushLine(double x, double y, double impulse);
  inline static constexpr double pushSeconds = 0.1; ///< s, as the scenario scripts' pushes

  /// File → New connection…: another window with its own source, side by side with this one.
  MainWindow* newWindow();
  /// Every open window of this process, in the order they were opened (the Window menu lists them).
  static const std::vector<MainWindow*>& windows();

  /// Whether the chosen source works (connected, or a log loaded) and nothing failed; what happened.
  bool healthy() const { return ready_ && lastError_.empty(); }
  bool ready() const { return ready_; }
  const std::string& lastError() const { return lastError_; }
  QString statusLine() const;

  PlotView& plot() { return *plot_; }
  JointTable& joints() { return *joints_; }
  /// The sensors that are not joints, above the joint table (SensorHealth).
  SensorStrip& sensors() { return *sensors_; }
  ParameterEditor& parameters() { return *parameters_; }
  Console& console() { return *console_; }
  LogTimeline& timeline() { return *timeline_; }
  ModuleGraphView& graph() { return *graph_; }
  RepresentationTree& tree() { return *tree_; }
  SeriesStore& store() { return store_; }
  RobotLink* link() { return link_.get(); }
  RobotView3D& robotView() { return *robotView_; }
  /// The team view (a dock): several robots' key values, one row each; this adds a robot ("host:port").
  TeamView& team() { return *team_; }
  void addTeamRobot(const std::string& hostPort);
  /// --sim --robots N with N > 1: robots 1..N-1 and the events' target; nullptr for one robot.
  SimulatedTeam* simulatedTeam() { return simTeam_.get(); }

protected:
  void closeEvent(QCloseEvent* event) override;

private:
  QDockWidget* dock(const QString& title, const QString& name, QWidget* widget, Qt::DockWidgetArea area);
  /// The docks a caller sizes after the menus are built.
  struct MainDocks
  {
    QDockWidget* representations = nullptr;
    QDockWidget* joints = nullptr;
    QDockWidget* view3d = nullptr;
  };
  /// The plot in the centre, the docks around it (tree, joints and sensors, graph, parameters, console, team, 3D).
  MainDocks buildDocks();
  /// What the views ask of the window: plot a field, run a command, show a log's frame.
  void connectViews();
  /// A log's module graph (or why it has none) and its recorded parameters, read-only, in their views.
  void showLogGraphAndParameters();
  void buildMenus();
  void onConnected(const debug::ListReply& list);
  void onError(const std::string& message);
  void showFields();
  void runCommand(const std::string& line);
  void requestParameters(const std::string& module);
  void setParameter(const std::string& module, const std::string& key, const std::string& value);
  void stopChildren();
  void addPlotDock();
  void releaseFields(const std::vector<std::string>& fields);
  void buildSimulationMenu();
  void buildEventsMenu();
  /// --sim: the robot binary against the simulator's socket, connected once it prints its debug port.
  void startSimulatedRobot(const std::string& scenario, const QString& socket);
  /// Simulation → Events' battery, temperature, plant and fault menus (their dialogs and the Config/Sim lists).
  void buildEventSettingsMenus(QMenu* events);
  /// An action of the events menu `menu` named `name` (tests find it), on the events bar too if `onBar`.
  QAction* addEventAction(QMenu* menu, const char* name, const QString& title, std::function<void()> what,
                          const char* key = nullptr, bool onBar = false);
  void buildSimulatedTeam(); ///< --robots N > 1: the team's processes and the events' Target selector
  void enableSimulationControls(bool enable);
  void buildWindowMenu();
  static std::vector<MainWindow*>& windowList();
  void simulatorOutput(const QString& text);
  void simulatorCommand(const std::string& line);
  void simulatorTruth(const std::string& line); ///< a "truth: " line: into the store as truth and error
  /// A reply "applied <line> at frame N (T s)": into the event log, and a note for the robot's running log.
  void logAppliedEvent(const std::string& reply);
  void addEventLogActions(QMenu* file); ///< File → Save events as scenario…
  /// The representation a field's samples come from on the robot: its own, an error's estimate, none for truth.
  static std::string robotRepresentationOf(const std::string& field);

  GuiOptions options_;
  SeriesStore store_;
  std::unique_ptr<RobotLink> link_;
  std::unique_ptr<LoadedLog> log_;
  std::uint32_t logFrame_ = 0; ///< the frame number the timeline stands at (a log's parameters follow it)
  debug::ListReply list_;
  std::map<std::string, std::string> providers_;
  std::map<std::string, float> jointSubscriptions_; ///< representation -> Hz (0: every frame)
  std::map<std::string, int> pendingGets_;          ///< console `get <representation>`: print the next sample
  PlotView* plot_;
  std::vector<PlotView*> extraPlots_;
  std::vector<XyPlotView*> xyPlots_;
  PlotView* activePlot_ = nullptr;
  RepresentationTree* tree_;
  JointTable* joints_;
  SensorStrip* sensors_;
  ParameterEditor* parameters_;
  Console* console_;
  LogTimeline* timeline_;
  QDockWidget* timelineDock_ = nullptr;
  ModuleGraphView* graph_;
  RobotView3D* robotView_;
  TeamView* team_;
  QDockWidget* teamDock_ = nullptr;
  QTimer* timer_;
  bool ready_ = false;
  std::uint64_t pumps_ = 0, graphVersion_ = 0;
  bool timesSubscribed_ = false;
  std::string lastError_;
  std::string source_; ///< what the window shows, for the title and the status line
  // --sim: the simulator and the robot binary as child processes.
  std::unique_ptr<QTemporaryDir> simFolder_;
  QProcess* simulator_ = nullptr;
  QProcess* robot_ = nullptr;
  QString robotOutput_;
  QString simulatorLine_; ///< the simulator's output up to the next line end
  SimulationState simulation_;
  std::unique_ptr<SimulatedTeam> simTeam_; ///< --robots N > 1: the other robots' processes
  QToolBar* simulationBar_ = nullptr;
  QMenu* simulationMenu_ = nullptr;
  QToolBar* eventsBar_ = nullptr;
  double pushImpulse_ = 4.5; ///< N·s, the events tool bar's push (the fall scenarios' 45 N for 0.1 s)
};
} // namespace nao::gui
