// The robot binary from outside. A mistyped robot, scenario, overlay module or overlay key stops start-up with the
// path, the names that exist and the closest one (a robot's calibration must never silently vanish); hostile files
// (a FIFO, a link to a device) are refused at once; a LoLA that goes away for good ends the binary with a reason and
// status 3; Ctrl-C stops it cleanly; a taken debug port suggests a free one.
#include "Tools/Build/Sanitized.h"
#include "Tools/Testing/RunCommand.h"
#include <arpa/inet.h>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <sstream>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <thread>
#include <unistd.h>

using namespace nao::test;

namespace
{
CommandResult runNao(const std::string& arguments)
{
  return runCommand(std::string(NAO_ROBOT_BINARY) + " --body standin --frames 5 --no-debug " + arguments);
}

/// A copy of Config/ with one robot overlay file added.
struct ConfigWithOverlay
{
  std::filesystem::path directory;
  std::filesystem::path overlay;
  ConfigWithOverlay(const std::string& robot, const std::string& module, const std::string& text)
  {
    directory = std::filesystem::temp_directory_path() / ("nao-wrong-names-" + std::to_string(::getpid()));
    std::filesystem::remove_all(directory);
    std::filesystem::copy(NAO_CONFIG_DIR, directory, std::filesystem::copy_options::recursive);
    overlay = directory / "Robots" / robot / "Modules" / (module + ".toml");
    std::filesystem::create_directories(overlay.parent_path());
    std::ofstream(overlay) << text;
  }
  ~ConfigWithOverlay() { std::filesystem::remove_all(directory); }
};
} // namespace

TEST(WrongNames, AnUnknownRobotStopsStartUpAndListsTheRobots)
{
  const CommandResult unknown = runNao("--scenario stand --robot Nao99");
  EXPECT_NE(unknown.status, 0);
  // The message says where the name came from (no file position to give: none is made up).
  EXPECT_NE(unknown.output.find("nao: command line --robot: robot 'Nao99': no folder"), std::string::npos)
      << unknown.output;
  EXPECT_NE(unknown.output.find("robots: Default, Nao01"), std::string::npos) << unknown.output;

  const CommandResult typo = runNao("--scenario stand --robot Defualt");
  EXPECT_NE(typo.status, 0);
  EXPECT_NE(typo.output.find("did you mean 'Default'?"), std::string::npos) << typo.output;

  EXPECT_EQ(runNao("--scenario stand --robot Nao01").status, 0) << "a robot with a folder runs";
}

