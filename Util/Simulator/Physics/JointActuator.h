#pragma once
// One joint's motor board, motor and gear train acting on one MuJoCo hinge, step by step:
//
//   board angle  = the board's own count of the joint angle (finer than LoLA's reading, noisy, hysteresis)
//   motor torque = boardTorque(target count − board count), limited to stiffness × maximum torque
//   gear train   = static friction while stuck, sliding friction while moving, and backlash: between gear
//                  and joint there is play; while a gear tooth touches the joint, motor torque and gear
//                  friction act on the joint; while the play is open, the joint swings on its bearing and
//                  the gear moves on its own (massless: motor torque against gear friction and back-EMF).
//
// The board closes its loop on its own sensor, never on what the robot software reads (SensorModel.h), and
// knows nothing about the software. SimulatedRobot runs one per LoLA joint; the plant tests run one on a
// single hinge with a known load.
#include "Util/Simulator/Physics/DriveModel.h"
#include "Util/Simulator/Physics/Random.h"

#include <array>
#include <mujoco/mujoco.h>

namespace nao::sim
{
class JointActuator
{
public:
  JointActuator() = default;
  /// `dof` is the hinge's dof in the model, `actuator` the motor acting on it (a MuJoCo <motor> with gear 1).
  JointActuator(const Drive& drive, const BoardParameters& board, int dof, int actuator);

  /// The joint rests at `angle` with the gear engaged on its positive side and the board's count at the
  /// angle. Sets the dof's friction. (The rotor's reflected inertia is the dof's armature in the model.)
  void reset(mjModel& model, double angle);

  /// Before a physics step of `timestep` s: the board samples its angle, computes the motor torque for
  /// `target` (rad, the board's frame) within ±torqueLimit, and writes the motor torque and the gear's
  /// friction into the model. While the play is open the gear moves here.
  void beforeStep(mjModel& model, mjData& data, double target, double torqueLimit, double timestep,
                  Random& noise);

  /// After the step: the gear train's contact opens when the gear would pull instead of push, and closes when
  /// the open play is used up. `frictionForce` is the dof's friction constraint force of the step (N·m, 0 if
  /// none). Returns true if the contact opened or closed.
  bool afterStep(mjModel& model, mjData& data, double frictionForce);

  /// Another drive and board from now on (a plant swapped mid-run): the gear's state stays, and a board of
  /// another resolution keeps its angle in its new counts.
  void changePlant(const Drive& drive, const BoardParameters& board);
  /// Whether the joint can rest in the current state with a motor torque of `motorTorque` instead of the one
  /// it had when the joint came to rest with `restFriction` on its gear: at rest the gear friction takes
  /// every change of the motor torque as long as it stays within the static friction.
  bool holdsAtRest(double restMotorTorque, double restFriction, double motorTorque) const;

  const Drive& drive() const { return drive_; }
  double motorTorque() const { return motorTorque_; }                   ///< N·m at the joint, last step
  double current() const { return motorCurrent(drive_, motorTorque_); } ///< A, last step
  long long boardCount() const { return boardCount_; }
  double boardStep() const { return boardStep_; } ///< rad per board count
  bool engaged() const { return engaged_; }       ///< a gear tooth touches the joint
  int contactSide() const { return side_; }       ///< +1: the gear can push the joint up, −1: down
  double gearAngle() const { return gear_; }      ///< rad, where the engaged joint would be
  bool gearSliding() const { return sliding_; }
  int dof() const { return dof_; }
  int actuator() const { return actuator_; }

private:
  void moveFreeGear(double driveTorque, double timestep);

  Drive drive_;
  BoardParameters board_;
  double boardStep_ = 0.0;
  int dof_ = -1;
  int actuator_ = -1;
  int qposAddress_ = -1;
  long long boardCount_ = 0;
  static constexpr int maxSpeedWindow = 128;           ///< steps
  std::array<long long, maxSpeedWindow> pastCounts_{}; ///< the board's counts of the last speedWindow steps
  int speedSteps_ = 1;                                 ///< speedWindow in steps
  int pastIndex_ = 0;
  double motorTorque_ = 0.0;
  bool engaged_ = true;
  int side_ = 1;
  double gear_ = 0.0;         ///< rad
  double gearVelocity_ = 0.0; ///< rad/s, while the play is open
  bool sliding_ = false;
  int pullingSteps_ = 0; ///< steps in a row the engaged gear would have pulled the joint
};
} // namespace nao::sim
