#include "Util/Simulator/Physics/PlantCalibration.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace nao::sim
{
namespace
{
constexpr std::size_t firstLegJoint = index(Joint::LHipYawPitch), lastLegJoint = index(Joint::RAnkleRoll);

JointValues uniform(float value)
{
  JointValues values;
  values.fill(value);
  return values;
}

float degrees(double value)
{
  return static_cast<float>(value * std::numbers::pi / 180.0);
}

double roomOf(const SimulatedRobot& robot)
{
  return std::isnan(robot.robot().roomTemperature) ? robot.config().motors.roomTemperature
                                                   : robot.robot().roomTemperature;
}
} // namespace

JointValues bHumanStand()
{
  JointValues angles{};
  const auto set = [&](Joint joint, double value) { angles[index(joint)] = degrees(value); };
  set(Joint::LShoulderPitch, 90.0);
  set(Joint::LShoulderRoll, 7.0);
  set(Joint::LElbowRoll, -2.5);
  set(Joint::LWristYaw, -90.0);
  set(Joint::RShoulderPitch, 90.0);
  set(Joint::RShoulderRoll, -7.0);
  set(Joint::RElbowRoll, 2.5);
  set(Joint::RWristYaw, 90.0);
  for (const Joint joint : {Joint::LHipPitch, Joint::RHipPitch})
    set(joint, -20.0484);
  for (const Joint joint : {Joint::LKneePitch, Joint::RKneePitch})
    set(joint, 48.0313);
  for (const Joint joint : {Joint::LAnklePitch, Joint::RAnklePitch})
    set(joint, -27.9829);
  return angles;
}

void standStill(SimulatedRobot& robot, double seconds)
{
  robot.resetToPosture(bHumanStand());
  robot.setCommand(bHumanStand(), uniform(1.f));
  robot.advance(seconds);
}

LimpStand limpStand(SimulatedRobot& robot, double seconds)
{
  standStill(robot, 1.0);
  const GroundTruth before = robot.groundTruth();
  LimpStand stand;
  stand.kneeStaticFriction = 1e300;
  for (const Joint knee : {Joint::LKneePitch, Joint::RKneePitch})
  {
    const std::size_t k = index(knee);
    stand.kneeLoad = std::max(stand.kneeLoad, std::abs(before.motorTorques[k] + before.frictionTorques[k]));
    stand.kneeStaticFriction = std::min(stand.kneeStaticFriction, robot.drive(knee).staticFriction);
  }
  robot.setCommand(bHumanStand(), uniform(0.f));
  robot.advance(seconds);
  const GroundTruth& after = robot.groundTruth();
  for (std::size_t joint = firstLegJoint; joint <= lastLegJoint; ++joint)
    if (const double drift = std::abs(after.angles[joint] - before.angles[joint]);
        drift > stand.largestLegDrift)
    {
      stand.largestLegDrift = drift;
      stand.driftJoint = jointAt(joint);
    }
  stand.torsoDrop = before.torsoHeight - after.torsoHeight;
  return stand;
}

PushedFall pushedLimpFall(SimulatedRobot& robot, LimpBy limp)
{
  standStill(robot, 1.0);
  if (limp == LimpBy::stiffnessZero)
    robot.setCommand(bHumanStand(), uniform(0.f));
  else
    robot.setMotorTemperatures(95.0);
  robot.advance(0.5);
  PushedFall fall;
  fall.heightAtPush = fall.lowest = robot.groundTruth().torsoHeight;
  const double pushedAt = robot.time();
  robot.push({pushForce, 0.0, 0.0}, pushDuration);
  for (int frame = 0; frame < 167; ++frame) // 2 s
  {
    robot.advance(robot.frameTime());
    fall.lowest = std::min(fall.lowest, robot.groundTruth().torsoHeight);
    if (fall.fallenAfter < 0 && !fall.fellBeforeThePush() && fall.lowest < fallenTorsoHeight)
      fall.fallenAfter = robot.time() - pushedAt;
  }
  return fall;
}

LimpWarming limpWarming(SimulatedRobot& robot, double seconds)
{
  standStill(robot, 1.0);
  robot.setCommand(bHumanStand(), uniform(0.f));
  const std::size_t knee = index(Joint::LKneePitch);
  const double before = robot.groundTruth().windingTemperatures[knee];
  robot.advance(seconds);
  const GroundTruth& after = robot.groundTruth();
  LimpWarming warming;
  warming.kneeRise = after.windingTemperatures[knee] - before;
  warming.airAboveRoom = after.airTemperature - roomOf(robot);
  for (const double current : after.currents)
    warming.largestCurrent = std::max(warming.largestCurrent, std::abs(current));
  return warming;
}

KneeStall kneeStall(const SimConfig& config, const RobotVariation& variation, float stiffness)
{
  SimulatedRobot robot(config, variation);
  standStill(robot, 0.5);
  robot.pickUp();
  robot.advance(1.0);
  JointValues targets = bHumanStand();
  targets[index(Joint::LKneePitch)] = degrees(-20.0);
  JointValues stiffnesses = uniform(1.f);
  stiffnesses[index(Joint::LKneePitch)] = stiffness;
  robot.setCommand(targets, stiffnesses);
  robot.advance(1.0);
  return {robot.groundTruth().currents[index(Joint::LKneePitch)],
          robot.sensors().currents[index(Joint::LKneePitch)]};
}
} // namespace nao::sim
