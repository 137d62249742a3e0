#pragma once
// A NAO V6 in MuJoCo whose motor boards know nothing of the robot software: each board closes its position
// loop on its own angle sensor, its motor drives a gear train that sticks, slips and has play, and the
// readings LoLA sends (12-bit positions with the robot's calibration offsets, currents, whole-degree
// temperatures, IMU, FSRs) are noisy measurements of that plant. Heat (I²R, the boards' electronics, the air
// inside the robot), the firmware's torque cut and the battery are modelled. Every robot is one draw of
// RobotVariation; its seed also seeds all noise, so a run is reproducible. Headless; the LoLA server and the
// scenario player drive it:
//
//   SimulatedRobot robot(loadSimConfig(configDir), drawRobot(config.robots, step, seed));
//   robot.resetToPosture(stand);
//   robot.setCommand(positions, stiffnesses);  // LoLA order, rad and 0..1; kept until the next call
//   robot.advance(robot.frameTime());          // one LoLA frame of physics
//   const SimSensors& s = robot.sensors();     // the readings of the last complete frame
#include "Util/MujocoModel/MujocoModel.h"
#include "Util/Simulator/Physics/FsrModel.h"
#include "Util/Simulator/Physics/JointActuator.h"
#include "Util/Simulator/Physics/SimConfig.h"
#include "Util/Simulator/Physics/SimSensors.h"

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace nao::sim
{
class SimulatedRobot
{
public:
  /// Builds the MuJoCo model from config.urdfFile; throws std::runtime_error (or streams::ConfigError from
  /// validate) when it cannot. Starts in the zero posture standing on the floor, stiffness 0, at room
  /// temperature.
  explicit SimulatedRobot(const SimConfig& config, const RobotVariation& robot = nominalRobot());

  /// Targets in rad (Hands 0..1) and stiffness 0..1, LoLA order, in the robot's reading frame; held until the
  /// next call. Targets are clamped to ±π (a board's encoder turn; beyond a joint's stop the motor stalls against
  /// it), non-finite ones keep the previous target of that joint; stiffness is clamped to 0..1 (NaN: 0).
  void setCommand(const JointValues& positions, const JointValues& stiffnesses);
  /// What the boards drive to and with since the last setCommand (after clamping).
  const JointValues& targets() const { return targets_; }
  const JointValues& stiffnesses() const { return stiffnesses_; }

  /// Steps the physics until `seconds` more simulated time have passed (whole steps; the remainder carries
  /// over to the next call). sensors() change at the end of each LoLA frame, groundTruth() after every call.
  void advance(double seconds);
  double frameTime() const { return config_.physics.frameTime; } ///< s, one LoLA frame
  double time() const { return static_cast<double>(steps_) * config_.physics.timestep; } ///< s simulated

  const SimSensors& sensors() const { return sensors_; }
  const GroundTruth& groundTruth() const { return groundTruth_; }

  /// Puts the robot at rest in this posture (rad, LoLA order; RHipYawPitch follows LHipYawPitch), the left
  /// sole level and the lowest sole point on the floor, and makes the posture the command. Keeps stiffness
  /// commands, temperatures, battery and time; ends any pick-up or push.
  void resetToPosture(const JointValues& angles);

  /// "Pick up": holds the torso where it is and raises it by physics.toml liftHeight over liftDuration.
  void pickUp();
  /// "Put down": lowers the torso back to the height it was picked up at, then lets go.
  void putDown();
  bool isHeld() const { return lift_.phase != LiftPhase::free; }
  /// Holds the torso where it is (a hand or a stand holding the robot), raised by `raise` m over liftDuration,
  /// for the rest of the run: pickUp() and putDown() change nothing from then on.
  void holdTorso(double raise);
  /// "Push": a force in N (world frame) on the torso's centre of mass for `duration` seconds.
  void push(const Eigen::Vector3d& force, double duration) { push(force, duration, torsoBody_); }
  /// The same on the centre of mass of MuJoCo body `body` (bodyId()); a push still running ends first.
  void push(const Eigen::Vector3d& force, double duration, int body);
  /// The MuJoCo body of that name (a URDF link), or −1.
  int bodyId(const std::string& name) const;
  /// The bodies a push can act on: every link of the robot, in the model's order.
  std::vector<std::string> bodyNames() const;
  /// "Press the button": the chest button (Touch 0) reads pressed for `duration` seconds from now.
  void pressChestButton(double duration) { pressButton(0, duration); }
  /// Touch `touch` (0 chest, 1..3 head front, middle, rear: LoLA's order) reads pressed for `duration` s from now
  /// (infinity: until released; 0 or less: released now); sensors() read it at once.
  void pressButton(std::size_t touch, double duration);
  /// "Drain the battery": from now the charge falls linearly to 0 within `duration` seconds, on top of what the
  /// currents draw (a battery running flat, sped up).
  void drainBattery(double duration);
  /// Sets the battery's charge (0..1) and ends a drain; sensors() read it at once.
  void setBatteryCharge(double charge);
  /// Sets one motor's winding temperature (°C); its housing, status and torque cut follow from the next frame on.
  void setWindingTemperature(std::size_t joint, double temperature);
  /// Another plant for the robot from now on: the boards, drives and sensors of `config` (its motors and sensors;
  /// the MuJoCo model, built from the first one, stays) and the joints, delays and offsets of `robot`. Posture,
  /// motion, gear contacts, temperatures, battery, time and noise go on. A board with another resolution keeps its
  /// angle in its new counts.
  void changePlant(const SimConfig& config, const RobotVariation& robot);

  /// True while the robot rests and MuJoCo is not stepped: every joint stuck, no event running. Motor boards,
  /// currents, heat, noise and every reading go on.
  bool isAsleep() const { return asleep_; }
  /// Physics steps MuJoCo actually computed since construction (the rest of time() slept).
  std::int64_t computedSteps() const { return mujocoSteps_; }

  /// Sets winding and housing of every motor to this temperature (°C), e.g. to start a test warm.
  void setMotorTemperatures(double temperature);

  const SimConfig& config() const { return config_; }
  const RobotVariation& robot() const { return robot_; }
  const Drive& drive(Joint joint) const { return actuators_[index(joint)].drive(); }
  /// The LoLA position reading's step, rad per count.
  double readingStep() const { return readingStep_; }
  /// For a viewer or diagnostics; read only.
  const mjModel& model() const { return *model_; }
  const mjData& data() const { return *data_; }

private:
  enum class LiftPhase : std::uint8_t
  {
    free,
    rising,
    holding,
    lowering,
  };
  struct Lift
  {
    LiftPhase phase = LiftPhase::free;
    double startHeight = 0.0;  ///< m, torso height when picked up
    double targetHeight = 0.0; ///< m, where the handle is going
    double speed = 0.0;        ///< m/s
    bool forGood = false;      ///< holdTorso: neither put down nor picked up again
  };

  void findModelParts();
  void step();
  /// Boards and motors for one step; returns true if a resting robot must wake up.
  bool runBoards();
  /// True if every dof is still and no event runs; counts quiet steps and puts the robot to sleep after
  /// enough.
  void updateSleep(bool eventRunning);
  void collectFrictionForces();
  bool eventRunning() const;
  void moveLiftHandle();
  void finishFrame();
  void readSensors();
  /// Adds one contact's normal force (N) to the FSRs of the foot it touches, if any.
  void addSoleContact(int contact, std::array<double, numOfFsrs>& forces) const;
  void updateGroundTruth();
  void updateImpactTruth(); ///< GroundTruth's head and arm contacts and speeds (ImpactTruth.cpp)
  double torqueLimit(std::size_t joint) const;

  SimConfig config_;
  RobotVariation robot_;
  MjModelPtr model_;
  MjDataPtr data_;
  std::array<JointActuator, numOfJoints> actuators_{};
  Random noise_;
  double readingStep_ = 0.0; ///< rad per count of LoLA's position reading

  // Model indices, LoLA order.
  std::array<int, numOfJoints> qposAddress_{};
  int mimicDof_ = -1; ///< RHipYawPitch, driven through the coupling constraint
  int torsoBody_ = -1;
  std::array<int, 5>
      upperBodies_{};   ///< Head, LShoulder, LBicep, RShoulder, RBicep (GroundTruth::upperBodyOnGround)
  int liftHandle_ = -1; ///< mocap index
  int liftWeld_ = -1;
  int accelerometerSite_ = -1;
  int gyroscopeSite_ = -1;
  std::array<int, numOfFsrs> fsrGeom_{};
  std::array<int, 2> footBody_{};              ///< left, right
  std::array<FsrRectangle, 2> fsrRectangle_{}; ///< left, right, in the foot frames

  // Command, readings and motor state.
  JointValues targets_{};
  JointValues stiffnesses_{};
  std::array<long long, numOfJoints> readingCounts_{};
  std::array<double, numOfJoints> torqueFactor_{}; ///< firmware cut per joint
  std::array<MotorTemperature, numOfJoints> temperatures_{};
  std::array<int, numOfJoints> status_{};
  double airTemperature_ = 25.0; ///< °C inside the robot
  double room_ = 25.0; ///< °C around the robot (its RobotVariation, or motors.toml for the nominal one)
  BatteryState battery_;
  std::vector<double> frictionForces_; ///< N·m per dof, last computed step

  // Per-frame accumulators.
  std::array<double, numOfJoints> currentSum_{};        ///< A·steps
  std::array<double, numOfJoints> squaredCurrentSum_{}; ///< A²·steps
  std::array<double, 3> gyroSum_{}; ///< rad/s·steps, the gyroscope site's angular velocity (its frame)
  int gyroSteps_ = 0;               ///< steps summed into gyroSum_
  int stepsInFrame_ = 0;
  int stepsPerFrame_ = 12;
  std::array<double, numOfJoints> frameCurrents_{}; ///< A, true mean of the last frame
  static constexpr std::size_t currentHistory = 9;  ///< frames: the longest current delay + 1
  std::array<std::array<double, numOfJoints>, currentHistory>
      pastCurrents_{}; ///< A, frameCurrents_ per frame
  std::uint64_t framesFinished_ = 0;

  // Sleep: the torques each joint's gear held when the robot came to rest.
  std::array<double, numOfJoints> restMotorTorque_{};
  std::array<double, numOfJoints> restFriction_{};
  std::int64_t steps_ = 0;
  std::int64_t mujocoSteps_ = 0; ///< steps MuJoCo computed (the others slept)
  bool asleep_ = false;
  int quietSteps_ = 0;
  double pendingTime_ = 0.0; ///< s requested by advance() but not yet stepped
  Lift lift_;
  std::int64_t pushStepsLeft_ = 0;
  int pushBody_ = -1;                   ///< the body the running push acts on
  std::vector<std::uint8_t> bodyGroup_; ///< per MuJoCo body: 0 other, 1 head, 2 arm (ImpactTruth.cpp)
  std::array<double, 4> buttonUntil_{-1.0, -1.0, -1.0, -1.0}; ///< s, until which Touch 0..3 read pressed
  double drainRate_ = 0.0; ///< 1/s, charge drained per second on top of the currents

  SimSensors sensors_;
  GroundTruth groundTruth_;
};
} // namespace nao::sim
