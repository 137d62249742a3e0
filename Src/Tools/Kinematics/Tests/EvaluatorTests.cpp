// The evaluators pick the JIT where it can run and Eigen otherwise, and give the same results either way.
#include "Tools/Kinematics/Evaluators.h"
#include "Tools/Kinematics/Tests/BackendComparison.h"

#include <gtest/gtest.h>

namespace nao::kinematics::test
{
namespace
{
TEST(Evaluators, AutomaticUsesTheJitExactlyWhereItIsAvailable)
{
  const Model model = loadNao();
  const KinematicsEvaluator automatic(model);
  const KinematicsEvaluator eigen(model, {KinematicsBackend::eigen});
  EXPECT_EQ(automatic.usesJit(), jitAvailable());
  EXPECT_FALSE(eigen.usesJit());
  EXPECT_EQ(eigen.backendName(), "Eigen");
#if NAO_KINEMATICS_HAS_JIT && defined(__x86_64__)
  // Every x86-64 CPU the NAO software targets has SSE4.1 (the NAO V6's Atom E3845 has SSE4.2).
  EXPECT_TRUE(jitAvailable());
  EXPECT_EQ(KinematicsEvaluator(model, {KinematicsBackend::jit, false}).backendName(), "JIT SSE4.1");
  const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  EXPECT_EQ(automatic.backendName(), avx2 ? "JIT AVX2+FMA" : "JIT SSE4.1");
#else
  EXPECT_FALSE(jitAvailable());
  EXPECT_THROW(KinematicsEvaluator(model, {KinematicsBackend::jit}), std::runtime_error);
#endif
}

class EvaluatorBackends : public ::testing::TestWithParam<bool>
{
protected:
  EvaluatorOptions fastest() const { return {KinematicsBackend::automatic, GetParam()}; }
};

TEST_P(EvaluatorBackends, KinematicsAgreeWithEigen)
{
  const Model model = loadNao();
  KinematicsEvaluator fast(model, fastest()), reference(model, {KinematicsBackend::eigen});
  const int n = model.coordinateCount();
  Jacobian fastJacobian(6, n), referenceJacobian(6, n);
  std::mt19937 random(3);
  for (int trial = 0; trial < 300; ++trial)
  {
    const Eigen::VectorXd q = randomConfiguration(model, random);
    fast.update(q);
    reference.update(q);
    for (int l = 0; l < model.linkCount(); ++l)
    {
      ASSERT_TRUE(allClose(fast.linkPose(l).rotation, reference.linkPose(l).rotation)) << model.link(l).name;
      ASSERT_TRUE(allClose(fast.linkPose(l).translation, reference.linkPose(l).translation))
          << model.link(l).name;
    }
    for (int b = 0; b < model.bodyCount(); ++b)
    {
      ASSERT_TRUE(allClose(fast.bodyPose(b).translation, reference.bodyPose(b).translation));
      ASSERT_TRUE(allClose(fast.jointAxis(b), reference.jointAxis(b)));
    }
    ASSERT_TRUE(allClose(fast.centerOfMass(), reference.centerOfMass()));
    for (const char* link : {"l_gripper", "r_sole", "Head"})
    {
      fast.computePointJacobian(model.linkIndex(link), Eigen::Vector3d(0.02, 0.0, -0.01), fastJacobian);
      reference.computePointJacobian(model.linkIndex(link), Eigen::Vector3d(0.02, 0.0, -0.01),
                                     referenceJacobian);
      ASSERT_TRUE(allClose(fastJacobian, referenceJacobian)) << link;
    }
  }
}

TEST_P(EvaluatorBackends, StaticTorquesAgreeWithEigen)
{
  const Model model = loadNao();
  const FeetSupport feet = FeetSupport::fromLinks(model);
  StaticTorqueEvaluator fast(model, feet, fastest()), reference(model, feet, {KinematicsBackend::eigen});
  Data data(model);
  const int n = model.coordinateCount();
  Eigen::VectorXd fastTau(n), referenceTau(n);
  std::mt19937 random(4);
  for (int trial = 0; trial < 300; ++trial)
  {
    const Eigen::VectorXd q = randomConfiguration(model, random);
    const Eigen::Vector3d gravity = randomGravity(random);
    fast.gravityTorques(q, gravity, fastTau);
    reference.gravityTorques(q, gravity, referenceTau);
    ASSERT_TRUE(allClose(fastTau, referenceTau)) << "G(q)";
    ASSERT_TRUE(allClose(fast.centerOfMass(), reference.centerOfMass()));

    forwardKinematics(model, data, q);
    const SoleWrenches wrenches{
        randomWrench(feet.leftSole, data.linkPoses[static_cast<std::size_t>(feet.leftSole)], random),
        randomWrench(feet.rightSole, data.linkPoses[static_cast<std::size_t>(feet.rightSole)], random)};
    fast.staticTorques(q, gravity, wrenches, fastTau);
    reference.staticTorques(q, gravity, wrenches, referenceTau);
    ASSERT_TRUE(allClose(fastTau, referenceTau)) << "static torques";

    // Wrenches on other links than the soles take the Eigen path and still give the right answer.
    const int hand = model.linkIndex("l_gripper");
    const SoleWrenches onHands{
        randomWrench(hand, data.linkPoses[static_cast<std::size_t>(hand)], random),
        randomWrench(feet.rightSole, data.linkPoses[static_cast<std::size_t>(feet.rightSole)], random)};
    fast.staticTorques(q, gravity, onHands, fastTau);
    computeStaticTorques(model, data, q, gravity, onHands, referenceTau);
    ASSERT_TRUE(allClose(fastTau, referenceTau)) << "wrench on a hand";
    ASSERT_TRUE(allClose(fast.centerOfMass(), data.centerOfMass));

    const SoleLoads loads = randomSoleLoads(random);
    SoleWrenches fastWrenches, referenceWrenches;
    fast.standingTorques(q, gravity, loads, fastTau, &fastWrenches);
    reference.standingTorques(q, gravity, loads, referenceTau, &referenceWrenches);
    ASSERT_TRUE(allClose(fastTau, referenceTau)) << "standing torques";
    ASSERT_TRUE(allClose(fastWrenches[0].point, referenceWrenches[0].point));
    ASSERT_TRUE(allClose(fast.centerOfMass(), reference.centerOfMass()));
  }
}

TEST_P(EvaluatorBackends, StandingRobotIsBalancedAndItsFeetCarryTheWeight)
{
  // Physics rather than a comparison: the balanced sole forces carry the weight, and the net moment of the
  // sole forces and gravity about the centre of mass vanishes.
  const Model model = loadNao();
  StaticTorqueEvaluator fast(model, FeetSupport::fromLinks(model), fastest());
  Eigen::VectorXd tau(model.coordinateCount());
  std::mt19937 random(5);
  for (int trial = 0; trial < 50; ++trial)
  {
    const Eigen::VectorXd q = randomConfiguration(model, random);
    const Eigen::Vector3d gravity = randomGravity(random);
    SoleWrenches wrenches;
    fast.standingTorques(q, gravity, randomSoleLoads(random), tau, &wrenches);
    const Eigen::Vector3d totalForce = wrenches[0].force + wrenches[1].force;
    EXPECT_TRUE(allClose(totalForce, -model.totalMass() * gravity, 1e-12));
    Eigen::Vector3d moment = Eigen::Vector3d::Zero();
    for (const ContactWrench& wrench : wrenches)
      moment += (wrench.point - fast.centerOfMass()).cross(wrench.force);
    EXPECT_LT(moment.norm(), 1e-10);
    EXPECT_TRUE(tau.allFinite());
  }
}

INSTANTIATE_TEST_SUITE_P(Avx2, EvaluatorBackends, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info)
                         { return info.param ? "avx2IfAvailable" : "sseOnly"; });
} // namespace
} // namespace nao::kinematics::test
