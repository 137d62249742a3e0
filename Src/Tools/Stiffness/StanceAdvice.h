#pragma once
// Posture advice for stance: which stand posture, within given ranges, minimises the gravity torques on the knees
// and ankles (the paper's "zero joint torque is maximum stiffness", Eq 16, meets the high stand that reduces
// currents). A stand keeps both soles flat and the torso upright, so hip pitch = -(knee pitch + ankle pitch) and
// two angles remain: knee pitch and ankle pitch, the same on both legs. The torques are the static model's
// (kinematics::computeStandingTorques: gravity, the weight shared equally by the soles, their centres of pressure
// under the centre of mass), the ones StaticTorqueProvider computes on the robot. The robot does not run this:
// StanceAdviceTests (LimbStiffnessProvider's tests) checks that the advised scenarios
// (Config/Scenarios/standadvised*.toml) hold its advice, and `Simulator stances` writes its table.
#include "Tools/Kinematics/Data.h"
#include "Tools/Kinematics/Model.h"
#include "Tools/Kinematics/StaticTorques.h"

#include <Eigen/Core>
#include <array>
#include <numbers>

namespace nao::stiffness
{
/// Model coordinates of one leg's pitch joints.
struct LegPitchJoints
{
  int hip = -1, knee = -1, ankle = -1;
};

struct StancePosture
{
  double kneePitch = 0.0;                                       ///< rad, both legs
  double anklePitch = 0.0;                                      ///< rad, both legs
  double hipPitch() const { return -(kneePitch + anklePitch); } ///< rad: flat soles under an upright torso
};

/// How the knee and ankle torques are summed. Squared: the paper's p = 1/2 |tau|^2 over these joints. Absolute:
/// a motor's current is linear in its torque, so this sum follows the currents the torques call for.
enum class StanceObjective
{
  squaredTorques,  ///< (N*m)^2
  absoluteTorques, ///< N*m
};

struct StanceEvaluation
{
  StancePosture posture;
  std::array<double, 2> hipPitchTorques{};   ///< N*m, left and right leg
  std::array<double, 2> kneePitchTorques{};  ///< N*m
  std::array<double, 2> anklePitchTorques{}; ///< N*m
  std::array<double, 2> ankleRollTorques{};  ///< N*m (0 for a symmetric posture)
  double objective =
      0.0; ///< the StanceObjective's sum over the knee and ankle (pitch, roll) torques, both legs
  double squaredSum = 0.0;    ///< (N*m)^2: their squares' sum
  double absoluteSum = 0.0;   ///< N*m: their absolute values' sum
  double centerOfMassX = 0.0; ///< m, forward of the point under the ankles (mean of the two sole frames)
};

struct StanceRange
{
  double kneeMin = 0.0, kneeMax = 0.0;   ///< rad
  double ankleMin = 0.0, ankleMax = 0.0; ///< rad
  double step = 0.0;                     ///< rad, grid spacing of both angles
  /// m: the centre of mass must project into [min, max] forward of the ankles (inside the sole with a margin).
  double centerOfMassMinX = 0.0, centerOfMassMaxX = 0.0;
  StanceObjective objective = StanceObjective::squaredTorques;
};

/// Torques of `base` (a whole-model q, rad: arms, head, hip roll etc.) with both legs' pitch joints set to
/// `posture`, gravity -z in the torso frame (`gravity` m/s^2). Allocates nothing beyond `data`.
StanceEvaluation evaluateStance(const kinematics::Model& model, kinematics::Data& data, Eigen::VectorXd& q,
                                const std::array<LegPitchJoints, 2>& legs,
                                const std::array<int, 2>& ankleRolls, const kinematics::FeetSupport& feet,
                                const StancePosture& posture, double gravity = 9.81,
                                StanceObjective objective = StanceObjective::squaredTorques);

/// The grid point of `range` with the smallest objective whose hip pitch lies within the URDF's limits and
/// whose centre of mass lies within the range's bounds. Throws StiffnessError naming the range if none does.
StanceEvaluation adviseStance(const kinematics::Model& model, const Eigen::VectorXd& base,
                              const std::array<LegPitchJoints, 2>& legs, const std::array<int, 2>& ankleRolls,
                              const kinematics::FeetSupport& feet, const StanceRange& range,
                              double gravity = 9.81);

/// The NAO's stand on its model (q in LoLA order, as RobotDescription loads it): both legs' pitch joints and ankle
/// rolls found by their URDF names, the soles (l_sole, r_sole) and the stand scenarios' arms (shoulder pitch 90°,
/// roll ±7°, elbow roll ∓2.5°, wrist yaw ∓90°), every other joint 0.
struct NaoStance
{
  std::array<LegPitchJoints, 2> legs;
  std::array<int, 2> ankleRolls{};
  kinematics::FeetSupport feet;
  Eigen::VectorXd base;
};

/// Throws kinematics::ModelError naming a joint the model lacks.
NaoStance naoStance(const kinematics::Model& model);

/// The usual stands: knee from the high stand's 14° to 60°, ankle pitch -45°..0°, 0.5° grid, the centre of mass at
/// least 25 mm inside the sole's heel (50 mm behind the ankle) and toe (100 mm ahead) edges; `objective` as given.
inline constexpr StanceRange usualStanceRange(StanceObjective objective = StanceObjective::squaredTorques)
{
  constexpr double degree = std::numbers::pi / 180.0;
  return {14 * degree, 60 * degree, -45 * degree, 0.0, 0.5 * degree, -0.025, 0.075, objective};
}
} // namespace nao::stiffness
