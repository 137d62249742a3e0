#pragma once
// SelfCollisionProvider on the simulated robot (Config/Scenarios/collisionarm, collisionhead, collisionlegs: NAOqi's
// LArm Init -> Final at half speed, an arm swinging into the head, legs crossing while lifted). Each scenario runs
// twice with the same seed: the stage off (CollisionFreeJointRequest off), where the measured posture enters the
// body, and on. The judge is the measured joint angles of the robot's log (JointSensorData) put through the robot
// description's kinematics and selfCollision.toml's shapes, every pair counted: the smallest signed distance of any
// pair, as SelfCollisionProvider's SelfCollision.minDistance says it with nothing protected and limp input (its
// reference is then the measurement). Where the chains really were, not what the module asked for.
#include "Util/Simulator/Run/SimulationRun.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace nao
{
/// 7.2 s simulated per run: the scripts end after 6-7 s.
inline constexpr double selfCollisionRunMinutes = 0.12;

struct SelfCollisionRun
{
  float minDistance = 1.f; ///< m, smallest signed distance of any pair over the run (< 0: inside the body)
  std::string closestPair; ///< "shapeA-shapeB" of minDistance
  int frames = 0;          ///< frames of the log judged
  std::uint64_t positionsOutOfRange = 0; ///< Positions sent over LoLA outside the URDF's limits
  std::filesystem::path log;             ///< the robot's log that was judged
};

/// Judges the robot's log at `log` (JointSensorData every frame) and writes `csv` (when not empty): the smallest
/// pair distance per frame, "time [s],smallest pair distance [mm]", the time the frame's index × 12 ms.
SelfCollisionRun evaluateSelfCollisionLog(const std::filesystem::path& configDirectory,
                                          const std::filesystem::path& log, const std::filesystem::path& csv);

/// Runs `scenario` on robot `seed` for selfCollisionRunMinutes, the stage on or off, into `outputDirectory` (an old
/// one removed), and judges it; its distance.csv there.
SelfCollisionRun runSelfCollisionScenario(const std::filesystem::path& configDirectory,
                                          const std::string& scenario, std::uint64_t seed, bool stageOn,
                                          const std::filesystem::path& outputDirectory);

struct SelfCollisionOutcome
{
  std::string scenario;
  std::uint64_t seed = 0;
  SelfCollisionRun off, on;
};

/// The Markdown table of outcomes, one row per scenario and seed; headed by `command` when it is not empty.
std::string selfCollisionTable(const std::vector<SelfCollisionOutcome>& outcomes, const std::string& command);

} // namespace nao
