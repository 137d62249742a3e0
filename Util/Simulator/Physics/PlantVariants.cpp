#include "Util/Simulator/Physics/PlantVariants.h"

#include "Tools/Streams/ClosestName.h"
#include "Tools/Streams/TomlFiles.h"
#include "Util/Simulator/Physics/Encoder.h"
#include "Util/Simulator/Physics/Random.h"
#include "Util/Simulator/Physics/SimConfig.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace nao::sim
{
namespace
{
constexpr std::uint64_t variantStream = 3; ///< Random::stream purpose of a variant's draws

const PlantVariant& findVariant(const PlantVariants& variants, const std::string& name)
{
  std::vector<std::string> known;
  for (const PlantVariant& variant : variants.variants)
  {
    if (variant.name == name) return variant;
    known.push_back(variant.name);
  }
  std::string list;
  for (const std::string& k : known)
    list += (list.empty() ? "" : ", ") + k;
  throw std::runtime_error("plant variant '" + name + "' is not in Sim/variants.toml" +
                           streams::didYouMean(name, known) + " (known: " + (list.empty() ? "none" : list) +
                           ")");
}

bool applies(const VariantChange& change, std::size_t joint)
{
  if (change.driveKinds.empty()) return true;
  const std::string_view kind = streams::enumName(driveKindOf(jointAt(joint)));
  return std::find(change.driveKinds.begin(), change.driveKinds.end(), kind) != change.driveKinds.end();
}

void applyChanges(const PlantVariant& variant, SimConfig& config, RobotVariation& robot,
                  VariantEffect& effect, Random& random)
{
  const double readingStep = encoderStep(config.sensors.position.bits);
  for (const VariantChange& change : variant.changes)
  {
    const double perRobot = random.uniform(change.low, change.high);
    for (std::size_t j = 0; j < numOfJoints; ++j)
    {
      // Every joint draws its value, applied or not, so that which joints a change names alters nothing else.
      const double perJoint = random.uniform(change.low, change.high);
      if (!applies(change, j)) continue;
      JointVariation& joint = robot.joints[j];
      switch (change.quantity)
      {
      case VariantQuantity::boardGain:
        joint.boardGain *= perRobot;
        break;
      case VariantQuantity::positionOffset:
        joint.positionOffset = perJoint * readingStep;
        break;
      case VariantQuantity::staticFriction:
      {
        // The nominal drive of this joint, and what robots.toml drew for it, are replaced: this gear train
        // holds `perJoint` N·m; its sliding friction keeps the nominal ratio to its static friction.
        const DriveParameters& drive =
            config.motors.drives[static_cast<std::size_t>(driveKindOf(jointAt(j)))];
        joint.staticFriction = perJoint / drive.staticFriction;
        joint.slidingFriction = joint.staticFriction;
        break;
      }
      case VariantQuantity::backlash:
        joint.backlash *= perRobot;
        break;
      case VariantQuantity::currentGain:
        joint.currentGain *= perJoint;
        break;
      case VariantQuantity::currentOffset:
        joint.currentOffset += perJoint * 0.001; // mA in the file
        break;
      case VariantQuantity::stiffnessGain:
        joint.stiffnessGain = perRobot;
        break;
      case VariantQuantity::torsoHeld:
      case VariantQuantity::boardBits:
      case VariantQuantity::currentDelay:
      case VariantQuantity::statusThresholds:
        break; // per robot, below
      }
    }
    if (change.quantity == VariantQuantity::torsoHeld) effect.torsoHeldRaise = perRobot * 0.001; // mm
    if (change.quantity == VariantQuantity::boardBits)
      config.motors.board.positionBits = static_cast<int>(std::lround(perRobot));
    if (change.quantity == VariantQuantity::currentDelay)
      robot.currentDelayFrames = static_cast<int>(std::lround(perRobot));
    if (change.quantity == VariantQuantity::statusThresholds)
    {
      TemperatureStatusParameters& status = config.motors.temperatureStatus;
      for (double* threshold : {&status.hotFrom, &status.hotBelow, &status.veryHotFrom, &status.veryHotBelow,
                                &status.criticalFrom, &status.criticalBelow})
        *threshold += perRobot;
    }
  }
}

[[noreturn]] void fail(const std::string& key, const std::string& message)
{
  throw streams::ConfigError(streams::ConfigIssue{"Sim/variants.toml", 0, 0, key, message});
}
} // namespace

VariantEffect applyVariant(const PlantVariants& variants, const std::string& name, SimConfig& config,
                           RobotVariation& robot)
{
  const PlantVariant& variant = findVariant(variants, name);
  Random random = Random::stream(robot.seed, variantStream);
  VariantEffect effect;
  effect.description = name;
  std::vector<std::string> pool = variant.combine, picked;
  for (int k = 0; k < variant.pick && !pool.empty(); ++k)
  {
    const auto index = std::min(pool.size() - 1, static_cast<std::size_t>(random.uniform() * pool.size()));
    picked.push_back(pool[index]);
    pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(index));
  }
  // In the file's order, whatever order they were drawn in: the same set is the same robot.
  std::vector<std::string> ordered;
  for (const std::string& part : variant.combine)
    if (std::find(picked.begin(), picked.end(), part) != picked.end()) ordered.push_back(part);
  for (std::size_t k = 0; k < ordered.size(); ++k)
  {
    effect.description += (k == 0 ? ": " : "+") + ordered[k];
    applyChanges(findVariant(variants, ordered[k]), config, robot, effect, random);
  }
  applyChanges(variant, config, robot, effect, random);
  robot.variant = effect.description;
  return effect;
}

