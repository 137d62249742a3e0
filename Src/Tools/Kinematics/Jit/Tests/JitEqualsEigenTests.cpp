// The generated code against the Eigen reference on 10,000 random configurations per robot and instruction
// set: every link and body pose, joint axis, the centre of mass, G(q), static torques with two random
// wrenches, the standing torques with balanced sole wrenches, and point Jacobians from the generated body
// poses.
#include "Tools/Kinematics/Conventions.h"
#include "Tools/Kinematics/ForwardKinematics.h"
#include "Tools/Kinematics/Jacobian.h"
#include "Tools/Kinematics/Jit/JitKinematics.h"
#include "Tools/Kinematics/Tests/BackendComparison.h"

#include <gtest/gtest.h>
#include <tuple>

namespace nao::kinematics::jit::test
{
namespace
{
using namespace nao::kinematics::test; // robots, random loads, allClose

constexpr int configurationCount = 10000;

::testing::AssertionResult posesClose(const math::Pose& actual, const math::Pose& expected)
{
  ::testing::AssertionResult rotation = allClose(actual.rotation, expected.rotation);
  if (!rotation) return rotation << " (rotation)";
  ::testing::AssertionResult translation = allClose(actual.translation, expected.translation);
  if (!translation) return translation << " (translation)";
  return ::testing::AssertionSuccess();
}

class JitEqualsEigen : public ::testing::TestWithParam<std::tuple<std::size_t, bool>>
{
protected:
  const RobotCase& robot() const { return robotCases()[std::get<0>(GetParam())]; }
  bool allowAvx2() const { return std::get<1>(GetParam()); }
};

TEST_P(JitEqualsEigen, EveryOutputOnTenThousandRandomConfigurations)
{
  const Model model = robot().load();
  const FeetSupport contacts{model.linkIndex(robot().contactLinks[0]),
                             model.linkIndex(robot().contactLinks[1])};
  const CompiledModel compiled(model, {allowAvx2(), {contacts.leftSole, contacts.rightSole}});
  ASSERT_EQ(compiled.instructionSet(), hostInstructionSet(allowAvx2()));
  Workspace workspace(compiled);
  Data data(model);
  const int n = model.coordinateCount();
  Eigen::VectorXd expectedTau(n), tau(n);
  Jacobian expectedJacobian(6, n), jacobian(6, n);
  std::mt19937 random(1234);

  for (int trial = 0; trial < configurationCount; ++trial)
  {
    SCOPED_TRACE("configuration " + std::to_string(trial));
    const Eigen::VectorXd q = nao::kinematics::test::randomConfiguration(model, random);
    const Eigen::Vector3d gravity = randomGravity(random);

    // Forward kinematics of every body and link, and the centre of mass. The workspace holds the previous
    // configuration's results, so each kernel must write everything; three kernels take turns at going first.
    forwardKinematics(model, data, q);
    updateCenterOfMass(model, data);
    const int firstKernel = trial % 3;
    if (firstKernel == 0)
      jit::forwardKinematics(compiled, workspace, q);
    else if (firstKernel == 1)
      jit::forwardKinematicsAndCenterOfMass(compiled, workspace, q);
    else
      jit::updateBodyPoses(compiled, workspace, q);
    for (int b = 0; b < model.bodyCount(); ++b)
    {
      ASSERT_TRUE(posesClose(bodyPose(compiled, workspace, b), data.bodyPoses[static_cast<std::size_t>(b)]))
          << "body " << model.body(b).linkName;
      ASSERT_TRUE(allClose(jointAxis(compiled, workspace, b), data.jointAxes[static_cast<std::size_t>(b)]))
          << "axis of body " << model.body(b).linkName;
    }
    for (int l = 0; l < model.linkCount(); ++l)
    {
      const math::Pose pose =
          firstKernel == 2 ? linkPoseFromBody(compiled, workspace, l) : linkPose(compiled, workspace, l);
      ASSERT_TRUE(posesClose(pose, data.linkPoses[static_cast<std::size_t>(l)]))
          << "link " << model.link(l).name;
    }
    if (firstKernel == 2)
      for (const int link : {contacts.leftSole, contacts.rightSole, model.linkCount() - 1})
      {
        // Point Jacobians from the generated body poses.
        const Eigen::Vector3d point(0.01, -0.02, 0.03);
        nao::kinematics::computePointJacobian(model, data, link, point, expectedJacobian);
        jit::computePointJacobian(compiled, workspace, link, point, jacobian);
        ASSERT_TRUE(allClose(jacobian, expectedJacobian)) << "Jacobian of link " << model.link(link).name;
      }
    if (firstKernel != 1) jit::forwardKinematicsAndCenterOfMass(compiled, workspace, q);
    ASSERT_TRUE(allClose(centerOfMass(compiled, workspace), data.centerOfMass)) << "centre of mass";

    // G(q).
    computeGravityTorques(model, data, q, gravity, expectedTau);
    jit::computeGravityTorques(compiled, workspace, q, gravity, tau);
    ASSERT_TRUE(allClose(tau, expectedTau)) << "G(q)";
    ASSERT_TRUE(allClose(centerOfMass(compiled, workspace), data.centerOfMass)) << "centre of mass with G(q)";

    // Static torques with two random contact wrenches.
    const SoleWrenches wrenches{
        randomWrench(contacts.leftSole, data.linkPoses[static_cast<std::size_t>(contacts.leftSole)], random),
        randomWrench(contacts.rightSole, data.linkPoses[static_cast<std::size_t>(contacts.rightSole)],
                     random)};
    computeStaticTorques(model, data, q, gravity, wrenches, expectedTau);
    jit::computeStaticTorques(compiled, workspace, q, gravity, wrenches, tau);
    ASSERT_TRUE(allClose(tau, expectedTau)) << "static torques";
    for (int b = 0; b < model.bodyCount(); ++b)
      ASSERT_TRUE(posesClose(bodyPose(compiled, workspace, b), data.bodyPoses[static_cast<std::size_t>(b)]));

    // Standing on the two contact links with balanced wrenches.
    const SoleLoads loads = randomSoleLoads(random);
    SoleWrenches expectedBalanced, balanced;
    computeStandingTorques(model, data, q, gravity, contacts, loads, expectedTau, &expectedBalanced);
    jit::computeStandingTorques(compiled, workspace, q, gravity, contacts, loads, tau, &balanced);
    ASSERT_TRUE(allClose(tau, expectedTau)) << "standing torques";
    for (std::size_t foot = 0; foot < 2; ++foot)
    {
      ASSERT_TRUE(allClose(balanced[foot].point, expectedBalanced[foot].point))
          << "sole wrench point " << foot;
      ASSERT_TRUE(allClose(balanced[foot].force, expectedBalanced[foot].force)) << "sole force " << foot;
    }
  }
}

TEST_P(JitEqualsEigen, GravityTorquesAreTheGradientOfThePotentialEnergy)
{
  // Independent of the Eigen path: G = dV/dq with V = -M g . c(q), c from the generated centre of mass.
  const Model model = robot().load();
  const CompiledModel compiled(model, {allowAvx2(), {}});
  Workspace workspace(compiled);
  const int n = model.coordinateCount();
  Eigen::VectorXd tau(n);
  std::mt19937 random(99);
  for (int trial = 0; trial < 50; ++trial)
  {
    const Eigen::VectorXd q = nao::kinematics::test::randomConfiguration(model, random);
    const Eigen::Vector3d gravity = randomGravity(random);
    jit::computeGravityTorques(compiled, workspace, q, gravity, tau);
    const auto energy = [&](const Eigen::VectorXd& at)
    {
      return Eigen::VectorXd::Constant(1, -model.totalMass() *
                                              gravity.dot(updateCenterOfMass(compiled, workspace, at)));
    };
    for (int k = 0; k < n; ++k)
    {
      const double gradient = nao::kinematics::test::centralDifference(energy, q, k, 1e-6)[0];
      EXPECT_NEAR(tau[k], gradient, 1e-7 * std::max(1.0, std::abs(gradient)))
          << robot().name << " coordinate " << model.coordinates()[static_cast<std::size_t>(k)].name;
    }
  }
}

TEST(JitContacts, WrenchesOnOtherLinksThanTheCompiledOnesAreRejected)
{
  const Model model = nao::kinematics::test::loadNao();
  const FeetSupport feet = FeetSupport::fromLinks(model);
  const CompiledModel compiled(model, {true, {feet.leftSole, feet.rightSole}});
  Workspace workspace(compiled);
  const Eigen::VectorXd q = Eigen::VectorXd::Zero(model.coordinateCount());
  Eigen::VectorXd tau(model.coordinateCount());
  SoleWrenches swapped;
  swapped[0].link = feet.rightSole;
  swapped[1].link = feet.leftSole;
  EXPECT_THROW(jit::computeStaticTorques(compiled, workspace, q, defaultGravity, swapped, tau),
               std::invalid_argument);
  EXPECT_THROW(
      jit::computeStaticTorques(compiled, workspace, q, defaultGravity, std::span(swapped).first(1), tau),
      std::invalid_argument);
  const FeetSupport reversed{feet.rightSole, feet.leftSole};
  EXPECT_THROW(
      jit::computeStandingTorques(compiled, workspace, q, defaultGravity, reversed, SoleLoads{}, tau),
      std::invalid_argument);
}

std::string parameterName(const ::testing::TestParamInfo<std::tuple<std::size_t, bool>>& info)
{
  return robotCases()[std::get<0>(info.param)].name +
         (std::get<1>(info.param) ? "_avx2IfAvailable" : "_sseOnly");
}

INSTANTIATE_TEST_SUITE_P(Robots, JitEqualsEigen,
                         ::testing::Combine(::testing::Range<std::size_t>(0, 4), ::testing::Bool()),
                         parameterName);
} // namespace
} // namespace nao::kinematics::jit::test