TEST(WrongNames, AMistypedRobotInTheSettingsNamesTheFile)
{
  const auto directory =
      std::filesystem::temp_directory_path() / ("nao-settings-robot-" + std::to_string(::getpid()));
  std::filesystem::remove_all(directory);
  std::filesystem::copy(NAO_CONFIG_DIR, directory, std::filesystem::copy_options::recursive);
  std::ifstream in(directory / "settings.toml");
  std::string settings((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t at = settings.find("robot = \"Default\"");
  ASSERT_NE(at, std::string::npos);
  settings.replace(at, 17, "robot = \"Defualt\"");
  std::ofstream(directory / "settings.toml") << settings;
  const CommandResult typo = runNao("--scenario stand --config " + directory.string());
  EXPECT_NE(typo.status, 0);
  EXPECT_NE(typo.output.find(directory.string() + "/settings.toml: robot: robot 'Defualt': no folder"),
            std::string::npos)
      << typo.output;
  EXPECT_NE(typo.output.find("did you mean 'Default'?"), std::string::npos) << typo.output;
  std::filesystem::remove_all(directory);
}

TEST(WrongNames, AnUnknownScenarioListsTheScenarios)
{
  const CommandResult typo = runNao("--scenario stnd");
  EXPECT_NE(typo.status, 0);
  EXPECT_NE(typo.output.find("scenario file not found (did you mean 'stand'?)"), std::string::npos)
      << typo.output;
  EXPECT_NE(typo.output.find("scenarios: "), std::string::npos) << typo.output;
  EXPECT_EQ(typo.output.find("scenarios: default"), std::string::npos) << "default.toml is not a scenario";
}

TEST(WrongNames, AnOverlayOfAModuleThatDoesNotExistNamesItsFile)
{
  const ConfigWithOverlay config("Nao01", "EnergySavingProvidr", "maxGearStepLegs = 0.1\n");
  const CommandResult result = runNao("--scenario stand --robot Nao01 --config " + config.directory.string());
  EXPECT_NE(result.status, 0);
  EXPECT_NE(result.output.find(config.overlay.string() + ": the robot overlay names no module"),
            std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("did you mean 'EnergySavingProvider'?"), std::string::npos) << result.output;
}

TEST(WrongNames, AnOverlayKeyThatMatchesNothingNamesItsFileEvenIfTheModuleDoesNotRun)
{
  // standin runs without EnergySavingProvider: its overlay is checked all the same.
  const ConfigWithOverlay config("Nao01", "EnergySavingProvider", "\nmaxGearStepLeg = 0.1\n");
  const CommandResult result =
      runNao("--scenario standin --robot Nao01 --config " + config.directory.string());
  EXPECT_NE(result.status, 0);
  EXPECT_NE(result.output.find(config.overlay.string() + ":2:1"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("did you mean 'maxGearStepLegs'?"), std::string::npos) << result.output;
}

TEST(HostileFiles, AFifoScenarioAndAUrdfLinkedToADeviceStopStartUpAtOnce)
{
  const ConfigWithOverlay config("Nao01", "StandPoseProvider", "");
  ASSERT_EQ(::mkfifo((config.directory / "Scenarios" / "fifo.toml").c_str(), 0600), 0);
  CommandResult result = runNao("--scenario fifo --config " + config.directory.string());
  EXPECT_EQ(result.status, 1);
  EXPECT_NE(result.output.find("fifo.toml:1:1: cannot read: it is a FIFO, not a regular file"),
            std::string::npos)
      << result.output;
  std::filesystem::remove(config.directory / "Robots" / "Default" / "nao-v6.urdf");
  std::filesystem::create_symlink("/dev/zero", config.directory / "Robots" / "Default" / "nao-v6.urdf");
  result = runNao("--scenario stand --config " + config.directory.string());
  EXPECT_EQ(result.status, 1);
  EXPECT_NE(result.output.find("nao-v6.urdf:1:1: cannot read: it is a device, not a regular file"),
            std::string::npos)
      << result.output;
}

TEST(LolaLost, TheBinarySaysWhyAndExitsWithStatus3)
{
  // A LoLA server that accepts the robot, then goes away for good.
  const auto socketPath =
      std::filesystem::temp_directory_path() / ("nao-lola-lost-" + std::to_string(::getpid()));
  std::filesystem::remove(socketPath);
  const int server = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(server, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, socketPath.c_str(), sizeof address.sun_path - 1);
  ASSERT_EQ(::bind(server, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(::listen(server, 1), 0);
  CommandResult result;
  std::thread robot(
      [&]
      {
        result = runCommand(std::string(NAO_ROBOT_BINARY) + " --scenario stand --no-debug --lola-socket " +
                            socketPath.string());
      });
  const int client = ::accept(server, nullptr, nullptr);
  EXPECT_GE(client, 0);
  ::close(client);
  ::close(server);
  std::filesystem::remove(socketPath);
  robot.join();
  EXPECT_EQ(result.status, 3) << result.output;
  EXPECT_NE(result.output.find("LoLA at " + socketPath.string() + " was lost (no LoLA server at"),
            std::string::npos)
      << result.output;
}

TEST(Signals, CtrlCStopsTheRobotBinaryCleanly)
{
  const auto folder = std::filesystem::temp_directory_path() / ("nao-sigint-" + std::to_string(::getpid()));
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  const std::string logTool = std::string(NAO_LOG_TOOL_BINARY);
  const CommandResult result = runCommand(std::string(NAO_ROBOT_BINARY) +
                                              " --body standin --realtime --frames 100000 --no-debug --log "
                                              "run.log & pid=$!; sleep 1; kill -INT $pid; "
                                              "wait $pid; echo nao-status=$?; " +
                                              logTool + " info run.log",
                                          folder.string());
  EXPECT_NE(result.output.find("nao: stopped by signal 2"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("nao-status=0"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("Per-module timing"), std::string::npos) << "the tables are printed";
  EXPECT_NE(result.output.find("closed properly: yes"), std::string::npos) << "the log is closed";
  std::filesystem::remove_all(folder);
}

TEST(Signals, APortClashSuggestsAFreePort)
{
  const int holder = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(holder, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(holder, reinterpret_cast<sockaddr*>(&address), sizeof address), 0); // any free port
  ASSERT_EQ(::listen(holder, 1), 0);
  socklen_t length = sizeof address;
  ASSERT_EQ(::getsockname(holder, reinterpret_cast<sockaddr*>(&address), &length), 0);
  const CommandResult result =
      runCommand(std::string(NAO_ROBOT_BINARY) + " --body standin --frames 5 --debug-port " +
                 std::to_string(ntohs(address.sin_port)));
  ::close(holder);
  EXPECT_EQ(result.status, 1);
  EXPECT_NE(result.output.find("--debug-port 0 picks a free port"), std::string::npos) << result.output;
}

namespace
{
/// Whether this process may make a thread SCHED_FIFO (root, CAP_SYS_NICE or an rtprio limit): then the robot
/// binary must be granted it too.
bool fifoPermittedHere()
{
  bool permitted = false;
  std::thread probe(
      [&]
      {
        sched_param parameters{};
        parameters.sched_priority = 40;
        permitted = ::pthread_setschedparam(::pthread_self(), SCHED_FIFO, &parameters) == 0;
      });
  probe.join();
  return permitted;
}

/// Fields of /proc/<pid>/task/<tid>/stat after the command name, numbered as in proc(5) (the first is field 3).
std::vector<std::string> statFields(const std::string& line)
{
  std::vector<std::string> fields(3);
  std::istringstream rest(line.substr(line.rfind(')') + 1));
  for (std::string field; rest >> field;)
    fields.push_back(field);
  return fields;
}
} // namespace

TEST(RealTimeMotion, WhereNotPermittedOneWarningAndTheRobotRunsNormally)
{
  // Without privileges (as root: as the user nobody, all capabilities dropped) and with no real-time priority and
  // a small locked-memory limit, as on a machine nobody configured.
  const std::string unprivileged =
      ::geteuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all " : "";
  const CommandResult result =
      runCommand("prlimit --rtprio=0:0 --memlock=65536:65536 " + unprivileged + NAO_ROBOT_BINARY +
                 " --body standin --frames 20 --no-debug "
                 "--motion-priority 40");
  EXPECT_EQ(result.status, 0) << result.output;
  const std::string warning = "nao: warning: real-time motion thread not fully granted";
  const auto first = result.output.find(warning);
  ASSERT_NE(first, std::string::npos) << result.output;
  EXPECT_EQ(result.output.find(warning, first + 1), std::string::npos) << "one warning only";
  EXPECT_NE(result.output.find("SCHED_FIFO priority 40 was refused"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("memory is not locked"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("runs at normal priority"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("Per-module timing over the last 16 frames (of 20)"), std::string::npos)
      << "all 20 frames ran:\n"
      << result.output;
}

TEST(RealTimeMotion, WherePermittedTheMotionThreadRunsFifoWithMemoryLocked)
{
  const bool permitted = fifoPermittedHere();
  const auto folder = std::filesystem::temp_directory_path() / ("nao-realtime-" + std::to_string(::getpid()));
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  // While it runs (1.8 s of real-time frames), the kernel's view of its Motion thread and of its locked memory.
  const CommandResult result = runCommand(
      std::string(NAO_ROBOT_BINARY) +
          " --body standin --realtime --frames 150 --no-debug --motion-priority 40 > out.txt 2>&1 & pid=$!; "
          "sleep 0.8; for task in /proc/$pid/task/*; do "
          "if [ \"$(cat $task/comm)\" = Motion ]; then echo \"motion-stat: $(cat $task/stat)\"; fi; "
          "if [ \"$(cat $task/comm)\" = Debug ]; then echo \"debug-stat: $(cat $task/stat)\"; fi; done; "
          "grep VmLck /proc/$pid/status; wait $pid; echo nao-status=$?; cat out.txt",
      folder.string());
  std::filesystem::remove_all(folder);
  EXPECT_NE(result.output.find("nao-status=0"), std::string::npos) << result.output;
  const auto line = [&](const std::string& prefix)
  {
    const auto start = result.output.find(prefix);
    return start == std::string::npos ? std::string()
                                      : result.output.substr(start, result.output.find('\n', start) - start);
  };
  const std::string motion = line("motion-stat: "), debug = line("debug-stat: "), locked = line("VmLck:");
  ASSERT_FALSE(motion.empty()) << "no Motion thread seen:\n" << result.output;
  ASSERT_FALSE(debug.empty()) << result.output;
  const auto motionFields = statFields(motion), debugFields = statFields(debug);
  ASSERT_GT(motionFields.size(), 41u) << motion;
  constexpr std::size_t priorityField = 40, policyField = 41; // proc(5): rt_priority, policy
  EXPECT_EQ(debugFields[policyField], "0") << "the Debug thread stays SCHED_OTHER";
  if (permitted)
  {
    EXPECT_EQ(motionFields[policyField], std::to_string(SCHED_FIFO)) << motion;
    EXPECT_EQ(motionFields[priorityField], "40") << motion;
    std::istringstream kilobytes(locked.substr(locked.find(':') + 1));
    std::size_t lockedKb = 0;
    kilobytes >> lockedKb;
#if NAO_SANITIZED
    EXPECT_NE(result.output.find("a sanitizer build"), std::string::npos) << result.output;
#else
    EXPECT_GT(lockedKb, 1000u) << "memory is locked: " << locked;
    EXPECT_EQ(result.output.find("warning"), std::string::npos) << result.output;
#endif
  }
  else
  {
    EXPECT_EQ(motionFields[policyField], "0") << motion;
    EXPECT_NE(result.output.find("nao: warning: real-time motion thread not fully granted"),
              std::string::npos)
        << result.output;
  }
  EXPECT_NE(result.output.find("(of 150)"), std::string::npos) << result.output;
}

TEST(RealTimeMotion, WithoutTheOptionNothingChanges)
{
  const CommandResult result = runNao("");
  EXPECT_EQ(result.status, 0);
  EXPECT_EQ(result.output.find("warning"), std::string::npos) << result.output;
  EXPECT_NE(runNao("--motion-priority 99").status, 0) << "99 is left to the kernel's watchdogs";
}
