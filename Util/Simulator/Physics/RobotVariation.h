#pragma once
// One simulated robot's individuality, drawn from Config/Sim/robots.toml with a seed: what makes it differ
// from the nominal NAO of motors.toml and sensors.toml. The same seed and preset give the same robot
// everywhere.
#include "Representations/Infrastructure/Joints.h"
#include "Util/Simulator/Physics/RobotDistributions.h"

#include <array>
#include <cstdint>
#include <limits>
#include <string>

namespace nao::sim
{
/// How one joint of this robot differs. Factors multiply the nominal values.
struct JointVariation
{
  double positionOffset = 0.0;     ///< rad: LoLA reads the joint this much above its true angle
  double currentOffset = 0.0;      ///< A: added to the board's current measurement
  double staticFriction = 1.0;     ///< factor
  double slidingFriction = 1.0;    ///< factor
  double backlash = 1.0;           ///< factor
  double torqueConstant = 1.0;     ///< factor
  double terminalResistance = 1.0; ///< factor
  double thermalResistance = 1.0;  ///< factor
  double heatCapacity = 1.0;       ///< factor
  double boardGain = 1.0;          ///< factor on the board's position and derivative gains (a plant variant)
  double currentGain = 1.0;        ///< factor on the board's current measurement (a plant variant)
  /// 0..1: the share of the board's gains that follows the stiffness command (0: stiffness only limits the torque;
  /// 1: the gains scale with it as well; a plant variant)
  double stiffnessGain = 0.0;
};

struct RobotVariation
{
  std::uint64_t seed = 0; ///< also seeds the robot's sensor noise
  /// Another draw of the same robot's sensor and board noise (0: the seed's own): the same robot on another day.
  std::uint64_t noiseSeed = 0;
  std::string preset;         ///< empty: none
  std::string variant;        ///< the plant variant applied (PlantVariants.h); empty: none
  int currentDelayFrames = 0; ///< LoLA frames the current reading lags (a plant variant)
  /// °C of the room around this robot; NaN: motors.toml roomTemperature (the nominal robot)
  double roomTemperature = std::numeric_limits<double>::quiet_NaN();
  double startRise = 0.0; ///< K above the room that everything inside starts at (a robot started warm)
  std::array<JointVariation, numOfJoints> joints{};
};

/// The nominal robot: every factor 1, no offsets; its noise still comes from `seed`.
RobotVariation nominalRobot(std::uint64_t seed = 0);

/// Draws a robot. `preset` names one of distributions.presets or is empty; throws std::runtime_error naming
/// the known presets when it is not found. `positionStep` is the LoLA reading's count (rad) the position
/// offset distribution is given in.
RobotVariation drawRobot(const RobotDistributions& distributions, double positionStep, std::uint64_t seed,
                         const std::string& preset = "");

/// One value of a distribution.
class Random;
double draw(const Distribution& distribution, Random& random);
} // namespace nao::sim
