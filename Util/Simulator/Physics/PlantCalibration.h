#pragma once
// The single-robot measurements that the plant's calibration is checked by (README, "Calibration"): a robot in
// B-Human's stand at stiffness 0, left alone and pushed (also at status 3); how much it warms at stiffness 0; a knee
// stalled against its stop at stiffness 1 and 0.75. The plant tests (Tests/MotorBehaviourTest.cpp,
// Tests/ThermalBehaviourTest.cpp) assert them on the nominal robot; `Simulator calibration` tabulates them per drawn
// robot (Util/Simulator/Run/CalibrationEvaluation.h).
#include "Util/Simulator/Physics/SimulatedRobot.h"

namespace nao::sim
{
/// B-Human's keyframe "stand" (geometry.md §5), rad.
JointValues bHumanStand();

/// From a reset into bHumanStand(), stiffness 1 everywhere, settled for `seconds`.
void standStill(SimulatedRobot& robot, double seconds);

/// A robot that stands still for 1 s, then at stiffness 0 for a while, undisturbed.
struct LimpStand
{
  double kneeLoad = 0; ///< N·m, the larger of the knees' gear torques (motor + friction) before: the load
  double kneeStaticFriction = 0; ///< N·m, the smaller static friction of the knees' gear trains
  double largestLegDrift = 0; ///< rad, the largest |change| of a leg joint's true angle while at stiffness 0
  Joint driftJoint = Joint::LHipYawPitch; ///< the leg joint of largestLegDrift
  double torsoDrop = 0;                   ///< m, the torso's height before − after

  /// Stood on its gears: the torso sank less than 1 mm.
  bool stood() const { return torsoDrop < 0.001; }
};

LimpStand limpStand(SimulatedRobot& robot, double seconds = 10.0);

/// How a standing robot loses its motors before a push: a stiffness-0 command, or every motor at 95 °C (status 3: the
/// firmware cuts the torque while the command keeps stiffness 1).
enum class LimpBy
{
  stiffnessZero,
  statusThree
};

/// Fallen: the torso origin below this (it stands at 0.315 m, a lying NAO's at about 0.1 m).
inline constexpr double fallenTorsoHeight = 0.2; ///< m

/// The push a stiff robot absorbs (EventsTest): 5 N forward for 0.1 s, 0.5 N·s.
inline constexpr double pushForce = 5.0, pushDuration = 0.1; ///< N, s

/// A robot that stood still for 1 s, went limp, stood 0.5 s more, was pushed and watched for 2 s.
struct PushedFall
{
  double heightAtPush = 0; ///< m
  double lowest = 0;       ///< m, the torso's lowest height in the 2 s
  double fallenAfter =
      -1; ///< s from the push's start to the torso below fallenTorsoHeight; −1: never, or before

  bool fellBeforeThePush() const { return heightAtPush < fallenTorsoHeight; }
};

PushedFall pushedLimpFall(SimulatedRobot& robot, LimpBy limp);

/// A robot that stood still for 1 s, then stood at stiffness 0 for `seconds`.
struct LimpWarming
{
  double kneeRise = 0;       ///< K, the left knee's winding over the time
  double airAboveRoom = 0;   ///< K, the air inside the robot at the end, above the robot's room
  double largestCurrent = 0; ///< A, the largest true motor current at the end
};

LimpWarming limpWarming(SimulatedRobot& robot, double seconds);

/// The left knee commanded far beyond its stop (−20°, the stop is at −5.29°) with the robot lifted: stalled, after 1 s.
struct KneeStall
{
  double trueCurrent = 0;     ///< A, the motor's
  double reportedCurrent = 0; ///< A, what LoLA reports (offset and noise included)
};

KneeStall kneeStall(const SimConfig& config, const RobotVariation& variation, float stiffness);
} // namespace nao::sim
