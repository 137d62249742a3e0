#include "Util/Simulator/Physics/JointActuator.h"

#include "Util/Simulator/Physics/Encoder.h"

#include <algorithm>
#include <cmath>

namespace nao::sim
{
namespace
{
/// A contact opens only when the gear would pull the joint for this many steps in a row by more than this
/// fraction of its static friction. Shorter or smaller pulls are what the constraint solver's noise and the
/// joints' dynamic coupling make of an unloaded joint's transmitted torque, not a load that reverses; the
/// teeth's own elasticity would take them.
constexpr double pullFraction = 0.05;
constexpr int pullSteps = 3;
} // namespace

JointActuator::JointActuator(const Drive& drive, const BoardParameters& board, int dof, int actuator)
    : drive_(drive), board_(board), boardStep_(encoderStep(board.positionBits)), dof_(dof),
      actuator_(actuator)
{
}

void JointActuator::reset(mjModel& model, double angle)
{
  qposAddress_ = model.jnt_qposadr[model.dof_jntid[dof_]];
  model.dof_frictionloss[dof_] = drive_.staticFriction;
  boardCount_ = std::llround(angle / boardStep_);
  pastCounts_.fill(boardCount_);
  pastIndex_ = 0;
  motorTorque_ = 0.0;
  engaged_ = true;
  side_ = 1;
  gear_ = angle + 0.5 * drive_.backlash;
  gearVelocity_ = 0.0;
  sliding_ = false;
  pullingSteps_ = 0;
}

void JointActuator::changePlant(const Drive& drive, const BoardParameters& board)
{
  drive_ = drive;
  board_ = board;
  const double step = encoderStep(board.positionBits);
  if (step == boardStep_) return;
  const double angle = static_cast<double>(boardCount_) * boardStep_;
  boardStep_ = step;
  boardCount_ = std::llround(angle / step);
  pastCounts_.fill(boardCount_);
}

void JointActuator::beforeStep(mjModel& model, mjData& data, double target, double torqueLimit,
                               double timestep, Random& noise)
{
  const double angle = data.qpos[qposAddress_];
  const double velocity = data.qvel[dof_];
  const double sensed = angle + noise.normal() * board_.positionNoise * boardStep_;
  boardCount_ = encoderCount(boardCount_, sensed, boardStep_, board_.positionHysteresis);
  // The board's speed: its count's change over the speed window (exactly 0 while the count rests).
  speedSteps_ = std::clamp(static_cast<int>(std::lround(board_.speedWindow / timestep)), 1, maxSpeedWindow);
  const auto countAgo =
      static_cast<std::size_t>((pastIndex_ + maxSpeedWindow - speedSteps_ + 1) % maxSpeedWindow);
  const double boardSpeed =
      static_cast<double>(boardCount_ - pastCounts_[countAgo]) * boardStep_ / (speedSteps_ * timestep);
  pastIndex_ = (pastIndex_ + 1) % maxSpeedWindow;
  pastCounts_[static_cast<std::size_t>(pastIndex_)] = boardCount_;
  const long long errorCounts = std::llround(target / boardStep_) - boardCount_;
  if (engaged_)
  {
    motorTorque_ = boardTorque(drive_, errorCounts, boardStep_, boardSpeed, velocity, torqueLimit);
    sliding_ = std::abs(velocity) >= board_.stictionSpeed;
    // MuJoCo's friction loss is a constraint force: below the limit it holds the joint exactly.
    model.dof_frictionloss[dof_] = sliding_ ? drive_.slidingFriction : drive_.staticFriction;
  }
  else
  {
    moveFreeGear(boardTorque(drive_, errorCounts, boardStep_, boardSpeed, 0.0, torqueLimit), timestep);
    model.dof_frictionloss[dof_] = drive_.bearingFriction;
  }
  data.ctrl[actuator_] = engaged_ ? motorTorque_ : 0.0;
}

void JointActuator::moveFreeGear(double driveTorque, double timestep)
{
  // The gear and rotor are light compared with the links, so the gear is taken as massless: it stays stuck
  // while the motor's stall torque is within the static friction (within the sliding friction once it
  // slides), and otherwise moves at the speed where back-EMF braking and sliding friction balance the drive.
  const double holding = sliding_ ? drive_.slidingFriction : drive_.staticFriction;
  if (std::abs(driveTorque) <= holding || drive_.velocityGain <= 0.0)
  {
    gearVelocity_ = 0.0;
    sliding_ = false;
    motorTorque_ = driveTorque;
    return;
  }
  const double friction = std::copysign(drive_.slidingFriction, driveTorque);
  gearVelocity_ = (driveTorque - friction) / drive_.velocityGain;
  gear_ += gearVelocity_ * timestep;
  sliding_ = true;
  motorTorque_ = friction;
}

bool JointActuator::afterStep(mjModel& model, mjData& data, double frictionForce)
{
  if (drive_.backlash <= 0.0) return false;
  const double angle = data.qpos[qposAddress_];
  if (engaged_)
  {
    // What the gear does to the joint: motor torque plus the gear train's friction. A tooth can only push.
    const double transmitted = data.ctrl[actuator_] + frictionForce;
    pullingSteps_ = side_ * transmitted < -pullFraction * drive_.staticFriction ? pullingSteps_ + 1 : 0;
    if (pullingSteps_ < pullSteps)
    {
      gear_ = angle + side_ * 0.5 * drive_.backlash;
      return false;
    }
    pullingSteps_ = 0;
    // The rotor stays with the gear. (Its inertia stays on the joint's dof, though: MuJoCo 2.2 bakes armature
    // into the model at compile time; the play is crossed within milliseconds.)
    engaged_ = false;
    gearVelocity_ = data.qvel[dof_];
    return true;
  }
  // Open: the joint touches a tooth again when it has crossed the play, moving into it.
  const double gap = angle - gear_;
  const int side = gap <= -0.5 * drive_.backlash ? 1 : gap >= 0.5 * drive_.backlash ? -1 : 0;
  if (side == 0) return false;
  side_ = side;
  gear_ = angle + side_ * 0.5 * drive_.backlash;
  engaged_ = true;
  // Plastic impact: the joint (its inertia with the other joints held, from the mass matrix) takes the rotor
  // along. The gear's own speed is not carried over: a massless gear has no momentum to give, and the motor's
  // push while the play was open is lost in the teeth rather than kicking the joint.
  const double rotorInertia = drive_.armature;
  const double jointInertia = std::max(data.qM[model.dof_Madr[dof_]] - rotorInertia, 0.0);
  data.qvel[dof_] *= jointInertia / (jointInertia + rotorInertia);
  return true;
}

bool JointActuator::holdsAtRest(double restMotorTorque, double restFriction, double motorTorque) const
{
  if (!engaged_) return true; // nothing of the motor reaches the joint
  // The joint does not move, so what the gear transmits stays the same: friction takes the difference.
  const double friction = restMotorTorque + restFriction - motorTorque;
  return std::abs(friction) <= drive_.staticFriction;
}
} // namespace nao::sim
