#include "Tools/Stiffness/StanceAdvice.h"

#include "Tools/Kinematics/ForwardKinematics.h"
#include "Tools/Stiffness/StiffnessError.h"

#include <cmath>
#include <initializer_list>
#include <limits>
#include <sstream>
#include <utility>

namespace nao::stiffness
{
StanceEvaluation evaluateStance(const kinematics::Model& model, kinematics::Data& data, Eigen::VectorXd& q,
                                const std::array<LegPitchJoints, 2>& legs,
                                const std::array<int, 2>& ankleRolls, const kinematics::FeetSupport& feet,
                                const StancePosture& posture, double gravity, StanceObjective objective)
{
  for (const LegPitchJoints& leg : legs)
  {
    q[leg.hip] = posture.hipPitch();
    q[leg.knee] = posture.kneePitch;
    q[leg.ankle] = posture.anklePitch;
  }
  Eigen::VectorXd tau(model.coordinateCount());
  const kinematics::SoleLoads equal{}; // half the weight each; CoPs moved under the centre of mass
  kinematics::computeStandingTorques(model, data, q, Eigen::Vector3d(0.0, 0.0, -gravity), feet, equal, tau);
  StanceEvaluation result;
  result.posture = posture;
  for (std::size_t side = 0; side < 2; ++side)
  {
    result.hipPitchTorques[side] = tau[legs[side].hip];
    result.kneePitchTorques[side] = tau[legs[side].knee];
    result.anklePitchTorques[side] = tau[legs[side].ankle];
    result.ankleRollTorques[side] = tau[ankleRolls[side]];
    for (const double torque :
         {result.kneePitchTorques[side], result.anklePitchTorques[side], result.ankleRollTorques[side]})
    {
      result.squaredSum += torque * torque;
      result.absoluteSum += std::abs(torque);
    }
  }
  result.objective = objective == StanceObjective::squaredTorques ? result.squaredSum : result.absoluteSum;
  // computeStandingTorques left the body poses and the centre of mass of q in data.
  const math::Pose left = kinematics::linkPose(model, data, feet.leftSole);
  const math::Pose right = kinematics::linkPose(model, data, feet.rightSole);
  result.centerOfMassX =
      0.5 * ((left.inverse() * data.centerOfMass).x() + (right.inverse() * data.centerOfMass).x());
  return result;
}

StanceEvaluation adviseStance(const kinematics::Model& model, const Eigen::VectorXd& base,
                              const std::array<LegPitchJoints, 2>& legs, const std::array<int, 2>& ankleRolls,
                              const kinematics::FeetSupport& feet, const StanceRange& range, double gravity)
{
  if (!(range.step > 0.0) || !(range.kneeMax >= range.kneeMin) || !(range.ankleMax >= range.ankleMin))
    throw StiffnessError("stance range: the step must be positive and every maximum at least its minimum");
  kinematics::Data data(model);
  Eigen::VectorXd q = base;
  StanceEvaluation best;
  best.objective = std::numeric_limits<double>::infinity();
  const int knees = static_cast<int>(std::floor((range.kneeMax - range.kneeMin) / range.step + 1e-9)) + 1;
  const int ankles = static_cast<int>(std::floor((range.ankleMax - range.ankleMin) / range.step + 1e-9)) + 1;
  for (int k = 0; k < knees; ++k)
    for (int a = 0; a < ankles; ++a)
    {
      const StancePosture posture{range.kneeMin + k * range.step, range.ankleMin + a * range.step};
      bool withinLimits = true;
      for (const LegPitchJoints& leg : legs)
      {
        const kinematics::JointLimits& limits =
            model.body(model.coordinates()[static_cast<std::size_t>(leg.hip)].body).limits;
        withinLimits =
            withinLimits &&
            (!limits.bounded || (posture.hipPitch() >= limits.lower && posture.hipPitch() <= limits.upper));
      }
      if (!withinLimits) continue;
      const StanceEvaluation evaluation =
          evaluateStance(model, data, q, legs, ankleRolls, feet, posture, gravity, range.objective);
      if (evaluation.centerOfMassX < range.centerOfMassMinX ||
          evaluation.centerOfMassX > range.centerOfMassMaxX)
        continue;
      if (evaluation.objective < best.objective) best = evaluation;
    }
  if (!std::isfinite(best.objective))
  {
    std::ostringstream message;
    message << "stance range: no posture with knee " << range.kneeMin << ".." << range.kneeMax
            << " rad, ankle " << range.ankleMin << ".." << range.ankleMax
            << " rad keeps the hip pitch within its limits and the "
            << "centre of mass " << range.centerOfMassMinX << ".." << range.centerOfMassMaxX
            << " m forward of the ankles";
    throw StiffnessError(message.str());
  }
  return best;
}

NaoStance naoStance(const kinematics::Model& model)
{
  const auto coordinate = [&model](const char* name) { return model.coordinateIndex(name); };
  NaoStance stance{
      {LegPitchJoints{coordinate("LHipPitch"), coordinate("LKneePitch"), coordinate("LAnklePitch")},
       LegPitchJoints{coordinate("RHipPitch"), coordinate("RKneePitch"), coordinate("RAnklePitch")}},
      {coordinate("LAnkleRoll"), coordinate("RAnkleRoll")},
      kinematics::FeetSupport::fromLinks(model),
      Eigen::VectorXd::Zero(model.coordinateCount())};
  constexpr double degree = std::numbers::pi / 180.0;
  for (const auto& [name, angle] :
       {std::pair{"LShoulderPitch", 90.0}, std::pair{"RShoulderPitch", 90.0}, std::pair{"LShoulderRoll", 7.0},
        std::pair{"RShoulderRoll", -7.0}, std::pair{"LElbowRoll", -2.5}, std::pair{"RElbowRoll", 2.5},
        std::pair{"LWristYaw", -90.0}, std::pair{"RWristYaw", 90.0}})
    stance.base[coordinate(name)] = angle * degree;
  return stance;
}
} // namespace nao::stiffness
