#include "Util/Simulator/Physics/DriveModel.h"

#include <algorithm>
#include <cmath>

namespace nao::sim
{
Drive makeDrive(const MotorTypeParameters& motor, const DriveParameters& drive,
                const JointVariation& variation)
{
  const double ratio = drive.gearRatio;
  const double efficiency = motor.gearEfficiency;
  const double torqueConstant = motor.torqueConstant * variation.torqueConstant;
  const double resistance = motor.terminalResistance * variation.terminalResistance;
  Drive result;
  result.motorType = drive.motorType;
  result.gearRatio = ratio;
  // The stall torque at the supply voltage scales with Kt / R like every gain below.
  result.maxTorque = drive.maxTorque * variation.torqueConstant / variation.terminalResistance;
  result.torquePerAmpere = torqueConstant * ratio * efficiency;
  // Voltage-mode loop: V = Kv·e drives I = V/R, torque = Kt·I·ratio·efficiency at the joint.
  result.positionGain = result.torquePerAmpere * motor.positionGain / resistance * variation.boardGain;
  result.derivativeGain = result.torquePerAmpere * motor.derivativeGain / resistance * variation.boardGain;
  // Back-EMF Kt·ratio·ω through the same winding: braking torque proportional to the joint speed.
  result.velocityGain = result.torquePerAmpere * torqueConstant * ratio / resistance;
  result.armature = motor.rotorInertia * ratio * ratio;
  result.staticFriction = drive.staticFriction * variation.staticFriction;
  result.slidingFriction = std::min(drive.slidingFriction * variation.slidingFriction, result.staticFriction);
  result.bearingFriction = drive.bearingFriction;
  result.backlash = drive.backlash * variation.backlash;
  result.stiffnessGain = variation.stiffnessGain;
  result.windingResistance = resistance;
  result.thermal.windingCapacity = motor.windingCapacity * variation.heatCapacity;
  result.thermal.windingToCase = motor.windingToCase * variation.thermalResistance;
  result.thermal.caseCapacity = motor.caseCapacity * variation.heatCapacity;
  result.thermal.caseToAir = motor.caseToAir * variation.thermalResistance;
  return result;
}

std::array<Drive, numOfJoints> makeDrives(const MotorParameters& parameters, const RobotVariation& robot)
{
  std::array<Drive, numOfJoints> drives;
  for (std::size_t joint = 0; joint < numOfJoints; ++joint)
  {
    const DriveParameters& drive = parameters.drives[static_cast<std::size_t>(driveKindOf(jointAt(joint)))];
    drives[joint] = makeDrive(parameters.motorOf(drive), drive, robot.joints[joint]);
  }
  return drives;
}

double boardTorque(const Drive& drive, long long errorCounts, double countStep, double boardSpeed,
                   double motorSpeed, double torqueLimit)
{
  if (torqueLimit <= 0.0) return 0.0; // stiffness 0 or the firmware's cut: the bridge is off
  // A board that applies the stiffness to its gains too (how it applies it is not published): the part
  // `stiffnessGain` of its gains scales with the stiffness (the torque limit's share of the maximum torque).
  const double stiffness = drive.maxTorque > 0.0 ? std::clamp(torqueLimit / drive.maxTorque, 0.0, 1.0) : 1.0;
  const double gainFactor = 1.0 - drive.stiffnessGain * (1.0 - stiffness);
  // The board's voltage, in N·m of stall torque it would give: its PD output, at most the supply voltage.
  const double voltageTorque =
      std::clamp(gainFactor * (drive.positionGain * static_cast<double>(errorCounts) * countStep -
                               drive.derivativeGain * boardSpeed),
                 -drive.maxTorque, drive.maxTorque);
  // The spinning motor's back-EMF takes its share of that voltage: at the no-load speed nothing is left. The
  // current (the torque) is then limited by the stiffness.
  return std::clamp(voltageTorque - drive.velocityGain * motorSpeed, -torqueLimit, torqueLimit);
}

double motorCurrent(const Drive& drive, double motorTorque)
{
  return std::abs(motorTorque) / drive.torquePerAmpere;
}
} // namespace nao::sim
