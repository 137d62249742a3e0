#include "Framework/Robot.h"
#include "Framework/RobotDescription.h"
#include "Framework/SensorHealthReporter.h"
#include "Tools/Streams/TomlFiles.h"
#include <algorithm>
#include <cstdio>
#include <limits>
#include <pthread.h>

namespace nao
{
Settings Settings::load(const std::filesystem::path& file)
{
  Settings settings;
  try
  {
    streams::loadFromTable(streams::loadTomlFile(file), settings);
  }
  catch (const std::exception& error)
  {
    throw StartupError(error.what());
  }
  return settings;
}

Robot::Robot(Body& body, RobotOptions options)
    : options_(std::move(options)),
      scenario_(Scenario::load(options_.config.directory / "Scenarios" / (options_.scenario + ".toml"))),
      motion_(blackboard_, body), controller_(options_.config, blackboard_, motion_),
      logger_(options_.logBufferFrames)
{
  scenario_.override(options_.providerOverrides);
  controller_.start(scenario_);
  // Whatever the modules compute, the answer stays within the motors' range (the URDF's limits).
  const RobotDescription& description = controller_.loadedInputs().get<RobotDescription>();
  JointArray<float> lower, upper;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const kinematics::JointLimits& limits = description.limits(j);
    lower[j] = limits.bounded ? static_cast<float>(limits.lower) : -std::numeric_limits<float>::infinity();
    upper[j] = limits.bounded ? static_cast<float>(limits.upper) : std::numeric_limits<float>::infinity();
  }
  motion_.setOutputLimits(lower, upper);
  for (const std::string& name : scenario_.logged)
    if (RepresentationRegistry::instance().find(name) < 0)
      throw StartupError(scenario_.loggedWhere.text() + ": Log.representations: '" + name +
                         "' is not a representation of this binary");
  controller_.setLoggedRepresentations(scenario_.logged);
  if (options_.log)
  {
    if (scenario_.logged.empty())
      throw StartupError("a log was requested, but scenario '" + scenario_.name +
                         "' lists no representations under [Log]");
    // A robot must stand even when its disk is full: without the log, and saying so.
    if (std::string error = logger_.start(controller_, *options_.log, scenario_.logged); !error.empty())
      std::fprintf(stderr, "nao: warning: %s; the robot runs without a log\n", error.c_str());
  }
  if (options_.debug)
  {
    try
    {
      debugServer_ = std::make_unique<DebugServer>(*options_.debug, controller_, logger_);
    }
    catch (const std::exception& error)
    {
      throw StartupError(std::string("debug channel: ") + error.what());
    }
  }
}

Robot::~Robot()
{
  controller_.motionStopped();
  debugServer_.reset();
  logger_.stop(controller_);
}

void Robot::stop()
{
  stopRequested_ = true;
}

void Robot::run()
{
  // While the motion thread runs: each change of a sensor's trust, once, on stderr.
  SensorHealthReporter healthReporter(controller_);
  std::atomic<bool> motionDone{false};
  std::thread motionThread(
      [&]
      {
        pthread_setname_np(pthread_self(), "Motion");
        if (options_.motionPriority)
        {
          realTime_ = enterRealTime(*options_.motionPriority);
          if (!realTime_.warning.empty())
            std::fprintf(stderr, "nao: warning: %s\n", realTime_.warning.c_str());
        }
        while (!stopRequested_.load(std::memory_order_relaxed) && motion_.runFrame())
        {
        }
        controller_.motionStopped(); // requests still arriving are carried out by the Debug thread at once
        motionDone = true;
        if (debugServer_) debugServer_->wake();
      });
  // This thread becomes the Debug thread: network I/O and freeing what the motion thread let go of.
  pthread_setname_np(pthread_self(), "Debug");
  while (!motionDone)
  {
    if (debugServer_)
      debugServer_->poll(5);
    else
    {
      controller_.service();
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    healthReporter.poll();
    if (const std::string failure = logger_.releaseFailed(controller_); !failure.empty())
      std::fprintf(stderr, "nao: warning: %s; the robot goes on without a log\n", failure.c_str());
  }
  motionThread.join();
  healthReporter.poll(); // the last frames' changes
  controller_.motionStopped();
  healthReporter.detach(); // its tap is let go of at once, the motion thread having stopped
  logger_.stop(controller_);
  controller_.service();
}
} // namespace nao
