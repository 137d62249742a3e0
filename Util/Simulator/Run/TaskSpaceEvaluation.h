#pragma once
// The Stack of Tasks' scenarios judged on the simulated robot (TaskSpaceMotionProvider, Config/Scenarios/reach,
// lookat, goalieblock): everything from the measured joint angles of the run's samples (LoLA's Position readings,
// record period 12 ms), put through the robot description's kinematics and selfCollision.toml's shapes. Not what
// the module asked for: where the robot really was.
//   target error   per scripted target, at the end of its time (just before the next target of its task, or the
//                  run's end): the wrist's or sole's distance to the point (mm), the line of sight's angle off the
//                  point (degrees)
//   pair distance  the smallest signed distance of any shape pair over the run (mm; < 0: inside the body)
//   CoM margin     the smallest distance of the centre of mass (horizontal, left sole's frame) inside the support
//                  polygon over the run: the convex hull of the soles on the floor, each the 150 x 88.79 mm
//                  rectangle of shared/data/nao-v6/geometry.md section 4 (mm; < 0: outside)
//   fell           the upper body touched the floor (GroundTruth)
#include "Util/Simulator/Run/SimulationRun.h"

#include <filesystem>
#include <string>
#include <vector>

namespace nao
{
struct TaskTargetOutcome
{
  ScriptTarget target;
  double endTime = 0; ///< s, when the target's time ended (where the error is taken)
  double error = 0;   ///< mm (hands, foot) or degrees (lookAt) at endTime
};

struct TaskScenarioOutcome
{
  std::string scenario;
  std::uint64_t seed = 0;
  std::vector<TaskTargetOutcome> targets; ///< the active targets, in script order
  double minPairDistance = 1e9;           ///< mm
  std::string closestPair;                ///< "shapeA-shapeB" of that distance
  double minComMargin = 1e9;              ///< mm
  double footLifted = 0;                  ///< s the right sole was more than 5 mm above the floor
  bool fell = false;
};

/// Judges a run of `scenario` made with SimulationOptions::recordPeriod 0.012 (one sample per frame). Throws
/// std::runtime_error when the scenario has no targets or the samples are too sparse to judge.
TaskScenarioOutcome evaluateTaskSpaceRun(const std::filesystem::path& configDirectory,
                                         const std::string& scenario, const SimulationResult& result);

/// Runs `scenario` on robot `seed` for as long as its script needs and judges it.
TaskScenarioOutcome runTaskSpaceScenario(const std::filesystem::path& configDirectory,
                                         const std::string& scenario, std::uint64_t seed,
                                         const std::filesystem::path& outputDirectory);

/// The Markdown tables of outcomes: one row per scenario and seed, then one per target; headed by `command`
/// when it is not empty.
std::string taskSpaceTable(const std::vector<TaskScenarioOutcome>& outcomes, const std::string& command);
} // namespace nao
