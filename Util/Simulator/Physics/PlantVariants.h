#pragma once
// Config/Sim/variants.toml: plant variants, ways a NAO can differ from the plant of motors.toml, sensors.toml and
// robots.toml, each with its physical reason (Util/Simulator/README.md, "Plant variants"). They exist to break the
// assumptions a motion-safety module may have grown on; none is tuned toward a module. `Simulator run <scenario>
// --variant NAME` applies one to the robot its seed draws; its own random parts come from the seed too. The values
// live only in the file; every member of the loaded structs starts at zero or empty (PlantValuesLiveOnlyInConfigSim).
#include "Tools/Streams/Enum.h"
#include "Tools/Streams/Field.h"
#include "Util/Simulator/Physics/RobotVariation.h"

#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nao::sim
{
struct SimConfig;

/// What a change of a variant changes; the unit of its values is given per quantity.
NAO_ENUM(
    VariantQuantity, std::uint8_t,
    torsoHeld,      ///< mm: once the posture is held, the torso is held where it is, raised by this
    boardGain,      ///< factor on every board's position and derivative gains (per robot)
    boardBits,      ///< bits of the boards' own angle sensor (per robot)
    positionOffset, ///< counts of LoLA's reading: its calibration against the board's angle (per joint)
    staticFriction, ///< N·m: the gear train's static friction; its sliding friction keeps its ratio (per joint)
    backlash,       ///< factor on the gear train's play (per robot)
    currentDelay,  ///< frames the current reading lags the current (per robot)
    currentGain,   ///< factor on the current reading (per joint)
    currentOffset, ///< mA added to the current reading (per joint)
    stiffnessGain, ///< 0..1: the share of the boards' gains that scales with the stiffness command (per robot)
    statusThresholds, ///< K added to every temperature status threshold, entering and leaving (per robot)
);

/// One change: its value drawn uniformly from [low, high] per robot or per joint (as the quantity says), for the
/// joints of `driveKinds` (empty: every joint).
struct VariantChange
{
  VariantQuantity quantity = VariantQuantity::boardGain;
  double low = 0.0;  ///< in the quantity's unit
  double high = 0.0; ///< in the quantity's unit
  std::vector<std::string> driveKinds;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    ar& field("quantity", quantity);
    ar& field("low", low).range(-1e6, 1e6);
    ar& field("high", high).range(-1e6, 1e6);
    ar& field("driveKinds", driveKinds);
  }
};

struct PlantVariant
{
  std::string name;
  std::string reason; ///< the physical reason, in a line
  std::vector<VariantChange> changes;
  /// A combination: each robot applies `pick` of these variants (named in this file), drawn with its seed.
  std::vector<std::string> combine;
  int pick = 0;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    ar& field("name", name);
    ar& field("reason", reason);
    ar& field("changes", changes);
    ar& field("combine", combine);
    ar& field("pick", pick).range(0, 100);
  }
};

struct PlantVariants
{
  std::vector<PlantVariant> variants;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& streams::field("variants", variants);
  }
};

/// How a robot's plant follows a variant, beyond what RobotVariation and the configuration hold.
struct VariantEffect
{
  std::string description;    ///< the variant's name, and the variants a combination picked: "random: a+b"
  double torsoHeldRaise = -1; ///< m; < 0: the torso is not held
};

/// Applies the variant `name` to the robot and a copy of the configuration (board parameters). Throws
/// std::runtime_error naming the known variants (and the closest) when there is none of that name. The random
/// parts are drawn from the robot's seed, on a stream of their own: the robot is the same robot otherwise.
VariantEffect applyVariant(const PlantVariants& variants, const std::string& name, SimConfig& config,
                           RobotVariation& robot);

/// Checks what ranges cannot: unique names, known drive kinds, low <= high, combinations of known variants that
/// combine nothing themselves. Throws streams::ConfigError naming the key.
void validate(const PlantVariants& variants);
} // namespace nao::sim
