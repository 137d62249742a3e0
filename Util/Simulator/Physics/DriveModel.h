#pragma once
// One joint's drive: a brushed DC motor behind a gear train, driven by its motor board's position loop. Pure
// functions over plain data; JointActuator applies them at every physics step. Derivations of the constants
// and the sources of the numbers: Config/Sim/motors.toml.
#include "Util/MujocoModel/MotorParameters.h"
#include "Util/Simulator/Physics/RobotVariation.h"
#include "Util/Simulator/Physics/ThermalModel.h"

#include <array>

namespace nao::sim
{
/// Constants of one joint's drive on one robot, derived from its motor type, its gear and how the robot
/// differs (all at the joint unless stated).
struct Drive
{
  int motorType = 1;              ///< 1..5
  double gearRatio = 1.0;         ///< motor turns per joint turn
  double maxTorque = 0.0;         ///< N·m at stiffness 1: the stall torque of the motor's supply voltage
  double positionGain = 0.0;      ///< N·m/rad = Kt · Kv · ratio · efficiency / R
  double derivativeGain = 0.0;    ///< N·m·s/rad = Kt · Kd · ratio · efficiency / R (the board's damping)
  double velocityGain = 0.0;      ///< N·m·s/rad = Kt · Kt · ratio² · efficiency / R (back-EMF braking)
  double torquePerAmpere = 0.0;   ///< N·m/A = Kt · ratio · efficiency
  double armature = 0.0;          ///< kg·m², rotor inertia × ratio²
  double staticFriction = 0.0;    ///< N·m, gear train while stuck
  double slidingFriction = 0.0;   ///< N·m, gear train while sliding (never above staticFriction)
  double bearingFriction = 0.0;   ///< N·m on the joint while the backlash is open
  double backlash = 0.0;          ///< rad, total play between gear train and joint
  double windingResistance = 0.0; ///< Ω
  /// 0..1: the share of the gains that scales with the stiffness (0: stiffness only limits the torque)
  double stiffnessGain = 0.0;
  MotorThermal thermal;
};

Drive makeDrive(const MotorTypeParameters& motor, const DriveParameters& drive,
                const JointVariation& variation = {});
/// One drive per LoLA joint of this robot.
std::array<Drive, numOfJoints> makeDrives(const MotorParameters& parameters, const RobotVariation& robot);

/// The board's position loop. It works in whole counts of its own angle sensor: the target is rounded to the
/// board's grid and compared with the board's count, so the output is proportional to a whole number of
/// counts and exactly zero when both are the same count and the count does not change. The board's voltage is
/// positionGain · error − derivativeGain · boardSpeed (the board's damping, on the speed it measures), at most
/// the supply voltage (±maxTorque: what it gives at stall); the back-EMF of the spinning motor subtracts
/// velocityGain · motorSpeed, so a joint runs no faster than the motor's no-load speed through the gear
/// (maxTorque / velocityGain); the result is limited to ±torqueLimit (stiffness × maximum torque × firmware
/// factor: a current limit). N·m at the joint; speeds in rad/s at the joint.
double boardTorque(const Drive& drive, long long errorCounts, double countStep, double boardSpeed,
                   double motorSpeed, double torqueLimit);

/// A: the motor current that makes this joint torque, |torque| / torquePerAmpere.
double motorCurrent(const Drive& drive, double motorTorque);
} // namespace nao::sim
