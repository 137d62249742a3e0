#pragma once
// One joint's drive as the motor board sees it: a brushed DC motor behind a gear train, a 12-bit magnetic
// encoder on the joint and a position loop whose output is limited to stiffness × maximum torque. Pure
// functions over plain data; SimulatedRobot calls them once per physics step. Derivations of the constants:
// motors.toml.
#include "Util/Simulator/Physics/SimParameters.h"

#include <array>

namespace nao::sim
{
/// Constants of one joint's drive, derived from its motor type and gear (all at the joint unless stated).
struct Drive
{
  int motorType = 1;              ///< 1..5
  double gearRatio = 1.0;         ///< motor turns per joint turn
  double maxTorque = 0.0;         ///< N·m at stiffness 1
  double positionGain = 0.0;      ///< N·m/rad = Kt · Kv · ratio · efficiency / R
  double velocityGain = 0.0;      ///< N·m·s/rad = Kt · Kt · ratio² · efficiency / R (back-EMF braking)
  double torquePerAmpere = 0.0;   ///< N·m/A = Kt · ratio · efficiency
  double noLoadCurrent = 0.0;     ///< A
  double armature = 0.0;          ///< kg·m², rotor inertia × ratio²
  double coulombFriction = 0.0;   ///< N·m, gear friction while sliding
  double staticFriction = 0.0;    ///< N·m, gear friction while stuck
  double windingResistance = 0.0; ///< Ω
};

Drive makeDrive(const MotorTypeParameters& motor, const DriveParameters& drive);
/// One drive per LoLA joint.
std::array<Drive, numOfJoints> makeDrives(const MotorParameters& parameters);

/// rad per encoder count: 2π / 2^bits.
double encoderStep(int encoderBits);
/// The nearest multiple of step.
double quantise(double angle, double step);

/// A magnetic encoder IC's output count with hysteresis: the count follows the nearest multiple of step, but
/// switches back and forth only when the angle passes the boundary between two counts by more than half the
/// hysteresis (in counts). Without it a joint resting on a boundary makes the reading, and with it the
/// position loop's output, flicker every sample.
long long encoderCount(long long previousCount, double angle, double step, double hysteresis);

/// The board's position loop: nothing while |target − measured| <= deadBand (bridge off), otherwise
/// positionGain · error − velocityGain · velocity, limited to ±torqueLimit. N·m at the joint.
double controllerTorque(const Drive& drive, double targetAngle, double measuredAngle, double velocity,
                        double torqueLimit, double deadBand);

/// A: |torque| / torquePerAmpere + noLoadCurrent while the joint is powered (stiffness > 0), else 0. The
/// no-load current stands for what motor and bridge draw without load; it is the floor a held joint reads.
double motorCurrent(const Drive& drive, double motorTorque, bool powered);
} // namespace nao::sim
