#pragma once
// The robot side of a simulated run: the unchanged robot code talking LoLA to the simulator, either on its
// own threads in this process (as the robot binary would run it, with a LolaBody) or the robot binary as a
// child process.
#include "Util/Simulator/Run/SimulationTypes.h"

#include <atomic>
#include <exception>
#include <filesystem>
#include <optional>
#include <string>
#include <sys/types.h>
#include <thread>

namespace nao
{
/// The robot, running on its own threads in this process, exactly as the robot binary would with a LolaBody.
class InProcessRobot
{
public:
  InProcessRobot(const SimulationOptions& options, const std::string& socketPath,
                 const std::filesystem::path& log);
  ~InProcessRobot() { join(); }
  void join();
  bool done() const { return done_; }
  /// Rethrows what ended the robot's thread, if anything did.
  void rethrow() const;
  /// Its LolaBody's counts when the robot stopped (after join()).
  const LolaBodyStatistics& bodyStatistics() const { return bodyStatistics_; }

private:
  std::thread thread_;
  std::exception_ptr error_;
  LolaBodyStatistics bodyStatistics_;
  std::atomic<bool> done_{false};
};

/// The robot binary as a child process. Its standard output passes through a pipe to ours, line by line; the
/// line with its LoLA counts (describeLolaStatistics) is kept as well.
class ChildRobot
{
public:
  ChildRobot(const SimulationOptions& options, const std::string& socketPath,
             const std::filesystem::path& log);
  ~ChildRobot() { join(); }
  ChildRobot(const ChildRobot&) = delete;
  ChildRobot& operator=(const ChildRobot&) = delete;
  /// Waits for the process and for the end of its output.
  void join();
  /// Its LoLA counts as it printed them when it stopped (after join()); empty if it printed none.
  const std::optional<LolaBodyStatistics>& lolaStatistics() const { return lolaStatistics_; }
  /// True once the process has ended (without waiting for it).
  bool exited();
  /// SIGTERM: the robot binary stops after its frame, closes its log and exits (status 0).
  void stop();
  int exitStatus() const { return exitStatus_; }

private:
  pid_t pid_ = -1;
  int exitStatus_ = 0;
  std::thread output_; ///< copies the child's standard output to ours
  std::optional<LolaBodyStatistics> lolaStatistics_;
};
} // namespace nao
