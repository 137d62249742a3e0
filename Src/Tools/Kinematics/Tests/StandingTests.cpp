// A robot standing on both soles: the sole wrenches balance gravity, and every joint torque computed from the
// torso down (the library: tau = G - sum J^T W) equals the one computed from a sole up (the other side's
// loads).
#include "Tools/Kinematics/ForwardKinematics.h"
#include "Tools/Kinematics/StaticTorques.h"
#include "Tools/Kinematics/Tests/TestModels.h"

#include <gtest/gtest.h>

namespace nao::kinematics::test
{
namespace
{
/// Moment (N*m) about `point` of the weights of all links on one side of body `joint` (inside its subtree or
/// outside it) and of the wrenches acting on that side.
Eigen::Vector3d momentOfSide(const Model& model, const Data& data, int joint, bool inside,
                             const Eigen::Vector3d& point, const Eigen::Vector3d& gravity,
                             const SoleWrenches& wrenches)
{
  Eigen::Vector3d moment = Eigen::Vector3d::Zero();
  for (int i = 0; i < model.linkCount(); ++i)
  {
    const Link& link = model.link(i);
    if (model.isAncestorOrSelf(joint, link.body) != inside) continue;
    const Eigen::Vector3d com =
        data.bodyPoses[static_cast<std::size_t>(link.body)] * (link.placement * link.inertial.centerOfMass);
    moment += (com - point).cross(link.inertial.mass * gravity);
  }
  for (const ContactWrench& wrench : wrenches)
    if (model.isAncestorOrSelf(joint, model.link(wrench.link).body) == inside)
      moment += wrench.moment + (wrench.point - point).cross(wrench.force);
  return moment;
}

/// Torque of one joint: from the base down it holds the loads beyond it; from the far side (a sole up) it
/// holds the loads on the base side, with opposite sign.
double jointTorque(const Model& model, const Data& data, int joint, bool fromFarSide,
                   const Eigen::Vector3d& gravity, const SoleWrenches& wrenches)
{
  const Eigen::Vector3d& origin = data.bodyPoses[static_cast<std::size_t>(joint)].translation;
  const Eigen::Vector3d& axis = data.jointAxes[static_cast<std::size_t>(joint)];
  return fromFarSide ? axis.dot(momentOfSide(model, data, joint, false, origin, gravity, wrenches))
                     : -axis.dot(momentOfSide(model, data, joint, true, origin, gravity, wrenches));
}

struct Stance
{
  Eigen::VectorXd q;
  Eigen::Vector3d gravity;
  SoleLoads loads;
};

Stance randomStance(const Model& model, std::mt19937& random)
{
  std::uniform_real_distribution<double> unit(0.0, 1.0), cop(-0.04, 0.04), tilt(-2.0, 2.0);
  const double left = unit(random);
  return {randomConfiguration(model, random), Eigen::Vector3d(tilt(random), tilt(random), -9.5),
          SoleLoads{SoleLoad{left, {cop(random), cop(random)}},
                    SoleLoad{1.0 - left, {cop(random), cop(random)}}}};
}

class Standing : public ::testing::Test
{
protected:
  Model model = loadNao();
  Data data{model};
  FeetSupport feet = FeetSupport::fromLinks(model);
  Eigen::VectorXd tau{model.coordinateCount()};
  SoleWrenches wrenches;
  std::mt19937 random{41};
};

TEST_F(Standing, SoleWrenchesBalanceGravity)
{
  for (int trial = 0; trial < 100; ++trial)
  {
    const Stance stance = randomStance(model, random);
    computeStandingTorques(model, data, stance.q, stance.gravity, feet, stance.loads, tau, &wrenches);
    const Eigen::Vector3d weight = model.totalMass() * stance.gravity;
    EXPECT_LT((wrenches[0].force + wrenches[1].force + weight).norm(), 1e-12);
    Eigen::Vector3d moment = data.centerOfMass.cross(weight);
    for (const ContactWrench& w : wrenches)
      moment += w.moment + w.point.cross(w.force);
    EXPECT_LT(moment.norm(), 1e-12);
    EXPECT_NEAR(wrenches[0].force.norm(), stance.loads[0].weightFraction * weight.norm(), 1e-12);
  }
}

TEST_F(Standing, TorquesFromEitherSoleUpEqualTorquesFromTheTorsoDown)
{
  const std::array<int, 2> soleBodies{model.link(feet.leftSole).body, model.link(feet.rightSole).body};
  for (int trial = 0; trial < 100; ++trial)
  {
    const Stance stance = randomStance(model, random);
    computeStandingTorques(model, data, stance.q, stance.gravity, feet, stance.loads, tau, &wrenches);
    for (int rootSole = 0; rootSole < 2; ++rootSole)
    {
      // Joints between the torso and the root sole are computed from that sole up, all others from the torso
      // down.
      Eigen::VectorXd expected = Eigen::VectorXd::Zero(model.coordinateCount());
      for (int j = 1; j < model.bodyCount(); ++j)
      {
        const Body& body = model.body(j);
        const bool onRootLeg = model.isAncestorOrSelf(j, soleBodies[static_cast<std::size_t>(rootSole)]);
        expected[body.coordinate] +=
            body.multiplier * jointTorque(model, data, j, onRootLeg, stance.gravity, wrenches);
      }
      EXPECT_LT((tau - expected).cwiseAbs().maxCoeff(), 1e-12) << "root sole " << rootSole << "\n"
                                                               << tau.transpose() << "\n"
                                                               << expected.transpose();
    }
  }
}

TEST_F(Standing, UnloadedLegHangsLikeAFixedBaseLeg)
{
  Eigen::VectorXd gravityOnly(model.coordinateCount());
  for (int trial = 0; trial < 20; ++trial)
  {
    Stance stance = randomStance(model, random);
    stance.loads[0].weightFraction = 1.0;
    stance.loads[1].weightFraction = 0.0;
    computeStandingTorques(model, data, stance.q, stance.gravity, feet, stance.loads, tau, &wrenches);
    computeGravityTorques(model, data, stance.q, stance.gravity, gravityOnly);
    EXPECT_EQ(wrenches[1].force.norm(), 0.0);
    for (const char* joint :
         {"RHipRoll", "RHipPitch", "RKneePitch", "RAnklePitch", "RAnkleRoll", "LShoulderPitch", "HeadYaw"})
      EXPECT_NEAR(tau[model.coordinateIndex(joint)], gravityOnly[model.coordinateIndex(joint)], 1e-12)
          << joint;
  }
}

TEST_F(Standing, ArbitraryBalancedWrenchesGiveTheSameTorquesFromBothEnds)
{
  // Independent of balanceSoleWrenches: the test builds its own balanced pair with friction and moments.
  std::uniform_real_distribution<double> value(-5.0, 5.0);
  for (int trial = 0; trial < 50; ++trial)
  {
    const Stance stance = randomStance(model, random);
    computeGravityTorques(model, data, stance.q, stance.gravity, tau); // poses and centre of mass
    ContactWrench right{feet.rightSole, linkPose(model, data, feet.rightSole).translation,
                        Eigen::Vector3d(value(random), value(random), value(random)),
                        Eigen::Vector3d(value(random), value(random), value(random))};
    ContactWrench left{feet.leftSole, linkPose(model, data, feet.leftSole).translation,
                       Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()};
    const Eigen::Vector3d weight = model.totalMass() * stance.gravity;
    left.force = -weight - right.force;
    left.moment = -(data.centerOfMass - left.point).cross(weight) - right.moment -
                  (right.point - left.point).cross(right.force);
    const SoleWrenches pair{left, right};
    computeStaticTorques(model, data, stance.q, stance.gravity, pair, tau);
    Eigen::VectorXd fromLeftSole = Eigen::VectorXd::Zero(model.coordinateCount());
    const int leftSoleBody = model.link(feet.leftSole).body;
    for (int j = 1; j < model.bodyCount(); ++j)
      fromLeftSole[model.body(j).coordinate] +=
          model.body(j).multiplier *
          jointTorque(model, data, j, model.isAncestorOrSelf(j, leftSoleBody), stance.gravity, pair);
    EXPECT_LT((tau - fromLeftSole).cwiseAbs().maxCoeff(), 1e-11);
  }
}
} // namespace
} // namespace nao::kinematics::test
