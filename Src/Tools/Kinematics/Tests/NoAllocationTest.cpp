// The algorithms must not allocate once Data exists (the motion thread never allocates). The counter
// interposes glibc's malloc family, which also sees operator new and Eigen's heap temporaries.
#include "TestModels.h"
#include "Tools/Kinematics/ForwardKinematics.h"
#include "Tools/Kinematics/FsrContact.h"
#include "Tools/Kinematics/Jacobian.h"
#include "Tools/Kinematics/StaticTorques.h"

#include "Tools/Testing/AllocationCounter.h"

#include <cmath>
#include <gtest/gtest.h>

namespace nao::kinematics::test
{
namespace
{
/// Counts this thread's heap allocations (malloc, calloc, realloc: operator new and Eigen's temporaries
/// included).
class Allocations
{
public:
  long count() const { return static_cast<long>(counter_.allocations()); }

private:
  nao::test::ThreadAllocationCount counter_;
};

TEST(NoAllocation, CounterSeesHeapAllocations)
{
  // Control: the interposed malloc must notice an allocation, or the test below could not fail.
  const Allocations watch;
  auto* vector = new std::vector<double>(100);
  const Eigen::VectorXd eigenVector = Eigen::VectorXd::Zero(50);
  EXPECT_GE(watch.count(), 3);
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
  Jacobian jacobian(6, n), derivative(6, n), derivatives(6, n * n);
  const std::array<float, fsrCount> readings{0.7f, 0.6f, 0.7f, 0.6f, 0.7f, 0.7f, 0.6f, 0.7f};
  const std::array<float, fsrCount> broken{NAN, 0.6f, 0.7f, 0.6f, 0.7f, 0.7f, 0.6f, 0.7f};
  const Eigen::Vector3d gravity(0.5, -0.3, -9.8);
  const SoleLoads loads{SoleLoad{0.6, {0.01, 0.0}}, SoleLoad{0.4, {0.02, -0.01}}};
  SoleWrenches wrenches;

  const Allocations watch;
  forwardKinematics(model, data, q);
  updateCenterOfMass(model, data);
  computePointJacobian(model, data, feet.leftSole, Eigen::Vector3d(0.01, 0.02, 0), jacobian);
  computeJacobianDerivative(model, data, feet.leftSole, Eigen::Vector3d::Zero(), 9, derivative);
  computeJacobianDerivatives(model, data, model.linkIndex("r_gripper"), Eigen::Vector3d::Zero(), derivatives);
  computeGravityTorques(model, data, q, gravity, tau);
  computeStandingTorques(model, data, q, gravity, feet, loads, tau, &wrenches);
  computeStaticTorques(model, data, q, gravity, wrenches, tau);
  for (const auto& sensorValues : {readings, broken})
  {
    const ContactEstimate estimate = estimateContact(model, data, gravity, feet, layout, sensorValues, {});
    computeTorquesFromContactEstimate(model, data, q, gravity, feet, estimate, tau, &wrenches);
  }
  EXPECT_EQ(watch.count(), 0);
}
} // namespace
} // namespace nao::kinematics::test
