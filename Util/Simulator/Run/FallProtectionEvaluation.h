#pragma once
// FallProtectionProvider against the simulator's truth: a fall scenario (Config/Scenarios/fall*.toml: the stand, one
// push on the torso) run with the fall protection and without it (FallSafeJointRequest off), judged every frame.
//
// Impact: the first frame within fallImpactWindow after the push in which a geom of the head (of an arm, shoulder to
// hand) touches the floor (GroundTruth::headOnGround, armOnGround); its impact speed is the largest linear speed of
// the group's bodies in the frame before. Torques at impact: the largest |motor + gear friction torque| of the
// head's and of the arms' joints from the first frame the head, an arm or the torso touches the floor to
// fallTorqueWindow later. Takeover: the first frame FallProtection says protecting (the robot's log).
// The table: `Simulator fallprotection` writes it (fallprotection.md in its output folder).
#include "Representations/Modeling/FallDownState.h"
#include "Util/Simulator/Run/SimulationRun.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace nao
{
inline constexpr double fallRunSeconds = 8.0; ///< s simulated per fall run (the push at 3 s)
/// s after the push within which impacts count: the fall is over (every robot lies within 0.7 s)
inline constexpr double fallImpactWindow = 1.5;
inline constexpr double fallTorqueWindow = 0.2;   ///< s after the first contact over which torques count
inline constexpr double fallenTorsoHeight = 0.15; ///< m: a torso this low has fallen

struct FallImpact
{
  double headTime = -1, armTime = -1, firstTime = -1; ///< s; -1: no contact
  float headSpeed = 0, armSpeed = 0;                  ///< m/s just before the contact
  float headTorque = 0, armTorque = 0; ///< N·m, largest over the group's joints after the first contact
};

/// Whether joint index `j` belongs to an arm (shoulder to wrist; the hands do not count).
bool isImpactArmJoint(std::size_t j);

/// The impacts of a run recorded every frame (SimulationOptions::recordPeriod one frame) after a push at `pushTime` s.
FallImpact fallImpactOf(const SimulationResult& result, double pushTime);

struct FallTakeover
{
  double time = -1;                              ///< s, the first frame protecting; -1: never
  FallDirection direction = FallDirection::none; ///< the direction the posture was chosen for
};

/// When the protection first took over, from the robot's log (its [Log] has FrameInfo and FallProtection).
FallTakeover fallTakeoverOf(const std::filesystem::path& log);

/// `options` as a fall run: fallRunSeconds, every frame recorded; without `protection` FallSafeJointRequest off.
SimulationOptions fallRunOptions(SimulationOptions options, bool protection);

/// One robot, one push direction, with and without the protection.
struct FallProtectionPair
{
  double direction = 0; ///< degrees, world frame (0: the robot's front, +x; 90: its left, +y)
  std::uint64_t seed = 1;
  FallImpact on, off;
  FallTakeover takeover;                        ///< of the run with the protection
  double onTorsoHeight = 0, offTorsoHeight = 0; ///< m, the torso's lowest
};

/// Markdown: per push direction, the impacts (median and worst over robots), the torques at impact, the takeover's
/// lead before the first contact, and on how many robots the protection did worse.
std::string fallProtectionTables(const std::vector<FallProtectionPair>& pairs);

/// `Simulator fallprotection`: per seed and per push direction (0°, 45°, ... 315°: Config/Scenarios/fallfront.toml
/// with its push turned), the fall with and without the protection, progress on stdout, the tables into
/// `output`/fallprotection.md. The runs use a copy of `configDirectory` in `output`/config with the turned
/// scenarios; it and the runs' folders are removed afterwards. Returns the tables.
std::string runFallProtectionEnsemble(const std::filesystem::path& configDirectory,
                                      const std::vector<std::uint64_t>& seeds,
                                      const std::filesystem::path& output);
} // namespace nao
