#pragma once
// One joint's board, motor and gear train on a single MuJoCo hinge with a known load, for the plant tests.
#include "Util/MujocoModel/MujocoModel.h"
#include "Util/Simulator/Physics/JointActuator.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

namespace nao::sim::test
{
/// `value` in the shortest text that reads back exactly.
inline std::string exact(double value)
{
  char text[32];
  std::snprintf(text, sizeof(text), "%.17g", value);
  return text;
}

constexpr double timestep = 0.001; ///< s

/// A hinge about y without gravity; the load is an external torque on it. Link inertia 0.01 kg·m²; the rotor's,
/// reflected through the gear, is the drive's armature (which MuJoCo takes from the model text). `blocked`: the hinge cannot turn (a joint limit of
/// ±0.1 mrad), as an output shaft held for a stall measurement.
class SingleJoint
{
public:
  explicit SingleJoint(const Drive& drive, BoardParameters board = quietBoard(), bool blocked = false)
      : model_(loadMjcf(R"(<mujoco><option timestep="0.001" gravity="0 0 0" integrator="Euler"/>
          <default><joint solreffriction="0.002 1" solimpfriction="0.9999 0.9999 0.001 0.5 2"/></default>
          <worldbody><body name="link"><joint name="hinge" type="hinge" axis="0 1 0" armature=")" +
                        exact(drive.armature) + '"' +
                        (blocked ? R"( limited="true" range="-0.0001 0.0001")" : "") + R"(/>
          <inertial pos="0 0 0" mass="1" diaginertia="0.01 0.01 0.01"/></body></worldbody>
          <actuator><motor name="motor" joint="hinge"/></actuator></mujoco>)")),
        data_(mj_makeData(model_.get())), actuator_(drive, board, 0, 0)
  {
    model_->dof_invweight0[0] /= 1000.0; // gears that hold like real ones (physics.toml frictionHardness)
    actuator_.reset(*model_, 0.0);
  }

  static BoardParameters quietBoard()
  {
    BoardParameters board;
    board.positionBits = 14;
    board.positionNoise = 0.0;
    board.positionHysteresis = 0.0;
    board.speedWindow = 0.008;
    board.stictionSpeed = 0.1 * std::numbers::pi / 180.0;
    return board;
  }

  /// `load`: N·m on the joint from outside (gravity of a limb, a hand pushing).
  void run(double seconds, double target, double torqueLimit, double load)
  {
    for (int step = 0; step < std::lround(seconds / timestep); ++step)
    {
      data_->qfrc_applied[0] = load;
      actuator_.beforeStep(*model_, *data_, target, torqueLimit, timestep, noise_);
      mj_step(model_.get(), data_.get());
      double friction = 0.0;
      for (int row = 0; row < data_->nefc; ++row)
        if (data_->efc_type[row] == mjCNSTR_FRICTION_DOF) friction = data_->efc_force[row];
      actuator_.afterStep(*model_, *data_, friction);
      peakTorque_ = std::max(peakTorque_, std::abs(actuator_.motorTorque()));
    }
  }
  double angle() const { return data_->qpos[0]; }
  double velocity() const { return data_->qvel[0]; }
  void setVelocity(double velocity) { data_->qvel[0] = velocity; }
  const JointActuator& actuator() const { return actuator_; }
  double peakTorque() const { return peakTorque_; }

private:
  MjModelPtr model_;
  MjDataPtr data_;
  JointActuator actuator_;
  Random noise_{1};
  double peakTorque_ = 0.0;
};
} // namespace nao::sim::test
