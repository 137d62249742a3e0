// SimulatedRobot: what a user changes in a running simulation (serve --control, Util/Simulator/App/README.md): pushes
// at any body, the head's touch buttons, the battery's charge, a winding's temperature and another plant.
#include "Util/Simulator/Physics/SimulatedRobot.h"

#include "Util/Simulator/Physics/DriveModel.h"
#include "Util/Simulator/Physics/Encoder.h"

#include <algorithm>
#include <cmath>

namespace nao::sim
{
int SimulatedRobot::bodyId(const std::string& name) const
{
  const int id = mj_name2id(model_.get(), mjOBJ_BODY, name.c_str());
  // The world and the lift handle (a mocap body) are no part of the robot.
  return id > 0 && model_->body_mocapid[id] < 0 ? id : -1;
}

std::vector<std::string> SimulatedRobot::bodyNames() const
{
  std::vector<std::string> names;
  for (int id = 1; id < model_->nbody; ++id)
    if (model_->body_mocapid[id] < 0)
      if (const char* name = mj_id2name(model_.get(), mjOBJ_BODY, id)) names.emplace_back(name);
  return names;
}

void SimulatedRobot::pressButton(std::size_t touch, double duration)
{
  buttonUntil_.at(touch) = duration > 0 ? time() + duration : -1.0;
  sensors_.touch[touch] = duration > 0 ? 1.f : 0.f; // a button's reading has no delay: this frame reads it
}

void SimulatedRobot::setBatteryCharge(double charge)
{
  battery_.charge = std::clamp(charge, 0.0, 1.0);
  drainRate_ = 0.0;
  sensors_.battery.charge = battery_.charge; // this frame's reading already (a gauge set, not one that moved)
}

void SimulatedRobot::setWindingTemperature(std::size_t joint, double temperature)
{
  temperatures_.at(joint).winding = temperature;
  asleep_ = false;
}

void SimulatedRobot::changePlant(const SimConfig& config, const RobotVariation& robot)
{
  config_.motors = config.motors;
  config_.sensors = config.sensors;
  robot_ = robot;
  readingStep_ = encoderStep(config_.sensors.position.bits);
  const std::array<Drive, numOfJoints> drives = makeDrives(config_.motors, robot_);
  for (std::size_t joint = 0; joint < numOfJoints; ++joint)
    actuators_[joint].changePlant(drives[joint], config_.motors.board);
  asleep_ = false; // the resting torques were those of the old gears
  quietSteps_ = 0;
}
} // namespace nao::sim
