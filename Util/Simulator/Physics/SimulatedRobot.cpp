#include "Util/Simulator/Physics/SimulatedRobot.h"

#include "Util/Simulator/Physics/MjcfBuilder.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace nao::sim
{
namespace
{
const SimConfig& validated(const SimConfig& config)
{
  validate(config);
  return config;
}
} // namespace

SimulatedRobot::SimulatedRobot(const SimConfig& config)
    : config_(validated(config)), drives_(makeDrives(config.motors)), model_(loadMjcf(buildMjcf(config))),
      data_(mj_makeData(model_.get())), encoderStep_(encoderStep(config.motors.controller.encoderBits))
{
  if (!data_) throw std::runtime_error("MuJoCo cannot allocate the simulation data");
  stepsPerFrame_ =
      std::max(1, static_cast<int>(std::lround(config_.physics.frameTime / config_.physics.timestep)));
  findModelParts();
  applyDriveConstants();
  torqueFactor_.fill(1.0);
  for (auto& temperature : temperatures_)
    temperature = {config_.motors.ambientTemperature, config_.motors.ambientTemperature};
  battery_ = {config_.motors.battery.initialCharge, 0.0, config_.motors.ambientTemperature};
  resetToPosture(JointValues{});
}

void SimulatedRobot::findModelParts()
{
  const mjModel& m = *model_;
  for (std::size_t joint = 0; joint < numOfJoints; ++joint)
  {
    const std::string name(jointNames[joint]);
    const int id = requireId(m, mjOBJ_JOINT, name.c_str());
    qposAddress_[joint] = m.jnt_qposadr[id];
    dofAddress_[joint] = m.jnt_dofadr[id];
    actuator_[joint] = requireId(m, mjOBJ_ACTUATOR, name.c_str());
  }
  // The coupled joint: the one hinge that is not a LoLA joint and is driven by an equality constraint.
  for (int eq = 0; eq < m.neq; ++eq)
    if (m.eq_type[eq] == mjEQ_JOINT) mimicDof_ = m.jnt_dofadr[m.eq_obj1id[eq]];
  torsoBody_ = requireId(m, mjOBJ_BODY, config_.physics.torsoLink.c_str());
  liftHandle_ = m.body_mocapid[requireId(m, mjOBJ_BODY, mjcf::liftHandle)];
  liftWeld_ = requireId(m, mjOBJ_EQUALITY, mjcf::liftWeld);
  accelerometerSite_ = requireId(m, mjOBJ_SITE, config_.physics.accelerometerLink.c_str());
  gyroscopeSite_ = requireId(m, mjOBJ_SITE, config_.physics.gyroscopeLink.c_str());
  for (std::size_t fsr = 0; fsr < numOfFsrs; ++fsr)
    fsrGeom_[fsr] = requireId(m, mjOBJ_GEOM, mjcf::fsrGeomName(fsr).c_str());
  for (std::size_t foot = 0; foot < 2; ++foot)
  {
    std::array<std::array<double, 2>, 4> pads;
    for (std::size_t pad = 0; pad < 4; ++pad)
    {
      const int geom = fsrGeom_[4 * foot + pad];
      pads[pad] = {m.geom_pos[3 * geom], m.geom_pos[3 * geom + 1]};
    }
    footBody_[foot] = m.geom_bodyid[fsrGeom_[4 * foot]];
    fsrRectangle_[foot] = fsrRectangle(pads);
  }
}

void SimulatedRobot::applyDriveConstants()
{
  mjModel& m = *model_;
  for (int dof = 0; dof < m.nv; ++dof)
  {
    m.dof_armature[dof] = 0.0;
    m.dof_frictionloss[dof] = 0.0;
    m.dof_damping[dof] = 0.0;
  }
  // The rotor and the gear sit on the motor's own joint; the coupled RHipYawPitch only follows it.
  for (std::size_t joint = 0; joint < numOfJoints; ++joint)
  {
    m.dof_armature[dofAddress_[joint]] = drives_[joint].armature;
    m.dof_frictionloss[dofAddress_[joint]] = drives_[joint].staticFriction;
  }
  // MuJoCo regularises every constraint by (1 − impedance) / impedance × the dof's inverse weight; the
  // friction of a stuck joint then gives way at a creep speed proportional to that. Smaller weights make
  // joint friction, joint limits and the hip coupling (the constraints that use hinge dofs' weights; contacts
  // use the bodies') hold like real gears.
  for (int dof = 0; dof < m.nv; ++dof)
    if (m.jnt_type[m.dof_jntid[dof]] == mjJNT_HINGE)
      m.dof_invweight0[dof] /= config_.physics.frictionHardness;
}

void SimulatedRobot::setCommand(const JointValues& positions, const JointValues& stiffnesses)
{
  for (std::size_t joint = 0; joint < numOfJoints; ++joint)
  {
    if (std::isfinite(positions[joint])) targets_[joint] = positions[joint];
    const float stiffness = stiffnesses[joint];
    stiffnesses_[joint] = std::isnan(stiffness) ? 0.f : std::clamp(stiffness, 0.f, 1.f);
  }
}

void SimulatedRobot::advance(double seconds)
{
  const double timestep = config_.physics.timestep;
  pendingTime_ += seconds;
  while (pendingTime_ >= timestep * 0.5)
  {
    step();
    pendingTime_ -= timestep;
  }
  updateSensors();
  updateGroundTruth();
}

void SimulatedRobot::step()
{
  const bool torquesChanged = applyMotors();
  const bool eventRunning =
      pushStepsLeft_ > 0 || lift_.phase == LiftPhase::rising || lift_.phase == LiftPhase::lowering;
  if (asleep_ && (torquesChanged || eventRunning)) asleep_ = false;
  if (!asleep_)
  {
    moveLiftHandle();
    mj_step(model_.get(), data_.get());
    ++mujocoSteps_;
    if (pushStepsLeft_ > 0 && --pushStepsLeft_ == 0)
      std::fill_n(data_->xfrc_applied + 6 * torsoBody_, 3, 0.0);
    updateSleep(torquesChanged || eventRunning);
  }
  ++steps_;
  if (++stepsInFrame_ == stepsPerFrame_) finishFrame();
}

void SimulatedRobot::updateSleep(bool somethingChanged)
{
  const PhysicsParameters& physics = config_.physics;
  if (physics.sleepVelocity <= 0.0) return;
  const mjData& d = *data_;
  bool quiet = !somethingChanged;
  for (int dof = 0; quiet && dof < model_->nv; ++dof)
    quiet =
        std::abs(d.qvel[dof]) < physics.sleepVelocity && std::abs(d.qacc[dof]) < physics.sleepAcceleration;
  quietSteps_ = quiet ? quietSteps_ + 1 : 0;
  if (quietSteps_ < physics.sleepSteps) return;
  // At rest: what is left is the creep of MuJoCo's soft constraints, which real gears and floors do not have.
  asleep_ = true;
  quietSteps_ = 0;
  std::fill_n(data_->qvel, model_->nv, 0.0);
}

bool SimulatedRobot::applyMotors()
{
  mjModel& m = *model_;
  mjData& d = *data_;
  const ControllerParameters& controller = config_.motors.controller;
  bool torquesChanged = false;
  for (std::size_t joint = 0; joint < numOfJoints; ++joint)
  {
    const Drive& drive = drives_[joint];
    const int dof = dofAddress_[joint];
    const double angle = d.qpos[qposAddress_[joint]];
    const double velocity = d.qvel[dof];
    const double limit = stiffnesses_[joint] * torqueFactor_[joint] * drive.maxTorque;
    encoderCounts_[joint] =
        encoderCount(encoderCounts_[joint], angle, encoderStep_, controller.encoderHysteresis);
    const double measured = static_cast<double>(encoderCounts_[joint]) * encoderStep_;
    const double torque =
        controllerTorque(drive, targets_[joint], measured, velocity, limit, controller.deadBand);
    mjtNum& control = d.ctrl[actuator_[joint]];
    torquesChanged = torquesChanged || std::abs(torque - control) > config_.physics.sleepTorque;
    control = torque;
    // Stiction: a stuck gear must be broken loose with the static friction, a sliding one drags with the
    // Coulomb friction. MuJoCo's friction loss is a constraint force, so below the limit it holds exactly.
    m.dof_frictionloss[dof] =
        std::abs(velocity) < controller.stictionSpeed ? drive.staticFriction : drive.coulombFriction;
    const double current = motorCurrent(drive, torque, limit > 0.0);
    currentSum_[joint] += current;
    squaredCurrentSum_[joint] += current * current;
  }
  return torquesChanged;
}

void SimulatedRobot::finishFrame()
{
  const double frameSeconds = stepsInFrame_ * config_.physics.timestep;
  const MotorParameters& motors = config_.motors;
  double totalCurrent = motors.battery.baseLoad;
  for (std::size_t joint = 0; joint < numOfJoints; ++joint)
  {
    const Drive& drive = drives_[joint];
    const double meanCurrent = currentSum_[joint] / stepsInFrame_;
    const double heatPower = squaredCurrentSum_[joint] / stepsInFrame_ * drive.windingResistance;
    frameCurrents_[joint] = static_cast<float>(meanCurrent);
    totalCurrent += meanCurrent;
    MotorTemperature& temperature = temperatures_[joint];
    advanceTemperature(temperature, motors.motorTypes[static_cast<std::size_t>(drive.motorType - 1)],
                       heatPower, motors.ambientTemperature, frameSeconds);
    status_[joint] = temperatureStatus(status_[joint], temperature.winding, motors.temperatureStatus);
    torqueFactor_[joint] = torqueLimitFactor(status_[joint], temperature.winding, motors.temperatureStatus,
                                             motors.firmwareProtection);
    currentSum_[joint] = 0.0;
    squaredCurrentSum_[joint] = 0.0;
  }
  advanceBattery(battery_, motors.battery, totalCurrent, motors.ambientTemperature, frameSeconds);
  stepsInFrame_ = 0;
}

void SimulatedRobot::setMotorTemperatures(double temperature)
{
  for (std::size_t joint = 0; joint < numOfJoints; ++joint)
  {
    temperatures_[joint] = {temperature, temperature};
    status_[joint] = temperatureStatus(0, temperature, config_.motors.temperatureStatus);
    torqueFactor_[joint] = torqueLimitFactor(status_[joint], temperature, config_.motors.temperatureStatus,
                                             config_.motors.firmwareProtection);
  }
  updateSensors();
}
} // namespace nao::sim
