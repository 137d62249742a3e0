#include "Util/Simulator/Run/RobotProcess.h"

#include "Framework/Robot.h"
#include "Platform/LoLA/LolaBody.h"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace nao
{
namespace
{
/// Motion frames the robot's logger may buffer, 0: the robot's own setting. A lock-step run goes far faster than real
/// time, and on a busy machine the logger falls behind and drops frames (it never holds up the motion thread): a
/// buffer for the whole run (up to 16384 frames, 3.3 simulated minutes, some 50 MB) drops none; longer runs may.
std::size_t logBufferFramesFor(const SimulationOptions& options)
{
  if (options.realTime) return 0;
  const double frames = options.minutes * 60.0 / 0.012 + 100.0; // and the frames until the robot stops
  return static_cast<std::size_t>(std::clamp(frames, 1024.0, 16384.0));
}
} // namespace

InProcessRobot::InProcessRobot(const SimulationOptions& options, const std::string& socketPath,
                               const std::filesystem::path& log)
{
  thread_ = std::thread(
      [=, this]
      {
        try
        {
          LolaBodyOptions bodyOptions;
          bodyOptions.socketPath = socketPath;
          bodyOptions.countWallClockGaps = options.realTime; // lock-step: wall-clock gaps say nothing
          bodyOptions.reconnectAttempts = 2;                 // when the simulator closes, end promptly
          bodyOptions.reconnectIntervalSeconds = 0.01;
          LolaBody body(bodyOptions);
          RobotOptions robotOptions;
          robotOptions.config = {options.configDirectory, options.robot};
          robotOptions.scenario = options.scenario;
          if (!log.empty()) robotOptions.log = log;
          if (const std::size_t frames = logBufferFramesFor(options)) robotOptions.logBufferFrames = frames;
          robotOptions.providerOverrides = options.providerOverrides;
          Robot robot(body, robotOptions);
          robot.run();
          bodyStatistics_ = body.statistics();
        }
        catch (...)
        {
          error_ = std::current_exception();
        }
        done_ = true;
      });
}

void InProcessRobot::join()
{
  if (thread_.joinable()) thread_.join();
}

void InProcessRobot::rethrow() const
{
  if (error_) std::rethrow_exception(error_);
}

ChildRobot::ChildRobot(const SimulationOptions& options, const std::string& socketPath,
                       const std::filesystem::path& log)
{
  std::vector<std::string> arguments = {options.robotBinary->string(),
                                        "--body",
                                        "lola",
                                        "--lola-socket",
                                        socketPath,
                                        "--config",
                                        options.configDirectory.string(),
                                        "--robot",
                                        options.robot,
                                        "--scenario",
                                        options.scenario,
                                        "--no-debug"};
  if (!log.empty()) arguments.insert(arguments.end(), {"--log", log.string()});
  if (const std::size_t frames = logBufferFramesFor(options); frames > 0 && !log.empty())
    arguments.insert(arguments.end(), {"--log-buffer-frames", std::to_string(frames)});
  for (const ProviderChoice& choice : options.providerOverrides)
    arguments.insert(arguments.end(), {"--provider", choice.representation + "=" + choice.provider});
  int output[2]; // O_CLOEXEC: not inherited by other children started meanwhile (the end would never come)
  if (::pipe2(output, O_CLOEXEC) != 0)
    throw std::runtime_error("cannot start " + options.robotBinary->string() + ": no pipe");
  pid_ = fork();
  if (pid_ < 0)
  {
    ::close(output[0]);
    ::close(output[1]);
    throw std::runtime_error("cannot start " + options.robotBinary->string());
  }
  if (pid_ == 0)
  {
    ::dup2(output[1], STDOUT_FILENO);
    ::close(output[0]);
    ::close(output[1]);
    std::vector<char*> argv;
    for (auto& argument : arguments)
      argv.push_back(argument.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    std::perror(argv[0]);
    _exit(127);
  }
  ::close(output[1]);
  output_ = std::thread(
      [this, fd = output[0]]
      {
        FILE* in = ::fdopen(fd, "r");
        if (!in)
        {
          ::close(fd);
          return;
        }
        char buffer[4096];
        std::string line;
        while (std::fgets(buffer, sizeof(buffer), in))
        {
          std::fputs(buffer, stdout);
          line += buffer;
          if (line.empty() || line.back() != '\n') continue; // a longer line: read on
          line.pop_back();
          if (auto statistics = parseLolaStatistics(line)) lolaStatistics_ = statistics;
          line.clear();
        }
        std::fflush(stdout);
        std::fclose(in);
      });
}

bool ChildRobot::exited()
{
  if (pid_ <= 0) return true;
  int status = 0;
  if (waitpid(pid_, &status, WNOHANG) != pid_) return false;
  exitStatus_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  pid_ = -1;
  return true;
}

void ChildRobot::stop()
{
  if (pid_ > 0) kill(pid_, SIGTERM);
}

void ChildRobot::join()
{
  if (pid_ > 0)
  {
    int status = 0;
    waitpid(pid_, &status, 0);
    exitStatus_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    pid_ = -1;
  }
  if (output_.joinable())
    output_.join(); // the pipe ends with the child (it starts nothing that keeps it open)
}
} // namespace nao
