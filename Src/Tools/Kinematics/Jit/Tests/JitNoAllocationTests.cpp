// Nothing allocates once the model is compiled and the workspace exists. The allocation counter (Tools/Testing)
// interposes glibc's malloc family, which operator new and Eigen's heap temporaries both go through.
#include "Tools/Kinematics/Evaluators.h"
#include "Tools/Kinematics/ForwardKinematics.h"
#include "Tools/Kinematics/Jit/JitKinematics.h"
#include "Tools/Kinematics/Tests/BackendComparison.h"
#include "Tools/Testing/AllocationCounter.h"

#include <cmath>
#include <gtest/gtest.h>

namespace nao::kinematics::jit::test
{
namespace
{
using namespace nao::kinematics::test; // robots, random loads
using nao::test::ThreadAllocationCount;

TEST(JitNoAllocation, TheCounterSeesAllocations)
{
  // Control: without it the test below could not fail.
  const ThreadAllocationCount watch;
  auto* vector = new std::vector<double>(100);
  nao::test::keepAllocation(vector);
  const Eigen::VectorXd eigenVector = Eigen::VectorXd::Zero(50);
  EXPECT_GE(watch.allocations(), 3u); // the vector, its elements and Eigen's heap vector
  delete vector;
}

TEST(JitNoAllocation, EvaluationDoesNotAllocate)
{
  const Model model = nao::kinematics::test::loadNao();
  const FeetSupport feet = FeetSupport::fromLinks(model);
  const int n = model.coordinateCount();
  std::mt19937 random(6);
  const Eigen::VectorXd q = nao::kinematics::test::randomConfiguration(model, random);
  const Eigen::Vector3d gravity(0.3, -0.2, -9.8);
  Data data(model);
  forwardKinematics(model, data, q);
  const SoleWrenches wrenches{
      randomWrench(feet.leftSole, data.linkPoses[static_cast<std::size_t>(feet.leftSole)], random),
      randomWrench(feet.rightSole, data.linkPoses[static_cast<std::size_t>(feet.rightSole)], random)};
  const SoleLoads loads = randomSoleLoads(random);
  Eigen::VectorXd tau(n);
  Jacobian jacobian(6, n);
  SoleWrenches balanced;

  for (const bool allowAvx2 : {true, false})
  {
    SCOPED_TRACE(allowAvx2 ? "AVX2 if available" : "SSE only");
    const CompiledModel compiled(model, {allowAvx2, {feet.leftSole, feet.rightSole}});
    Workspace workspace(compiled);
    KinematicsEvaluator kinematics(model, {KinematicsBackend::jit, allowAvx2});
    StaticTorqueEvaluator torques(model, feet, {KinematicsBackend::jit, allowAvx2});

    const ThreadAllocationCount watch;
    jit::forwardKinematics(compiled, workspace, q);
    jit::forwardKinematicsAndCenterOfMass(compiled, workspace, q);
    double sum = linkPose(compiled, workspace, feet.leftSole).translation.sum() +
                 centerOfMass(compiled, workspace).x();
    jit::updateCenterOfMass(compiled, workspace, q);
    jit::computeGravityTorques(compiled, workspace, q, gravity, tau);
    jit::computeStaticTorques(compiled, workspace, q, gravity, wrenches, tau);
    jit::computeStandingTorques(compiled, workspace, q, gravity, feet, loads, tau, &balanced);
    jit::computePointJacobian(compiled, workspace, feet.rightSole, Eigen::Vector3d(0.01, 0, 0), jacobian);
    kinematics.update(q);
    kinematics.computePointJacobian(feet.leftSole, Eigen::Vector3d::Zero(), jacobian);
    sum += kinematics.linkPose(3).translation.sum() + kinematics.centerOfMass().sum();
    torques.gravityTorques(q, gravity, tau);
    torques.staticTorques(q, gravity, wrenches, tau);
    torques.standingTorques(q, gravity, loads, tau, &balanced);
    sum += torques.centerOfMass().sum() + tau.sum();
    EXPECT_EQ(watch.allocations(), 0u);
    EXPECT_TRUE(std::isfinite(sum));
  }
}
} // namespace
} // namespace nao::kinematics::jit::test