void validate(const PlantVariants& variants)
{
  std::vector<std::string> names;
  for (const PlantVariant& variant : variants.variants)
  {
    const std::string key = "variants." + variant.name;
    if (variant.name.empty()) fail("variants.name", "every variant needs a name");
    if (std::find(names.begin(), names.end(), variant.name) != names.end())
      fail(key, "a second variant of this name");
    names.push_back(variant.name);
    for (const VariantChange& change : variant.changes)
    {
      if (!(change.low <= change.high)) fail(key + ".changes", "low must not exceed high");
      for (const std::string& kind : change.driveKinds)
        if (findDriveKind(kind) < 0)
          fail(key + ".changes.driveKinds",
               "'" + kind + "' is not a drive kind (KneePitch, AnklePitch, ...)");
      const auto name = streams::enumName(change.quantity);
      const bool positive = change.quantity == VariantQuantity::boardGain ||
                            change.quantity == VariantQuantity::backlash ||
                            change.quantity == VariantQuantity::currentGain;
      if (positive && !(change.low > 0)) fail(key + ".changes", std::string(name) + " is a factor above 0");
      if (change.quantity == VariantQuantity::boardBits && (change.low < 8 || change.high > 24))
        fail(key + ".changes", "boardBits must lie within 8..24");
      if ((change.quantity == VariantQuantity::currentDelay ||
           change.quantity == VariantQuantity::torsoHeld ||
           change.quantity == VariantQuantity::staticFriction) &&
          change.low < 0)
        fail(key + ".changes", std::string(name) + " must not be negative");
      if (change.quantity == VariantQuantity::stiffnessGain && (change.low < 0 || change.high > 1))
        fail(key + ".changes", "stiffnessGain is a share within 0..1");
      if (change.quantity == VariantQuantity::currentDelay && change.high > 8)
        fail(key + ".changes", "currentDelay is at most 8 frames");
    }
    if (variant.pick > static_cast<int>(variant.combine.size()))
      fail(key + ".pick", "more than the variants it combines");
  }
  for (const PlantVariant& variant : variants.variants)
    for (const std::string& part : variant.combine)
    {
      const auto found = std::find_if(variants.variants.begin(), variants.variants.end(),
                                      [&](const PlantVariant& v) { return v.name == part; });
      if (found == variants.variants.end())
        fail("variants." + variant.name + ".combine", "'" + part + "' is not a variant of this file");
      if (!found->combine.empty())
        fail("variants." + variant.name + ".combine", "'" + part + "' is a combination itself");
    }
}
} // namespace nao::sim
