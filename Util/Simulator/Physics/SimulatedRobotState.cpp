// SimulatedRobot: sensors, ground truth, posture reset and the scenario events (pick up, put down, push).
#include "Util/Simulator/Physics/SimulatedRobot.h"

#include "Util/Simulator/Physics/Encoder.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace nao::sim
{
void SimulatedRobot::readSensors()
{
  const mjModel& m = *model_;
  mjData& d = *data_;
  const SensorParameters& sensors = config_.sensors;
  SimSensors& s = sensors_;
  s.time = time();
  // The board's current measurement of `currentDelayFrames` frames ago (a plant variant; 0: this frame's).
  const auto delay =
      static_cast<std::uint64_t>(std::clamp<int>(robot_.currentDelayFrames, 0, currentHistory - 1));
  const std::array<double, numOfJoints>& currents =
      pastCurrents_[(framesFinished_ + currentHistory - delay) % currentHistory];
  for (std::size_t joint = 0; joint < numOfJoints; ++joint)
  {
    const JointVariation& variation = robot_.joints[joint];
    // LoLA's position: the encoder's 12-bit output, calibrated with an offset that is not the board's.
    const double read = d.qpos[qposAddress_[joint]] + variation.positionOffset +
                        noise_.normal() * sensors.position.noise * readingStep_;
    readingCounts_[joint] =
        encoderCount(readingCounts_[joint], read, readingStep_, sensors.position.hysteresis);
    s.positions[joint] = static_cast<float>(static_cast<double>(readingCounts_[joint]) * readingStep_);
    s.stiffnesses[joint] = static_cast<float>(stiffnesses_[joint] * torqueFactor_[joint]);
    const double measured = currents[joint] * variation.currentGain + variation.currentOffset +
                            noise_.normal() * sensors.current.noise;
    s.currents[joint] = static_cast<float>(std::max(0.0, quantise(measured, sensors.current.resolution)));
    s.temperatures[joint] =
        static_cast<float>(quantise(temperatures_[joint].winding, sensors.temperature.resolution));
    s.status[joint] = status_[joint];
  }
  // Body accelerations of the last step's state (mj_step leaves the kinematics of the state it started from,
  // so positions, velocities and accelerations below belong together, 1 ms before the joint angles above).
  // While the robot sleeps the state is the resting one and only the noise changes.
  const BodySensorParameters& body = sensors.body;
  mj_rnePostConstraint(&m, &d);
  mjtNum motion[6];
  mj_objectAcceleration(&m, &d, mjOBJ_SITE, accelerometerSite_, motion, 1);
  for (int axis = 0; axis < 3; ++axis)
    s.accelerometer[axis] = static_cast<float>(motion[3 + axis] + noise_.normal() * body.accelerometerNoise);
  // The frame's mean angular velocity (SimulatedRobot::step); asleep, or before the first step, the state's own.
  mj_objectVelocity(&m, &d, mjOBJ_SITE, gyroscopeSite_, motion, 1);
  for (std::size_t axis = 0; axis < 3; ++axis)
  {
    const double rate = gyroSteps_ > 0 ? gyroSum_[axis] / gyroSteps_ : motion[axis];
    s.gyroscope[axis] = static_cast<float>(rate + noise_.normal() * body.gyroscopeNoise);
  }
  gyroSum_ = {};
  gyroSteps_ = 0;
  const mjtNum* r = d.xmat + 9 * torsoBody_; // row-major torso->world rotation
  s.angles[0] = static_cast<float>(std::atan2(r[7], r[8]) + noise_.normal() * body.angleNoise);
  s.angles[1] =
      static_cast<float>(std::asin(std::clamp(-r[6], -1.0, 1.0)) + noise_.normal() * body.angleNoise);
  std::array<double, numOfFsrs> forces{};
  for (int contact = 0; contact < d.ncon; ++contact)
    addSoleContact(contact, forces);
  double total = 0.0;
  groundTruth_.footForces = {};
  for (std::size_t fsr = 0; fsr < numOfFsrs; ++fsr)
  {
    groundTruth_.footForces[fsr < numOfFsrs / 2 ? 0 : 1] += forces[fsr];
    const double kilograms = forces[fsr] / config_.physics.gravity;
    total += kilograms;
    s.fsr[fsr] = static_cast<float>(std::max(0.0, kilograms + noise_.normal() * body.fsrNoise));
  }
  groundTruth_.fsrTotal = total;
  s.battery = battery_;
  s.touch = {};
  for (std::size_t touch = 0; touch < buttonUntil_.size(); ++touch)
    s.touch[touch] = time() < buttonUntil_[touch] - 1e-9 ? 1.f : 0.f;
}

void SimulatedRobot::addSoleContact(int contact, std::array<double, numOfFsrs>& forces) const
{
  const mjModel& m = *model_;
  const mjData& d = *data_;
  const mjContact& c = d.contact[contact];
  for (std::size_t foot = 0; foot < 2; ++foot)
  {
    const bool first = m.geom_bodyid[c.geom1] == footBody_[foot];
    if (!first && m.geom_bodyid[c.geom2] != footBody_[foot]) continue;
    mjtNum force[6];
    mj_contactForce(&m, &d, contact, force);
    const int geom = first ? c.geom1 : c.geom2;
    const auto pad = std::find(fsrGeom_.begin(), fsrGeom_.end(), geom);
    if (pad != fsrGeom_.end())
    {
      forces[static_cast<std::size_t>(pad - fsrGeom_.begin())] += force[0];
      return;
    }
    // Elsewhere on the sole: the contact point in the foot frame decides which pads carry it.
    const mjtNum* footPosition = d.xpos + 3 * footBody_[foot];
    const mjtNum* footRotation = d.xmat + 9 * footBody_[foot];
    mjtNum offset[3], local[3];
    mju_sub3(offset, c.pos, footPosition);
    mju_rotVecMatT(local, offset, footRotation);
    const std::array<double, 4> shares = fsrShares(fsrRectangle_[foot], local[0], local[1]);
    for (std::size_t k = 0; k < 4; ++k)
      forces[4 * foot + k] += shares[k] * force[0];
    return;
  }
}

void SimulatedRobot::updateGroundTruth()
{
  updateImpactTruth();
  const mjModel& m = *model_;
  const mjData& d = *data_;
  GroundTruth& g = groundTruth_;
  const mjtNum* root = d.qpos + m.jnt_qposadr[m.body_jntadr[torsoBody_]];
  g.torsoPosition = Eigen::Vector3d(root[0], root[1], root[2]);
  g.torsoHeight = root[2];
  g.torsoOrientation = Eigen::Quaterniond(root[3], root[4], root[5], root[6]);
  for (std::size_t joint = 0; joint < numOfJoints; ++joint)
  {
    const JointActuator& actuator = actuators_[joint];
    g.angles[joint] = d.qpos[qposAddress_[joint]];
    g.velocities[joint] = d.qvel[actuator.dof()];
    g.boardAngles[joint] = static_cast<double>(actuator.boardCount()) * actuator.boardStep();
    g.motorTorques[joint] = actuator.motorTorque();
    g.frictionTorques[joint] =
        asleep_ ? restMotorTorque_[joint] + restFriction_[joint] - d.ctrl[actuator.actuator()]
                : frictionForces_[static_cast<std::size_t>(actuator.dof())];
    g.torqueLimits[joint] = torqueLimit(joint);
    g.currents[joint] = frameCurrents_[joint];
    g.gearEngaged[joint] = actuator.engaged();
    g.windingTemperatures[joint] = temperatures_[joint].winding;
    g.housingTemperatures[joint] = temperatures_[joint].housing;
  }
  g.airTemperature = airTemperature_;
  g.upperBodyOnGround = false;
  for (int contact = 0; contact < d.ncon; ++contact)
  {
    const int body1 = m.geom_bodyid[d.contact[contact].geom1],
              body2 = m.geom_bodyid[d.contact[contact].geom2];
    const auto robotPart = [&](int body)
    {
      return body == torsoBody_ ||
             std::find(upperBodies_.begin(), upperBodies_.end(), body) != upperBodies_.end();
    };
    g.upperBodyOnGround |= (robotPart(body1) && body2 == 0) || (robotPart(body2) && body1 == 0);
  }
}

void SimulatedRobot::resetToPosture(const JointValues& angles)
{
  mjModel& m = *model_;
  mjData& d = *data_;
  mj_resetData(&m, &d);
  for (std::size_t joint = 0; joint < numOfJoints; ++joint)
  {
    const int jointId = m.dof_jntid[actuators_[joint].dof()];
    // The posture is what the robot software reads and commands; the joint truly stands its calibration
    // offset away from that, where the board's target puts it.
    const double requested = std::isfinite(angles[joint]) ? angles[joint] : 0.0;
    double angle = requested - robot_.joints[joint].positionOffset;
    if (m.jnt_limited[jointId])
      angle = std::clamp(angle, m.jnt_range[2 * jointId], m.jnt_range[2 * jointId + 1]);
    d.qpos[qposAddress_[joint]] = angle;
    actuators_[joint].reset(m, angle);
    readingCounts_[joint] = std::llround((angle + robot_.joints[joint].positionOffset) / readingStep_);
    targets_[joint] = static_cast<float>(requested);
  }
  if (mimicDof_ >= 0)
    d.qpos[m.jnt_qposadr[m.dof_jntid[mimicDof_]]] = d.qpos[qposAddress_[index(Joint::LHipYawPitch)]];
  // Torso upright at the origin first, then turned so that the left sole is level and lowered onto the floor.
  mjtNum* root = d.qpos + m.jnt_qposadr[m.body_jntadr[torsoBody_]];
  std::fill_n(root, 7, 0.0);
  root[3] = 1.0;
  mj_kinematics(&m, &d);
  const int leftFoot = m.geom_bodyid[fsrGeom_[0]];
  mjtNum footQuat[4], torsoQuat[4];
  mju_copy4(footQuat, d.xquat + 4 * leftFoot);
  mju_negQuat(torsoQuat, footQuat);
  mju_copy4(root + 3, torsoQuat);
  mj_kinematics(&m, &d);
  double lowest = std::numeric_limits<double>::infinity();
  for (int geom = 0; geom < m.ngeom; ++geom)
  {
    if (m.geom_conaffinity[geom] == 0 || m.geom_bodyid[geom] == 0) continue;
    // Lowest point: sphere centre minus radius, box centre minus its extent along world z.
    const mjtNum* r = d.geom_xmat + 9 * geom;
    const mjtNum* size = m.geom_size + 3 * geom;
    double extent = size[0];
    if (m.geom_type[geom] == mjGEOM_BOX)
      extent = std::abs(r[6]) * size[0] + std::abs(r[7]) * size[1] + std::abs(r[8]) * size[2];
    else if (m.geom_type[geom] != mjGEOM_SPHERE)
      extent = m.geom_rbound[geom];
    lowest = std::min(lowest, d.geom_xpos[3 * geom + 2] - extent);
  }
  root[2] = -lowest;
  mj_forward(&m, &d);
  std::fill_n(d.xfrc_applied, 6 * m.nbody, 0.0);
  model_->eq_active[liftWeld_] = 0;
  lift_ = Lift{};
  pushStepsLeft_ = 0;
  buttonUntil_.fill(-1.0);
  drainRate_ = 0.0;
  asleep_ = false;
  quietSteps_ = 0;
  std::fill(frictionForces_.begin(), frictionForces_.end(), 0.0);
  readSensors();
  updateGroundTruth();
}

void SimulatedRobot::holdTorso(double raise)
{
  if (lift_.phase == LiftPhase::free) pickUp();
  lift_.targetHeight = lift_.startHeight + raise;
  lift_.phase = raise > 0 ? LiftPhase::rising : LiftPhase::holding;
  lift_.forGood = true;
}

void SimulatedRobot::pickUp()
{
  if (lift_.phase != LiftPhase::free) return;
  const mjModel& m = *model_;
  mjData& d = *data_;
  const mjtNum* root = d.qpos + m.jnt_qposadr[m.body_jntadr[torsoBody_]];
  mju_copy3(d.mocap_pos + 3 * liftHandle_, root);
  mju_copy4(d.mocap_quat + 4 * liftHandle_, root + 3);
  model_->eq_active[liftWeld_] = 1;
  asleep_ = false;
  lift_.phase = LiftPhase::rising;
  lift_.startHeight = root[2];
  lift_.targetHeight = root[2] + config_.physics.liftHeight;
  lift_.speed = config_.physics.liftHeight / config_.physics.liftDuration;
}

void SimulatedRobot::putDown()
{
  if (lift_.phase == LiftPhase::free || lift_.forGood) return;
  lift_.phase = LiftPhase::lowering;
  lift_.targetHeight = lift_.startHeight;
}

void SimulatedRobot::moveLiftHandle()
{
  if (lift_.phase != LiftPhase::rising && lift_.phase != LiftPhase::lowering) return;
  mjtNum& height = data_->mocap_pos[3 * liftHandle_ + 2];
  const double step = lift_.speed * config_.physics.timestep;
  const double remaining = lift_.targetHeight - height;
  height += std::clamp(remaining, -step, step);
  if (std::abs(lift_.targetHeight - height) > 1e-12) return;
  if (lift_.phase == LiftPhase::rising)
    lift_.phase = LiftPhase::holding;
  else
  {
    model_->eq_active[liftWeld_] = 0;
    lift_.phase = LiftPhase::free;
  }
}

void SimulatedRobot::push(const Eigen::Vector3d& force, double duration, int body)
{
  if (pushStepsLeft_ > 0) std::fill_n(data_->xfrc_applied + 6 * pushBody_, 3, 0.0);
  pushBody_ = body;
  mjtNum* applied = data_->xfrc_applied + 6 * body;
  for (int axis = 0; axis < 3; ++axis)
    applied[axis] = force[axis];
  pushStepsLeft_ = std::max<std::int64_t>(1, std::llround(duration / config_.physics.timestep));
}

void SimulatedRobot::drainBattery(double duration)
{
  drainRate_ = battery_.charge / std::max(duration, config_.physics.frameTime);
}
} // namespace nao::sim
