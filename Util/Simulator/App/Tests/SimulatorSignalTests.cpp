// Ctrl-C and SIGTERM stop the simulator cleanly: the robot (in-process, the robot binary as its child, or a served
// client) stops and closes its log, and the CSV, summary and plots cover the time simulated; the simulator then
// ends by the same signal (status 130 or 143 in a shell), so a script that ran it stops too.
#include "Tools/Testing/RunCommand.h"
#include "Tools/Testing/TemporaryFolder.h"
#include "Util/Simulator/Run/RunRecorder.h"
#include "Util/Simulator/Run/RunSummary.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <unistd.h>

using namespace nao;
using namespace nao::test;

namespace
{
struct Scratch : TemporaryFolder
{
  explicit Scratch(const std::string& name) : TemporaryFolder("sim-signal-" + name) {}
  /// `script` run by bash in this folder.
  CommandResult run(const std::string& script) const { return runScript(path, "script.sh", script + "\n"); }
};

const std::string simulator = NAO_SIMULATOR_BINARY, robotBinary = NAO_ROBOT_BINARY,
                  logTool = NAO_LOG_TOOL_BINARY;

/// Waits (in the shell) until the run has reported two progress lines: at least one simulated second has run.
const std::string waitForProgress =
    "for i in $(seq 600); do [ \"$(wc -l < progress.txt)\" -ge 2 ] && break; sleep 0.05; done; ";

/// The outputs a stopped run left in `folder`: readable, consistent, and covering what was simulated.
void expectCompleteOutputs(const std::filesystem::path& folder, const std::string& scenario, bool withLog)
{
  const SimulationResult summary = readSummary(folder / "summary.csv");
  EXPECT_TRUE(summary.stopped);
  EXPECT_EQ(summary.scenario, scenario);
  EXPECT_GE(summary.simulatedSeconds, 1.0) << "stopped after the first progress report";
  EXPECT_LT(summary.simulatedSeconds, 600.0) << "stopped before --minutes 10";
  const std::vector<RunSample> samples = readSamples(folder / (scenario + ".csv"));
  ASSERT_FALSE(samples.empty());
  // One row every 0.12 s from 0 to the end: nothing cut off, nothing beyond what was simulated.
  EXPECT_NEAR(samples.back().time, summary.simulatedSeconds, 0.12 + 1e-6);
  EXPECT_NEAR(static_cast<double>(samples.size()), summary.simulatedSeconds / 0.12, 1.5);
  for (const char* plot : {"currents.png", "temperatures.png", "stiffness.png"})
  {
    ASSERT_TRUE(std::filesystem::exists(folder / plot)) << plot;
    EXPECT_GT(std::filesystem::file_size(folder / plot), 1000u) << plot;
  }
  if (withLog)
  {
    const CommandResult info = runCommand(logTool + " info " + (folder / (scenario + ".log")).string());
    EXPECT_EQ(info.status, 0) << info.output;
    EXPECT_NE(info.output.find("closed properly: yes"), std::string::npos) << info.output;
  }
}
} // namespace

