#include "Util/Simulator/Physics/SimulatedRobot.h"

#include "Util/MujocoModel/MjcfBuilder.h"
#include "Util/Simulator/Physics/Encoder.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

namespace nao::sim
{
namespace
{
constexpr std::uint64_t noiseStream = 2; ///< Random::stream purpose of all sensor and board noise

const SimConfig& validated(const SimConfig& config)
{
  validate(config);
  return config;
}
} // namespace

SimulatedRobot::SimulatedRobot(const SimConfig& config, const RobotVariation& robot)
    : config_(validated(config)), robot_(robot),
      model_(loadMjcf(buildMjcf(config.urdfFile, config.physics, config.motors))),
      data_(mj_makeData(model_.get())),
      noise_(Random::stream(robot.seed, noiseStream + 16 * robot.noiseSeed)),
      readingStep_(encoderStep(config.sensors.position.bits))
{
  if (!data_) throw std::runtime_error("MuJoCo cannot allocate the simulation data");
  stepsPerFrame_ =
      std::max(1, static_cast<int>(std::lround(config_.physics.frameTime / config_.physics.timestep)));
  findModelParts();
  frictionForces_.assign(static_cast<std::size_t>(model_->nv), 0.0);
  torqueFactor_.fill(1.0);
  room_ = std::isnan(robot.roomTemperature) ? config_.motors.roomTemperature : robot.roomTemperature;
  const double start = room_ + robot.startRise;
  for (auto& temperature : temperatures_)
    temperature = {start, start};
  airTemperature_ = start;
  battery_ = {config_.motors.battery.initialCharge, 0.0, start};
  resetToPosture(JointValues{});
}

void SimulatedRobot::findModelParts()
{
  mjModel& m = *model_;
  const std::array<Drive, numOfJoints> drives = makeDrives(config_.motors, robot_);
  for (int dof = 0; dof < m.nv; ++dof)
  {
    m.dof_frictionloss[dof] = 0.0;
    m.dof_damping[dof] = 0.0;
  }
  for (std::size_t joint = 0; joint < numOfJoints; ++joint)
  {
    const std::string name(jointNames[joint]);
    const int id = requireId(m, mjOBJ_JOINT, name.c_str());
    qposAddress_[joint] = m.jnt_qposadr[id];
    actuators_[joint] = JointActuator(drives[joint], config_.motors.board, m.jnt_dofadr[id],
                                      requireId(m, mjOBJ_ACTUATOR, name.c_str()));
  }
  // The coupled joint: the one hinge that is not a LoLA joint and is driven by an equality constraint.
  for (int eq = 0; eq < m.neq; ++eq)
    if (m.eq_type[eq] == mjEQ_JOINT) mimicDof_ = m.jnt_dofadr[m.eq_obj1id[eq]];
  torsoBody_ = requireId(m, mjOBJ_BODY, config_.physics.torsoLink.c_str());
  upperBodies_ = {requireId(m, mjOBJ_BODY, "Head"), requireId(m, mjOBJ_BODY, "LShoulder"),
                  requireId(m, mjOBJ_BODY, "LBicep"), requireId(m, mjOBJ_BODY, "RShoulder"),
                  requireId(m, mjOBJ_BODY, "RBicep")};
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
    // A board's target is one turn of its absolute encoder (12 bits over 2π, NaoFacts.md): what lies beyond is
    // taken as the end of that range on the command's side, before any conversion to integer counts. A target
    // beyond a joint's stop (but within the turn) stalls the motor against the stop, as on the robot.
    constexpr float boardRange = std::numbers::pi_v<float>;
    if (std::isfinite(positions[joint]))
      targets_[joint] = std::clamp(positions[joint], -boardRange, boardRange);
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
  updateGroundTruth();
}

double SimulatedRobot::torqueLimit(std::size_t joint) const
{
  return stiffnesses_[joint] * torqueFactor_[joint] * actuators_[joint].drive().maxTorque;
}

bool SimulatedRobot::eventRunning() const
{
  return pushStepsLeft_ > 0 || lift_.phase == LiftPhase::rising || lift_.phase == LiftPhase::lowering;
}

bool SimulatedRobot::runBoards()
{
  mjModel& m = *model_;
  mjData& d = *data_;
  const double timestep = config_.physics.timestep;
  bool wake = false;
  for (std::size_t joint = 0; joint < numOfJoints; ++joint)
  {
    JointActuator& actuator = actuators_[joint];
    // The robot's targets are in its reading frame; the board's frame is the joint's true angle.
    const double target = targets_[joint] - robot_.joints[joint].positionOffset;
    actuator.beforeStep(m, d, target, torqueLimit(joint), timestep, noise_);
    if (asleep_)
    {
      // At rest nothing moves: the gear keeps transmitting what it did, its friction takes the difference.
      const double friction = restMotorTorque_[joint] + restFriction_[joint] - d.ctrl[actuator.actuator()];
      wake |=
          !actuator.holdsAtRest(restMotorTorque_[joint], restFriction_[joint], d.ctrl[actuator.actuator()]);
      wake |= actuator.afterStep(m, d, friction);
    }
    const double current = actuator.current();
    currentSum_[joint] += current;
    squaredCurrentSum_[joint] += current * current;
  }
  return wake;
}

void SimulatedRobot::step()
{
  const bool running = eventRunning();
  const bool wake = runBoards();
  if (asleep_ && (wake || running)) asleep_ = false;
  if (!asleep_)
  {
    moveLiftHandle();
    mj_step(model_.get(), data_.get());
    ++mujocoSteps_;
    if (pushStepsLeft_ > 0 && --pushStepsLeft_ == 0) std::fill_n(data_->xfrc_applied + 6 * pushBody_, 3, 0.0);
    // The gyroscope reads the frame's mean angular velocity (below, readSensors): a MEMS gyroscope low-passes and
    // averages its internal samples before the 83 Hz read, and an instant sample would alias the jolt each new
    // 12 ms target gives the body into a rate that integrates away from the true orientation.
    mjtNum motion[6];
    mj_objectVelocity(model_.get(), data_.get(), mjOBJ_SITE, gyroscopeSite_, motion, 1);
    for (std::size_t axis = 0; axis < 3; ++axis)
      gyroSum_[axis] += motion[axis];
    collectFrictionForces();
    for (JointActuator& actuator : actuators_)
      actuator.afterStep(*model_, *data_, frictionForces_[static_cast<std::size_t>(actuator.dof())]);
    updateSleep(running);
  }
  ++gyroSteps_; // asleep, the body rests: the step adds no rotation
  ++steps_;
  if (++stepsInFrame_ == stepsPerFrame_) finishFrame();
}

void SimulatedRobot::collectFrictionForces()
{
  const mjData& d = *data_;
  std::fill(frictionForces_.begin(), frictionForces_.end(), 0.0);
  for (int row = 0; row < d.nefc; ++row)
    if (d.efc_type[row] == mjCNSTR_FRICTION_DOF)
      frictionForces_[static_cast<std::size_t>(d.efc_id[row])] = d.efc_force[row];
}

void SimulatedRobot::updateSleep(bool running)
{
  const PhysicsParameters& physics = config_.physics;
  if (physics.sleepVelocity <= 0.0) return;
  const mjData& d = *data_;
  bool quiet = !running;
  for (int dof = 0; quiet && dof < model_->nv; ++dof)
    quiet =
        std::abs(d.qvel[dof]) < physics.sleepVelocity && std::abs(d.qacc[dof]) < physics.sleepAcceleration;
  quietSteps_ = quiet ? quietSteps_ + 1 : 0;
  if (quietSteps_ < physics.sleepSteps) return;
  // At rest: what is left is the creep of MuJoCo's soft constraints, which real gears and floors do not have.
  asleep_ = true;
  quietSteps_ = 0;
  std::fill_n(data_->qvel, model_->nv, 0.0);
  for (std::size_t joint = 0; joint < numOfJoints; ++joint)
  {
    const JointActuator& actuator = actuators_[joint];
    restMotorTorque_[joint] = d.ctrl[actuator.actuator()];
    restFriction_[joint] = frictionForces_[static_cast<std::size_t>(actuator.dof())];
  }
}

void SimulatedRobot::finishFrame()
{
  const double frameSeconds = stepsInFrame_ * config_.physics.timestep;
  const MotorParameters& motors = config_.motors;
  double totalCurrent = motors.battery.baseLoad;
  double heatIntoAir = motors.bodyAir.basePower;
  for (std::size_t joint = 0; joint < numOfJoints; ++joint)
  {
    const Drive& drive = actuators_[joint].drive();
    frameCurrents_[joint] = currentSum_[joint] / stepsInFrame_;
    const double windingPower = squaredCurrentSum_[joint] / stepsInFrame_ * drive.windingResistance;
    totalCurrent += frameCurrents_[joint];
    MotorTemperature& temperature = temperatures_[joint];
    advanceTemperature(temperature, drive.thermal, windingPower, motors.board.electronicsPower,
                       airTemperature_, frameSeconds);
    heatIntoAir += (temperature.housing - airTemperature_) / drive.thermal.caseToAir;
    status_[joint] = temperatureStatus(status_[joint], temperature.winding, motors.temperatureStatus);
    torqueFactor_[joint] = torqueLimitFactor(status_[joint], temperature.winding, motors.temperatureStatus,
                                             motors.firmwareProtection);
    currentSum_[joint] = 0.0;
    squaredCurrentSum_[joint] = 0.0;
  }
  airTemperature_ = advanceBodyAir(airTemperature_, motors.bodyAir, heatIntoAir, room_, frameSeconds);
  advanceBattery(battery_, motors.battery, totalCurrent, room_, frameSeconds);
  battery_.charge = std::max(0.0, battery_.charge - drainRate_ * frameSeconds);
  stepsInFrame_ = 0;
  pastCurrents_[++framesFinished_ % currentHistory] = frameCurrents_;
  readSensors();
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
  readSensors();
  updateGroundTruth();
}
} // namespace nao::sim
