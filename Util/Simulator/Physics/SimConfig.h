#pragma once
// Everything a SimulatedRobot is built from: the robot description and the two parameter files.
#include "Util/Simulator/Physics/PlantVariants.h"
#include "Util/Simulator/Physics/SimParameters.h"

#include <filesystem>

namespace nao::sim
{
struct SimConfig
{
  std::filesystem::path urdfFile; ///< the robot description the MuJoCo model is generated from
  PhysicsParameters physics;
  MotorParameters motors;
  SensorParameters sensors;
  RobotDistributions robots;
  PlantVariants variants;
};

/// Reads physics.toml, motors.toml, sensors.toml, robots.toml and variants.toml of <configDir>/Sim; urdfFile =
/// configDir /
/// physics.urdf.
/// Throws streams::ConfigError (file, line, column, key) for a bad file and for values that contradict each
/// other (see validate).
SimConfig loadSimConfig(const std::filesystem::path& configDir);

/// Checks what per-value ranges cannot: ordered temperature thresholds, a frame no shorter than a step, a
/// non-increasing firmware limit, sliding friction not above static friction, presets naming drive kinds that
/// exist. Throws streams::ConfigError naming the key.
void validate(const SimConfig& config);
} // namespace nao::sim
