#include "Util/Simulator/Physics/DriveModel.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace nao::sim
{
DriveKind driveKindOf(Joint joint)
{
  std::string_view name = jointNames[index(joint)];
  if (name != "HeadYaw" && name != "HeadPitch") name.remove_prefix(1); // the L or R of a limb joint
  for (std::size_t kind = 0; kind < numOfDriveKinds; ++kind)
    if (driveKindNames[kind] == name) return static_cast<DriveKind>(kind);
  return DriveKind::HeadYaw; // unreachable: every LoLA joint has a kind
}

Drive makeDrive(const MotorTypeParameters& motor, const DriveParameters& drive)
{
  const double ratio = drive.gearRatio;
  const double efficiency = motor.gearEfficiency;
  Drive result;
  result.motorType = drive.motorType;
  result.gearRatio = ratio;
  result.maxTorque = drive.maxTorque;
  result.torquePerAmpere = motor.torqueConstant * ratio * efficiency;
  // Voltage-mode loop: V = Kv·e drives I = V/R, torque = Kt·I·ratio·efficiency at the joint.
  result.positionGain = result.torquePerAmpere * motor.positionGain / motor.terminalResistance;
  // Back-EMF Kt·ratio·ω through the same winding: braking torque proportional to the joint speed.
  result.velocityGain = result.torquePerAmpere * motor.torqueConstant * ratio / motor.terminalResistance;
  result.noLoadCurrent = motor.noLoadCurrent;
  result.armature = motor.rotorInertia * ratio * ratio;
  result.coulombFriction = drive.friction;
  result.staticFriction = result.coulombFriction * motor.stictionRatio;
  result.windingResistance = motor.terminalResistance;
  return result;
}

std::array<Drive, numOfJoints> makeDrives(const MotorParameters& parameters)
{
  std::array<Drive, numOfJoints> drives;
  for (std::size_t joint = 0; joint < numOfJoints; ++joint)
  {
    const DriveParameters& drive = parameters.drives[static_cast<std::size_t>(driveKindOf(jointAt(joint)))];
    drives[joint] = makeDrive(parameters.motorTypes[static_cast<std::size_t>(drive.motorType - 1)], drive);
  }
  return drives;
}

double encoderStep(int encoderBits)
{
  return 2.0 * std::numbers::pi / std::ldexp(1.0, encoderBits);
}

double quantise(double angle, double step)
{
  return step * std::round(angle / step);
}

long long encoderCount(long long previousCount, double angle, double step, double hysteresis)
{
  const double counts = angle / step;
  if (std::abs(counts - static_cast<double>(previousCount)) <= 0.5 + 0.5 * hysteresis) return previousCount;
  return std::llround(counts);
}

double controllerTorque(const Drive& drive, double targetAngle, double measuredAngle, double velocity,
                        double torqueLimit, double deadBand)
{
  const double error = targetAngle - measuredAngle;
  if (std::abs(error) <= deadBand || torqueLimit <= 0.0) return 0.0;
  const double torque = drive.positionGain * error - drive.velocityGain * velocity;
  return std::clamp(torque, -torqueLimit, torqueLimit);
}

double motorCurrent(const Drive& drive, double motorTorque, bool powered)
{
  if (!powered) return 0.0;
  return std::abs(motorTorque) / drive.torquePerAmpere + drive.noLoadCurrent;
}
} // namespace nao::sim