TEST(SimulatorSignals, CtrlCStopsARunWithTheRobotInProcess)
{
  const Scratch scratch("inprocess");
  const CommandResult result = scratch.run(
      simulator + " run stand --minutes 10 --output out --progress-fd 3 3> progress.txt & pid=$!; " +
      waitForProgress + "kill -INT $pid; wait $pid; echo simulator-status=$?");
  EXPECT_NE(result.output.find("simulator-status=130"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("stopped (Ctrl-C or SIGTERM) after"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("Simulator: stopped by signal 2"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("LKneePitch"), std::string::npos) << "the table is printed";
  expectCompleteOutputs(scratch.path / "out", "stand", true);
}

TEST(SimulatorSignals, CtrlCInATerminalStopsTheSimulatorAndTheRobotBinary)
{
  // A terminal's Ctrl-C signals the whole foreground process group: the simulator and its robot binary.
  const Scratch scratch("binary");
  const CommandResult result =
      scratch.run("set -m; " + simulator + " run stand --minutes 10 --output out --robot-binary " +
                  robotBinary + " --progress-fd 3 3> progress.txt & pid=$!; " + waitForProgress +
                  "kill -INT -- -$pid; wait $pid; echo simulator-status=$?");
  EXPECT_NE(result.output.find("simulator-status=130"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("stopped (Ctrl-C or SIGTERM) after"), std::string::npos) << result.output;
  EXPECT_EQ(result.output.find("the robot left the simulation"), std::string::npos) << result.output;
  expectCompleteOutputs(scratch.path / "out", "stand", true);
}

TEST(SimulatorSignals, SigtermStopsTheSimulatorAndItStopsItsRobotBinary)
{
  const Scratch scratch("sigterm");
  const CommandResult result =
      scratch.run(simulator + " run sit --minutes 10 --output out --robot-binary " + robotBinary +
                  " --progress-fd 3 3> progress.txt & pid=$!; " + waitForProgress +
                  "kill -TERM $pid; wait $pid; echo simulator-status=$?");
  EXPECT_NE(result.output.find("simulator-status=143"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("nao: stopped by signal 15"), std::string::npos)
      << "the robot binary got SIGTERM from the simulator:\n"
      << result.output;
  expectCompleteOutputs(scratch.path / "out", "sit", true);
}

TEST(SimulatorSignals, CtrlCStopsServeAndItsClient)
{
  const Scratch scratch("serve");
  const std::string socket = (scratch.path / "lola.sock").string();
  // Ctrl-C in the terminal that runs both, once the client's log passed 2 MB: its header alone is about 0.2 MB and
  // the stand adds about 0.65 MB a simulated second, so the client has run for about 2.8 s (a threshold below the
  // header let a slow machine stop it before its first frame). The client's log shows that it ran and closed properly.
  const CommandResult result = scratch.run(
      simulator + " serve stand --socket " + socket + " --lockstep --output out & serve=$!; " +
      "for i in $(seq 600); do [ -S " + socket + " ] && break; sleep 0.05; done; " + robotBinary +
      " --scenario stand --no-debug --lola-socket " + socket + " --log client.log & client=$!; " +
      "for i in $(seq 1200); do [ \"$(stat -c %s client.log 2> /dev/null || echo 0)\" -gt 2000000 ] && "
      "break; "
      "sleep 0.05; done; kill -INT $serve $client; wait $client; echo client-status=$?; wait $serve; "
      "echo serve-status=$?");
  EXPECT_NE(result.output.find("client-status=0"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("serve-status=130"), std::string::npos) << result.output;
  const SimulationResult summary = readSummary(scratch.path / "out" / "summary.csv");
  EXPECT_TRUE(summary.stopped);
  EXPECT_GE(summary.simulatedSeconds, 1.0) << "stopped after the client's log passed 2 MB";
  const CommandResult info = runCommand(logTool + " info " + (scratch.path / "client.log").string());
  EXPECT_NE(info.output.find("closed properly: yes"), std::string::npos) << info.output;
}

TEST(SimulatorSignals, CtrlCStopsAnEnsembleAndItReportsWhatRan)
{
  // Both robots run at once; once both logs grow past 2 MB (each robot has connected and run for about 3 s: the
  // stand's log takes about 0.6 MB a simulated second after a header of about 0.2 MB, so the 1 s asserted below holds while
  // the log's rate stays below three times that), Ctrl-C reaches the whole process group: every robot's process
  // writes its outputs, the ensemble reports them and ends by the signal.
  const Scratch scratch("ensemble");
  const CommandResult result = scratch.run(
      "set -m; " + simulator +
      " run stand --robots 2 --jobs 2 --minutes 10 --robot-logs --no-plots --output out & pid=$!; "
      "for i in $(seq 1200); do [ \"$(stat -c %s out/robot-1/stand.log 2> /dev/null || echo 0)\" -gt 2000000 "
      "] && "
      "[ \"$(stat -c %s out/robot-2/stand.log 2> /dev/null || echo 0)\" -gt 2000000 ] && break; sleep 0.05; "
      "done; "
      "kill -INT -- -$pid; wait $pid; echo simulator-status=$?");
  EXPECT_NE(result.output.find("simulator-status=130"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("out: stand, 2 robots"), std::string::npos) << result.output;
  EXPECT_EQ(result.output.find("robot runs failed"), std::string::npos) << result.output;
  for (const char* robot : {"robot-1", "robot-2"})
  {
    const SimulationResult summary = readSummary(scratch.path / "out" / robot / "summary.csv");
    EXPECT_TRUE(summary.stopped) << robot;
    EXPECT_GT(summary.simulatedSeconds, 1.0) << robot;
    EXPECT_LT(summary.simulatedSeconds, 600.0) << robot;
  }
}
