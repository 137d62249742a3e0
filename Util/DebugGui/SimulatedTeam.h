#pragma once
// --sim <scenario> --robots N: a small team in simulation. The window runs robot 0 as for one robot (its simulator and
// robot binary, every view); this class runs robots 1..N-1, each a `Simulator serve <scenario> --control` of its own
// (its own LoLA socket and temporary folder, `--seed <seed + i>` so that the robots differ as an ensemble's do, the
// last --worn robots with `--preset worn`) with a robot binary against it, collects every robot's debug port for the
// team view, and sends the control lines: pause, resume, step and speed to every robot (the team stays in step),
// events to the robot or robots the Target selector names.
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

class QComboBox;
class QMenu;
class QTimer;
class QToolBar;

namespace nao::gui
{
struct GuiOptions;

/// A child that the GUI cannot stop itself (it was killed, it crashed) gets SIGTERM from the kernel when the GUI
/// ends; the window's stopChildren() stops it in every other case.
void endWithTheGui(QProcess& process);

class SimulatedTeam
{
public:
  struct Callbacks
  {
    std::function<void(const QString&)> print;     ///< a line for the console
    std::function<void(const std::string&)> error; ///< a failure of the team's start
    std::function<void(const std::vector<std::uint16_t>&)>
        allPorts; ///< every robot's debug port, robot 0 first
  };
  /// Whatever robot i's simulator last confirmed on its control channel (robots 1..N-1; robot 0: the window's).
  struct Control
  {
    bool paused = false;
    std::string lastReply;
    std::uint64_t replies = 0;
  };
  inline static constexpr int allRobots = -1; ///< target(): every robot

  SimulatedTeam(const GuiOptions& options, Callbacks callbacks);
  ~SimulatedTeam();

  /// The simulator arguments that make robot i differ (--seed, --preset); for one robot only what the options set.
  static QStringList simulatorArguments(const GuiOptions& options, int robot);
  /// Whether a control line goes to every robot whatever the target (pause, resume, step, speed).
  static bool forEveryRobot(const std::string& line);

  int size() const { return robots_; }
  /// Starts robots 1..N-1 (robot 0 is the window's).
  void start(const std::string& scenario);
  /// Stops every robot binary, then every simulator (a paused one is resumed first); removes their folders.
  void stop();
  /// A robot's debug port, as its binary printed it (the window reports robot 0's).
  void setPort(int robot, std::uint16_t port);
  const std::vector<std::uint16_t>& ports() const { return ports_; }

  /// Simulation → Target and the events tool bar's box: robot 0..N-1 or "all robots".
  void buildTargetSelector(QToolBar& bar, QMenu& menu);
  int target() const { return target_; }
  void setTarget(int target);
  /// Sends the line to robots 1..N-1 that it addresses; whether robot 0 (the window's simulator) gets it too.
  bool send(const std::string& line);
  const Control& control(int robot) const;
  /// The process ids of robots 1..N-1's simulators and robot binaries that run, for tests.
  std::vector<qint64> processIds() const;

private:
  struct Member
  {
    std::unique_ptr<QTemporaryDir> folder;
    std::unique_ptr<QProcess> simulator, robot;
    QString robotOutput, simulatorLine;
    Control control;
  };
  void startRobotBinary(int robot, const std::string& scenario);
  void simulatorOutput(int robot, const QString& text);
  void robotOutput(int robot, const QString& text);

  const GuiOptions& options_;
  Callbacks callbacks_;
  int robots_;
  std::vector<Member> members_; ///< index = robot; members_[0] stays empty (the window's)
  std::vector<std::uint16_t> ports_;
  bool portsAnnounced_ = false;
  std::unique_ptr<QTimer> poll_; ///< waits for the simulators' sockets
  int polls_ = 0;
  int target_ = 0;
  QComboBox* targetBox_ = nullptr;
  QMenu* targetMenu_ = nullptr;
};
} // namespace nao::gui
