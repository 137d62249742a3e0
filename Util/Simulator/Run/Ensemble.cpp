#include "Util/Simulator/Run/Ensemble.h"

#include "Util/Simulator/Run/RunRecorder.h"
#include "Util/Simulator/Run/RunSummary.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <poll.h>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace nao
{
namespace
{
constexpr int progressDescriptor = 3; ///< a robot's process writes "fraction\n" lines here

/// A running process and the pipe it reports its progress on.
struct Job
{
  std::size_t index = 0;
  pid_t pid = -1;
  int progressPipe = -1;
  std::string buffer;
  double progress = 0.0;
};

std::uint64_t seedOf(const EnsembleOptions& options, int index)
{
  return options.seed + static_cast<std::uint64_t>(index);
}

Job start(const ProcessJob& process, std::size_t index)
{
  std::filesystem::create_directories(process.folder);
  const std::string outputFile = (process.folder / "run.out").string();
  int pipeEnds[2];
  if (pipe(pipeEnds) != 0)
    throw std::runtime_error(std::string("cannot make a pipe: ") + std::strerror(errno));
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error(std::string("cannot start a process: ") + std::strerror(errno));
  if (pid == 0)
  {
    const int out = open(outputFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out >= 0)
    {
      dup2(out, STDOUT_FILENO);
      dup2(out, STDERR_FILENO);
    }
    dup2(pipeEnds[1], progressDescriptor);
    std::vector<std::string> arguments = process.command;
    arguments.insert(arguments.end(), {"--progress-fd", std::to_string(progressDescriptor)});
    std::vector<char*> argv;
    for (std::string& argument : arguments)
      argv.push_back(argument.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    std::perror(argv[0]);
    _exit(127);
  }
  close(pipeEnds[1]);
  return {index, pid, pipeEnds[0], {}, 0.0};
}

/// Reads what the job reported; false once its pipe is closed (the process ended).
bool readProgress(Job& job)
{
  char chunk[256];
  const ssize_t read = ::read(job.progressPipe, chunk, sizeof(chunk));
  if (read <= 0) return false;
  job.buffer.append(chunk, static_cast<std::size_t>(read));
  for (std::size_t end; (end = job.buffer.find('\n')) != std::string::npos; job.buffer.erase(0, end + 1))
    job.progress = std::clamp(std::atof(job.buffer.substr(0, end).c_str()), 0.0, 1.0);
  return true;
}

std::string lastLine(const std::filesystem::path& file)
{
  std::ifstream in(file);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  return last;
}
} // namespace

std::filesystem::path robotFolder(const std::filesystem::path& output, std::uint64_t seed)
{
  return output / ("robot-" + std::to_string(seed));
}

std::vector<std::string> robotCommand(const EnsembleOptions& options, int index)
{
  std::vector<std::string> command = {options.simulator.string()};
  command.insert(command.end(), options.runArguments.begin(), options.runArguments.end());
  command.insert(command.end(), {"--seed", std::to_string(seedOf(options, index)), "--output",
                                 robotFolder(options.output, seedOf(options, index)).string()});
  const bool worn = index >= options.robots - options.worn;
  const std::string preset = worn ? "worn" : options.preset;
  if (!preset.empty()) command.insert(command.end(), {"--preset", preset});
  return command;
}

void runProcesses(const std::vector<ProcessJob>& processes, const ProcessOptions& options,
                  const std::function<void(double)>& progress)
{
  const int jobs =
      options.jobs > 0 ? options.jobs : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  std::vector<Job> running;
  std::vector<double> done(processes.size(), 0.0);
  std::vector<std::string> failures;
  std::size_t next = 0;
  bool stopping = false;
  const auto checkStop = [&]
  {
    if (stopping || !options.stopRequested || !options.stopRequested()) return;
    stopping = true; // the processes got Ctrl-C from the terminal too, or only we got SIGTERM
    for (const Job& job : running)
      kill(job.pid, SIGTERM);
  };
  while ((next < processes.size() && !stopping) || !running.empty())
  {
    checkStop();
    while (!stopping && next < processes.size() && static_cast<int>(running.size()) < jobs)
    {
      running.push_back(start(processes[next], next));
      ++next;
    }
    std::vector<pollfd> watched;
    for (const Job& job : running)
      watched.push_back({job.progressPipe, POLLIN, 0});
    poll(watched.data(), watched.size(), 200);
    checkStop(); // before the ends are judged: a process stopped by the same Ctrl-C did not fail
    for (std::size_t k = 0; k < running.size();)
    {
      Job& job = running[k];
      const bool open = !(watched[k].revents & (POLLIN | POLLHUP)) || readProgress(job);
      done[job.index] = job.progress;
      if (open)
      {
        ++k;
        continue;
      }
      close(job.progressPipe);
      int status = 0;
      waitpid(job.pid, &status, 0);
      const bool stoppedBySignal =
          stopping && WIFSIGNALED(status) && (WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGTERM);
      const ProcessJob& process = processes[job.index];
      if (!stoppedBySignal && (!WIFEXITED(status) || WEXITSTATUS(status) != 0))
        failures.push_back(process.name + " (" + (process.folder / "run.out").string() +
                           "): " + lastLine(process.folder / "run.out"));
      else if (!stoppedBySignal)
        done[job.index] = 1.0;
      watched.erase(watched.begin() + static_cast<std::ptrdiff_t>(k));
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(k));
    }
    if (progress)
    {
      double sum = 0.0;
      for (const double fraction : done)
        sum += fraction;
      progress(sum / static_cast<double>(std::max<std::size_t>(processes.size(), 1)));
    }
  }
  if (!failures.empty())
  {
    std::string message = std::to_string(failures.size()) + " of " + std::to_string(processes.size()) + " " +
                          options.what + " failed:";
    for (const std::string& failure : failures)
      message += "\n  " + failure;
    throw std::runtime_error(message);
  }
}

void runEnsemble(const EnsembleOptions& options, const std::function<void(double)>& progress)
{
  std::vector<ProcessJob> processes;
  for (int index = 0; index < options.robots; ++index)
    processes.push_back({robotCommand(options, index), robotFolder(options.output, seedOf(options, index)),
                         "seed " + std::to_string(seedOf(options, index))});
  runProcesses(processes, {options.jobs, "robot runs", options.stopRequested}, progress);
}

namespace
{
RobotRun readRun(const std::filesystem::path& folder)
{
  if (!std::filesystem::exists(folder / "summary.csv"))
  {
    std::ifstream error(folder / "error.txt");
    std::string what;
    if (error && std::getline(error, what))
      throw std::runtime_error(folder.string() + ": the run failed: " + what);
    throw std::runtime_error(folder.string() + " has no summary.csv: the run did not finish");
  }
  RobotRun robot;
  robot.folder = folder;
  robot.summary = readSummary(folder / "summary.csv");
  robot.samples = readSamples(folder / (robot.summary.scenario + ".csv"));
  return robot;
}
} // namespace

EnsembleReport readEnsemble(const std::filesystem::path& folder)
{
  if (!std::filesystem::is_directory(folder)) throw std::runtime_error(folder.string() + " is not a folder");
  EnsembleReport report;
  for (const auto& entry : std::filesystem::directory_iterator(folder))
  {
    const std::string name = entry.path().filename().string();
    if (!entry.is_directory() || name.rfind("robot-", 0) != 0) continue;
    RobotRun robot = readRun(entry.path());
    if (!report.scenario.empty() && report.scenario != robot.summary.scenario)
      throw std::runtime_error(entry.path().string() + " ran '" + robot.summary.scenario + "', the others '" +
                               report.scenario + "'");
    report.scenario = robot.summary.scenario;
    report.robots.push_back(std::move(robot));
  }
  if (report.robots.empty() &&
      (std::filesystem::exists(folder / "summary.csv") || std::filesystem::exists(folder / "error.txt")))
  {
    report.robots.push_back(readRun(folder)); // a single run's folder (or its error)
    report.scenario = report.robots.back().summary.scenario;
    report.singleRun = true;
  }
  if (report.robots.empty())
    throw std::runtime_error(folder.string() + " holds neither a run's summary.csv nor robot-*/summary.csv");
  std::sort(report.robots.begin(), report.robots.end(),
            [](const RobotRun& a, const RobotRun& b) { return a.summary.seed < b.summary.seed; });
  return report;
}

double percentile(std::vector<double> values, double p)
{
  if (values.empty()) return std::nan("");
  std::sort(values.begin(), values.end());
  const double position = p * static_cast<double>(values.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, values.size() - 1);
  if (values[below] == values[above] || std::isinf(values[above]))
    return position == below ? values[below] : values[above];
  return values[below] + (position - static_cast<double>(below)) * (values[above] - values[below]);
}
} // namespace nao
