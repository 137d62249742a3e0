// The DebugGui program itself against a hostile robot and the signals a terminal or an IDE sends (issue 27),
// headless: `--quit-after` under a flood of data, a `refused` reply's escape sequences on the terminal, and
// SIGINT, SIGHUP, SIGTERM during a simulation (the simulator, the robot binary and the temporary folder must go).
#include "Util/DebugGui/Tests/DebugGuiTestSupport.h"
#include "Util/DebugGui/Tests/FakeRobot.h"
#include <csignal>

using namespace nao;
using namespace nao::gui;
using namespace nao::gui::test;

namespace
{
/// The DebugGui program, headless, with scratch settings (those of this test program) and temporary folders in
/// `temporary` when given.
struct Gui
{
  QProcess process;
  explicit Gui(const QStringList& arguments, const std::filesystem::path& temporary = {})
  {
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert("QT_QPA_PLATFORM", "offscreen");
    if (!temporary.empty()) environment.insert("TMPDIR", QString::fromStdString(temporary.string()));
    process.setProcessEnvironment(environment);
    process.start(NAO_DEBUG_GUI_BINARY, arguments);
    EXPECT_TRUE(process.waitForStarted(10000)) << process.errorString().toStdString();
  }
  ~Gui()
  {
    if (process.state() == QProcess::NotRunning) return;
    process.kill();
    process.waitForFinished(5000);
  }
};

/// The children of a process that still run (not exited, not a zombie): pid -> command name.
std::map<pid_t, std::string> childrenOf(pid_t parent)
{
  std::map<pid_t, std::string> children;
  for (const auto& entry : std::filesystem::directory_iterator("/proc"))
  {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    // stat: "pid (comm) state ppid ..."; comm may hold spaces and parentheses: read from the last ')'.
    const std::string stat = readFile(entry.path() / "stat");
    const auto close = stat.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(stat.substr(close + 1));
    char state = 0;
    pid_t ppid = 0;
    rest >> state >> ppid;
    if (ppid == parent && state != 'Z')
      children[std::stoi(name)] = stat.substr(stat.find('(') + 1, close - stat.find('(') - 1);
  }
  return children;
}

/// Whether a process runs (a zombie has ended).
bool running(pid_t pid)
{
  const std::string stat = readFile("/proc/" + std::to_string(pid) + "/stat");
  const auto close = stat.rfind(')');
  return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z';
}
} // namespace

TEST(DebugGuiProcess, QuitAfterEndsTheGuiDuringAFloodOfDataItDoesNotKnow)
{
  application();
  FakeRobot::Behaviour behaviour;
  behaviour.flood = "NoSuchRepresentation";
  FakeRobot robot(behaviour);
  Gui gui({"--connect", QString("127.0.0.1:%1").arg(robot.port()), "--quit-after", "2"});
  const bool finished = gui.process.waitForFinished(20000);
  EXPECT_TRUE(finished) << "DebugGui still ran 18 s after --quit-after 2";
  const std::string output = gui.process.readAll().toStdString();
  EXPECT_GT(robot.dataSent(), 10000u) << output;
  if (!finished) return;
  EXPECT_EQ(gui.process.exitCode(), 0) << output;
  EXPECT_NE(output.find("DebugGui: ready: 127.0.0.1:"), std::string::npos) << output;
}

TEST(DebugGuiProcess, ARefusedRepliesEscapeSequencesArePrintedWrittenOut)
{
  application();
  FakeRobot::Behaviour behaviour;
  behaviour.refusal = "no\x1b[2J\x1b]0;owned\x07$ \xc2\x9b"
                      "2J";
  FakeRobot robot(behaviour);
  Gui gui({"--connect", QString("127.0.0.1:%1").arg(robot.port()), "--token", "guess", "--quit-after", "1"});
  ASSERT_TRUE(gui.process.waitForFinished(20000));
  const std::string out = gui.process.readAllStandardOutput().toStdString(),
                    err = gui.process.readAllStandardError().toStdString();
  EXPECT_EQ(gui.process.exitCode(), 1) << "the source failed";
  EXPECT_NE(out.find("refused the connection: no\\x1b[2J\\x1b]0;owned\\x07$ \\xc2\\x9b2J"), std::string::npos)
      << out;
  for (const std::string& text : {out, err})
  {
    EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
    EXPECT_EQ(text.find('\x07'), std::string::npos) << text;
    EXPECT_EQ(text.find("\xc2\x9b"), std::string::npos) << text;
  }
}

TEST(DebugGuiProcess, SigintSighupAndSigtermEndTheGuiItsSimulatorItsRobotAndItsTemporaryFolder)
{
  application();
  // SIGKILL cannot be handled: the kernel ends the children then (PR_SET_PDEATHSIG); the folder stays.
  for (const int signal : {SIGINT, SIGHUP, SIGTERM, SIGKILL})
  {
    SCOPED_TRACE(::strsignal(signal));
    const std::filesystem::path temporary =
        std::filesystem::temp_directory_path() /
        ("DebugGuiTests-signals-" + std::to_string(::getpid()) + "-" + std::to_string(signal));
    std::filesystem::create_directories(temporary);
    std::map<pid_t, std::string> children;
    {
      Gui gui({"--sim", "stand"}, temporary);
      const pid_t pid = static_cast<pid_t>(gui.process.processId());
      // The simulator and the robot binary it starts once the simulator's socket is open.
      const bool started = waitFor(
          [&]
          {
            children = childrenOf(pid);
            return children.size() >= 2 || gui.process.state() == QProcess::NotRunning;
          },
          60);
      ASSERT_TRUE(started && children.size() == 2) << gui.process.readAll().toStdString();
      std::this_thread::sleep_for(std::chrono::milliseconds(500)); // the robot binary up and connected
      ::kill(pid, signal);
      const bool ended = gui.process.waitForFinished(20000);
      EXPECT_TRUE(ended) << "the GUI still ran 20 s after the signal";
      if (ended && signal != SIGKILL)
      {
        EXPECT_EQ(gui.process.exitCode(), 128 + signal) << gui.process.readAll().toStdString();
      }
    }
    EXPECT_TRUE(waitFor(
        [&]
        {
          return std::none_of(children.begin(), children.end(),
                              [](const auto& child) { return running(child.first); });
        },
        5));
    for (const auto& [child, name] : children)
      if (running(child))
      {
        ADD_FAILURE() << name << " (pid " << child << ") still runs after its GUI ended";
        ::kill(child, SIGKILL);
      }
    if (signal == SIGKILL)
    {
      std::filesystem::remove_all(temporary);
      continue;
    }
    std::vector<std::string> left;
    for (const auto& entry : std::filesystem::directory_iterator(temporary)) // (Qt's runtime-<user> may stay)
      if (entry.path().filename().string().starts_with("DebugGui-"))
        left.push_back(entry.path().filename().string());
    EXPECT_TRUE(left.empty()) << "left in " << temporary << ": " << (left.empty() ? "" : left.front());
    std::filesystem::remove_all(temporary);
  }
}
