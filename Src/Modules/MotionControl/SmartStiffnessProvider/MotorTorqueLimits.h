#pragma once
// The torque each joint's motor can give at stiffness 1, and how much of it the firmware leaves at each LoLA
// temperature status. One source of truth: the motor table the simulator runs on, Config/Sim/motors.toml
// ([drives] maxTorque, gearRatio and motorType per joint kind, [motorTypes] torqueConstant and gearEfficiency,
// [firmwareProtection] factors), so that the robot never assumes a stronger or weaker motor than the plant it is
// judged on (Make/deploy takes this one file of Config/Sim/ along to the robot). Loaded once per robot process
// (Loads<MotorTorqueLimits>).
#include "Framework/ConfigFiles.h"
#include "Representations/Infrastructure/Joints.h"
#include "Representations/Sensing/JointSensorData.h"

namespace nao
{
struct MotorTorqueLimits
{
  JointArray<float> maxTorques; ///< N·m at the joint, stiffness 1, regular temperature status
  std::array<float, 4> statusFactors{1, 1, 1, 1}; ///< fraction of maxTorques left per TemperatureStatus
  JointArray<float>
      torquePerAmpere; ///< N·m at the joint per A of motor current (Kt × ratio × gear efficiency)

  /// N·m the joint's motor can give at stiffness 1 under the status (0 when critically hot).
  float maxTorque(std::size_t joint, TemperatureStatus status) const
  {
    const auto s = static_cast<std::size_t>(status);
    return maxTorques.values[joint] * (s < statusFactors.size() ? statusFactors[s] : 0.f);
  }

  /// Reads Config/Sim/motors.toml; throws streams::ConfigError naming the file and the key.
  static MotorTorqueLimits load(const ConfigFiles& files);
};
} // namespace nao
