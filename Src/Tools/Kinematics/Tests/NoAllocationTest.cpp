// The algorithms must not allocate once Data exists (the motion thread never allocates). This executable
// interposes glibc's malloc family, which also sees operator new and Eigen's heap temporaries.
#include "TestModels.h"
#include "Tools/Kinematics/ForwardKinematics.h"
#include "Tools/Kinematics/FsrContact.h"
#include "Tools/Kinematics/Jacobian.h"
#include "Tools/Kinematics/StaticTorques.h"

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <gtest/gtest.h>

extern "C"
{
  void* __libc_malloc(std::size_t size);
  void* __libc_calloc(std::size_t count, std::size_t size);
  void* __libc_realloc(void* pointer, std::size_t size);
}

namespace
{
std::atomic<bool> counting{false};
std::atomic<long> allocations{0};

void count()
{
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
}
} // namespace

extern "C"
{
  void* malloc(std::size_t size)
  {
    count();
    return __libc_malloc(size);
  }
  void* calloc(std::size_t number, std::size_t size)
  {
    count();
    return __libc_calloc(number, size);
  }
  void* realloc(void* pointer, std::size_t size)
  {
    count();
    return __libc_realloc(pointer, size);
  }
}

namespace nao::kinematics::test
{
namespace
{
class Allocations
{
public:
  Allocations()
  {
    allocations = 0;
    counting = true;
  }
  ~Allocations() { counting = false; }
  long count() const { return allocations.load(); }
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
