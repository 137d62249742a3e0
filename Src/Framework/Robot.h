#pragma once
// The robot process, assembled: blackboard, motion loop on the Motion thread, controller and debug server on
// the Debug thread, logger on the Logger thread. The robot binary, the simulator's in-process mode and the
// tests all build one.
#include "Framework/Controller.h"
#include "Framework/DebugServer.h"
#include "Framework/Logger.h"
#include "Framework/MotionLoop.h"
#include "Framework/RealTime.h"
#include "Framework/Settings.h"
#include <atomic>
#include <optional>
#include <thread>

namespace nao
{
struct RobotOptions
{
  ConfigLocation config;
  std::string scenario;                     ///< name in Config/Scenarios/
  std::optional<std::filesystem::path> log; ///< start logging the scenario's [Log] list to this file
  std::optional<DebugSettings> debug;       ///< no value: no debug server
  /// Provider choices that replace (or add to) the scenario's, e.g. {"JointRequest", "off"} to compare a run
  /// without a stage. Checked like the scenario's own.
  std::vector<ProviderChoice> providerOverrides;
  std::size_t logBufferFrames = 1024; ///< motion frames buffered for the logger
  /// SCHED_FIFO priority of the motion thread, with the process's memory locked (Framework/RealTime.h); no
  /// value: normal priority, nothing locked. What is not permitted is warned about once on stderr.
  std::optional<int> motionPriority;
};

class Robot
{
public:
  /// Loads the scenario, resolves the module graph, creates modules (throws StartupError with names on any
  /// problem).
  Robot(Body& body, RobotOptions options);
  ~Robot();

  /// Runs the motion thread until the body ends (or stop()), serving the debug channel meanwhile. Blocks.
  void run();
  /// Asks the motion thread to end after its current frame. Thread-safe.
  void stop();

  Blackboard& blackboard() { return blackboard_; }
  MotionLoop& motion() { return motion_; }
  Controller& controller() { return controller_; }
  Logger& logger() { return logger_; }
  DebugServer* debugServer() { return debugServer_.get(); }
  const Scenario& scenario() const { return scenario_; }
  /// What the motion thread was granted (after run(); all false without RobotOptions::motionPriority).
  const RealTimeResult& realTime() const { return realTime_; }

private:
  RobotOptions options_;
  Scenario scenario_;
  Blackboard blackboard_;
  MotionLoop motion_;
  Controller controller_;
  Logger logger_;
  std::unique_ptr<DebugServer> debugServer_;
  std::atomic<bool> stopRequested_{false};
  RealTimeResult realTime_; ///< written by the motion thread before its first frame
};
} // namespace nao
