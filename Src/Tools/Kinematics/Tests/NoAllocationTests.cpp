// The algorithms must not allocate once Data exists (the motion thread never allocates). The counter
// interposes glibc's malloc family, which also sees operator new and Eigen's heap temporaries.
#include "Tools/Kinematics/ForwardKinematics.h"
#include "Tools/Kinematics/FsrContact.h"
#include "Tools/Kinematics/Jacobian.h"
#include "Tools/Kinematics/StaticTorques.h"
#include "Tools/Kinematics/Tests/TestModels.h"

#include "Tools/Testing/AllocationCounter.h"

#include <cmath>
#include <gtest/gtest.h>

namespace nao::kinematics::test
{
namespace
{
using nao::test::ThreadAllocationCount;

TEST(NoAllocation, CounterSeesHeapAllocations)
{
  // Control: the interposed malloc must notice an allocation, or the test below could not fail.
  const ThreadAllocationCount watch;
  auto* vector = new std::vector<double>(100);
  nao::test::keepAllocation(vector);
  const Eigen::VectorXd eigenVector = Eigen::VectorXd::Zero(50);
  EXPECT_GE(watch.allocations(), 3u);
  delete vector;
}

TEST(NoAllocation, AlgorithmsDoNotAllocateAfterDataIsCreated)
{
  const Model model = loadNao();
  Data data(model);
  const FeetSupport feet = FeetSupport::fromLinks(model);
  const FsrLayout layout = naoFsrLayout(model, feet);
  std::mt19937 random(5);
  const Eigen::VectorXd q = randomConfiguration(model, random);
  const int n = model.coordinateCount();
  Eigen::VectorXd tau(n);
  Jacobian jacobian(6, n), derivative(6, n), derivatives(6, n * n), pathDerivatives(6, 36);
  const Eigen::VectorXd pathRates = Eigen::VectorXd::LinSpaced(6, -1.0, 1.0);
  const std::array<float, fsrCount> readings{0.7f, 0.6f, 0.7f, 0.6f, 0.7f, 0.7f, 0.6f, 0.7f};
  const std::array<float, fsrCount> broken{NAN, 0.6f, 0.7f, 0.6f, 0.7f, 0.7f, 0.6f, 0.7f};
  const Eigen::Vector3d gravity(0.5, -0.3, -9.8);
  const SoleLoads loads{SoleLoad{0.6, {0.01, 0.0}}, SoleLoad{0.4, {0.02, -0.01}}};
  SoleWrenches wrenches;

  const ThreadAllocationCount watch;
  forwardKinematics(model, data, q);
  updateCenterOfMass(model, data);
  computePointJacobian(model, data, feet.leftSole, Eigen::Vector3d(0.01, 0.02, 0), jacobian);
  computeJacobianDerivative(model, data, feet.leftSole, Eigen::Vector3d::Zero(), 9, derivative);
  computeJacobianDerivatives(model, data, model.linkIndex("r_gripper"), Eigen::Vector3d::Zero(), derivatives);
  computeJacobianDerivatives(jacobian.leftCols(6), pathDerivatives);
  const double rate = computeJacobianRateTimesVelocity(jacobian.leftCols(6), pathRates).sum();
  computeGravityTorques(model, data, q, gravity, tau);
  computeStandingTorques(model, data, q, gravity, feet, loads, tau, &wrenches);
  computeStaticTorques(model, data, q, gravity, wrenches, tau);
  for (const auto& sensorValues : {readings, broken})
  {
    const ContactEstimate estimate = estimateContact(model, data, gravity, feet, layout, sensorValues, {});
    computeTorquesFromContactEstimate(model, data, q, gravity, feet, estimate, tau, &wrenches);
  }
  EXPECT_EQ(watch.allocations(), 0u);
  EXPECT_TRUE(std::isfinite(rate));
}
} // namespace
} // namespace nao::kinematics::test
