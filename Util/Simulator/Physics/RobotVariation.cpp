#include "Util/Simulator/Physics/RobotVariation.h"

#include "Util/MujocoModel/MotorParameters.h"
#include "Util/Simulator/Physics/Random.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace nao::sim
{
namespace
{
constexpr std::uint64_t parameterStream = 1; ///< Random::stream purpose of the drawn parameters

const RobotPreset* findPreset(const RobotDistributions& distributions, const std::string& name)
{
  if (name.empty()) return nullptr;
  for (const RobotPreset& preset : distributions.presets)
    if (preset.name == name) return &preset;
  std::string known;
  for (const RobotPreset& preset : distributions.presets)
    known += (known.empty() ? "" : ", ") + preset.name;
  throw std::runtime_error("robot preset '" + name +
                           "' is not in Sim/robots.toml (known: " + (known.empty() ? "none" : known) + ")");
}
} // namespace

double draw(const Distribution& distribution, Random& random)
{
  switch (distribution.law)
  {
  case Law::fixed:
    return distribution.center;
  case Law::normal:
    return random.normal(distribution.center, distribution.spread);
  case Law::uniform:
    return random.uniform(distribution.center - distribution.spread,
                          distribution.center + distribution.spread);
  case Law::lognormal:
    return distribution.center * std::exp(random.normal(0.0, distribution.spread));
  }
  return distribution.center;
}

RobotVariation nominalRobot(std::uint64_t seed)
{
  RobotVariation robot;
  robot.seed = seed;
  return robot;
}

RobotVariation drawRobot(const RobotDistributions& distributions, double positionStep, std::uint64_t seed,
                         const std::string& presetName)
{
  const RobotPreset* preset = findPreset(distributions, presetName);
  RobotVariation robot;
  robot.seed = seed;
  robot.preset = presetName;
  Random random = Random::stream(seed, parameterStream);
  // Every value is drawn for every joint in a fixed order, whatever the preset, so that a preset changes only
  // what it names: the worn robot of seed 7 is the new robot of seed 7 with worn knees and ankles.
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    JointVariation& joint = robot.joints[j];
    joint.positionOffset = draw(distributions.positionOffset, random) * positionStep;
    joint.currentOffset = draw(distributions.currentOffset, random) * 0.001; // mA in the file
    joint.staticFriction = draw(distributions.staticFriction, random);
    joint.slidingFriction = draw(distributions.slidingFriction, random);
    joint.backlash = draw(distributions.backlash, random);
    joint.torqueConstant = draw(distributions.torqueConstant, random);
    joint.terminalResistance = draw(distributions.terminalResistance, random);
    joint.thermalResistance = draw(distributions.thermalResistance, random);
    joint.heatCapacity = draw(distributions.heatCapacity, random);
    if (!preset) continue;
    const std::string_view kind = streams::enumName(driveKindOf(jointAt(j)));
    if (std::find(preset->driveKinds.begin(), preset->driveKinds.end(), kind) == preset->driveKinds.end())
      continue;
    joint.staticFriction *= preset->staticFriction;
    joint.slidingFriction *= preset->slidingFriction;
    joint.backlash *= preset->backlash;
  }
  // Drawn after every joint's values, so that a robot keeps all its other values whatever these are.
  robot.roomTemperature = draw(distributions.roomTemperature, random);
  robot.startRise = std::max(0.0, draw(distributions.startRise, random));
  return robot;
}
} // namespace nao::sim
