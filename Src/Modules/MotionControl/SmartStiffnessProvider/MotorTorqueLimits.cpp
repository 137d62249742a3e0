#include "Modules/MotionControl/SmartStiffnessProvider/MotorTorqueLimits.h"

#include "Tools/Streams/TomlFiles.h"
#include <string>

namespace nao
{
namespace
{
/// The [drives] key of a joint: its name without the side (LShoulderPitch -> ShoulderPitch, LHand -> Hand);
/// LHipYawPitch is the one hip-yaw-pitch motor.
std::string_view driveName(Joint joint)
{
  const std::string_view name = nao::name(joint);
  return isHeadJoint(joint) ? name : name.substr(1);
}

[[noreturn]] void fail(const std::filesystem::path& file, const toml::node* node, const std::string& key,
                       const std::string& message)
{
  streams::ConfigIssue issue;
  issue.file = file.string();
  if (node)
  {
    issue.line = static_cast<int>(node->source().begin.line);
    issue.column = static_cast<int>(node->source().begin.column);
  }
  issue.keyPath = key;
  issue.message = message;
  throw streams::ConfigError(issue);
}

float positiveNumber(const std::filesystem::path& file, const toml::table& table, const std::string& key,
                     std::string_view prefix)
{
  const toml::node* node = table.get(key);
  const std::string path = std::string(prefix) + "." + key;
  if (!node) fail(file, &table, path, "missing");
  const std::optional<double> value = node->value<double>();
  if (!value || !(*value >= 0)) fail(file, node, path, "expected a number >= 0");
  return static_cast<float>(*value);
}
} // namespace

MotorTorqueLimits MotorTorqueLimits::load(const ConfigFiles& files)
{
  const std::filesystem::path file = files.location.directory / "Sim" / "motors.toml";
  const toml::table root = streams::loadTomlFile(file);
  MotorTorqueLimits limits;

  const toml::table* drives = root["drives"].as_table();
  if (!drives) fail(file, &root, "drives", "missing table");
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const std::string kind(driveName(jointAt(j)));
    const toml::table* drive = (*drives)[kind].as_table();
    if (!drive) fail(file, drives, "drives." + kind, "missing table");
    limits.maxTorques.values[j] = positiveNumber(file, *drive, "maxTorque", "drives." + kind);
    const float ratio = positiveNumber(file, *drive, "gearRatio", "drives." + kind);
    const std::string type =
        "type" +
        std::to_string(static_cast<int>(positiveNumber(file, *drive, "motorType", "drives." + kind)));
    const toml::table* motor = root["motorTypes"][type].as_table();
    if (!motor) fail(file, drive, "motorTypes." + type, "missing table");
    limits.torquePerAmpere.values[j] = positiveNumber(file, *motor, "torqueConstant", "motorTypes." + type) *
                                       ratio *
                                       positiveNumber(file, *motor, "gearEfficiency", "motorTypes." + type);
  }

  // The firmware's limit inside the hot band falls from hotLimitStart to hotLimitEnd with the temperature; the
  // status alone does not say where in the band a joint is, so the lower end is assumed.
  const toml::table* firmware = root["firmwareProtection"].as_table();
  if (!firmware) fail(file, &root, "firmwareProtection", "missing table");
  limits.statusFactors = {1.f, positiveNumber(file, *firmware, "hotLimitEnd", "firmwareProtection"),
                          positiveNumber(file, *firmware, "veryHotLimit", "firmwareProtection"),
                          positiveNumber(file, *firmware, "criticalLimit", "firmwareProtection")};
  return limits;
}
} // namespace nao
