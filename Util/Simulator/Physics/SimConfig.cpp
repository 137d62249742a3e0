#include "Util/Simulator/Physics/SimConfig.h"

#include "Tools/Streams/TomlFiles.h"
#include "Util/MujocoModel/MjcfBuilder.h"

#include <string>
#include <utility>

namespace nao::sim
{
namespace
{
void require(bool condition, const char* file, const std::string& key, const std::string& message)
{
  if (!condition) throw streams::ConfigError(streams::ConfigIssue{file, 0, 0, key, message});
}
} // namespace

SimConfig loadSimConfig(const std::filesystem::path& configDir)
{
  SimConfig config;
  MjcfSource model = loadMjcfSource(configDir); // physics.toml and motors.toml
  config.physics = std::move(model.physics);
  config.motors = std::move(model.motors);
  streams::loadFromTable(streams::loadTomlFile(configDir / "Sim" / "sensors.toml"), config.sensors);
  streams::loadFromTable(streams::loadTomlFile(configDir / "Sim" / "robots.toml"), config.robots);
  streams::loadFromTable(streams::loadTomlFile(configDir / "Sim" / "variants.toml"), config.variants);
  config.urdfFile = std::move(model.urdfFile);
  validate(config);
  return config;
}

void validate(const SimConfig& config)
{
  const auto& status = config.motors.temperatureStatus;
  const char* motors = "Sim/motors.toml";
  require(status.hotBelow <= status.hotFrom, motors, "temperatureStatus.hotBelow", "must not exceed hotFrom");
  require(status.hotFrom <= status.veryHotFrom, motors, "temperatureStatus.veryHotFrom",
          "must not be below hotFrom");
  require(status.veryHotFrom <= status.criticalFrom, motors, "temperatureStatus.criticalFrom",
          "must not be below veryHotFrom");
  require(status.veryHotBelow <= status.veryHotFrom && status.veryHotBelow >= status.hotFrom, motors,
          "temperatureStatus.veryHotBelow", "must lie between hotFrom and veryHotFrom");
  require(status.criticalBelow <= status.criticalFrom && status.criticalBelow >= status.veryHotFrom, motors,
          "temperatureStatus.criticalBelow", "must lie between veryHotFrom and criticalFrom");
  const auto& protection = config.motors.firmwareProtection;
  require(protection.hotLimitEnd <= protection.hotLimitStart &&
              protection.veryHotLimit <= protection.hotLimitEnd &&
              protection.criticalLimit <= protection.veryHotLimit,
          motors, "firmwareProtection", "limits must not rise with the status");
  require(config.physics.frameTime >= config.physics.timestep, "Sim/physics.toml", "frameTime",
          "must not be shorter than timestep");
  const std::string& solver = config.physics.solver;
  require(solver == "Newton" || solver == "CG" || solver == "PGS", "Sim/physics.toml", "solver",
          "expected Newton, CG or PGS, got '" + solver + "'");
  const std::string& cone = config.physics.cone;
  require(cone == "elliptic" || cone == "pyramidal", "Sim/physics.toml", "cone",
          "expected elliptic or pyramidal, got '" + cone + "'");
  const std::string& jacobian = config.physics.jacobian;
  require(jacobian == "sparse" || jacobian == "dense" || jacobian == "auto", "Sim/physics.toml", "jacobian",
          "expected sparse, dense or auto, got '" + jacobian + "'");
  for (std::size_t kind = 0; kind < numOfDriveKinds; ++kind)
  {
    const DriveParameters& drive = config.motors.drives[kind];
    require(drive.slidingFriction <= drive.staticFriction, motors,
            "drives." + std::string(streams::enumNamesOf<DriveKind>[kind]) + ".slidingFriction",
            "must not exceed staticFriction (a sliding gear train never holds more than a stuck one)");
  }
  for (const RobotPreset& preset : config.robots.presets)
    for (const std::string& kind : preset.driveKinds)
      require(findDriveKind(kind) >= 0, "Sim/robots.toml", "presets." + preset.name + ".driveKinds",
              "'" + kind + "' is not a drive kind (HeadYaw, KneePitch, AnklePitch, ...)");
  validate(config.variants);
  for (const auto& link : config.physics.sole.fsrLinks)
    require(!link.empty(), "Sim/physics.toml", "sole.fsrLinks", "every FSR needs a link");
}
} // namespace nao::sim
