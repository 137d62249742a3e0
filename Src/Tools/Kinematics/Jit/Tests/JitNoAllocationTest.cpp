// Nothing allocates once the model is compiled and the workspace exists: this executable replaces the global
// operator new and interposes glibc's malloc family (Eigen's heap temporaries do not use operator new).
#include "JitTestSupport.h"
#include "Tools/Kinematics/ForwardKinematics.h"
#include "Tools/Kinematics/Jit/Evaluators.h"
#include "Tools/Kinematics/Jit/JitKinematics.h"

#include <atomic>
#include <cstdlib>
#include <gtest/gtest.h>
#include <new>

extern "C"
{
  void* __libc_malloc(std::size_t size);
  void* __libc_calloc(std::size_t count, std::size_t size);
  void* __libc_realloc(void* pointer, std::size_t size);
}

namespace
{
std::atomic<bool> counting{false};
std::atomic<long> operatorNewCalls{0};
std::atomic<long> mallocCalls{0};

void* countedNew(std::size_t size)
{
  if (counting.load(std::memory_order_relaxed)) operatorNewCalls.fetch_add(1, std::memory_order_relaxed);
  if (void* pointer = __libc_malloc(size == 0 ? 1 : size)) return pointer;
  throw std::bad_alloc();
}
} // namespace

void* operator new(std::size_t size)
{
  return countedNew(size);
}
void* operator new[](std::size_t size)
{
  return countedNew(size);
}
void operator delete(void* pointer) noexcept
{
  std::free(pointer);
}
void operator delete[](void* pointer) noexcept
{
  std::free(pointer);
}
void operator delete(void* pointer, std::size_t) noexcept
{
  std::free(pointer);
}
void operator delete[](void* pointer, std::size_t) noexcept
{
  std::free(pointer);
}

extern "C"
{
  void* malloc(std::size_t size)
  {
    if (counting.load(std::memory_order_relaxed)) mallocCalls.fetch_add(1, std::memory_order_relaxed);
    return __libc_malloc(size);
  }
  void* calloc(std::size_t count, std::size_t size)
  {
    if (counting.load(std::memory_order_relaxed)) mallocCalls.fetch_add(1, std::memory_order_relaxed);
    return __libc_calloc(count, size);
  }
  void* realloc(void* pointer, std::size_t size)
  {
    if (counting.load(std::memory_order_relaxed)) mallocCalls.fetch_add(1, std::memory_order_relaxed);
    return __libc_realloc(pointer, size);
  }
}

namespace nao::kinematics::jit::test
{
namespace
{
class AllocationWatch
{
public:
  AllocationWatch()
  {
    operatorNewCalls = 0;
    mallocCalls = 0;
    counting = true;
  }
  ~AllocationWatch() { counting = false; }
  long operatorNew() const { return operatorNewCalls.load(); }
  long malloc() const { return mallocCalls.load(); }
};

TEST(JitNoAllocation, TheCountersSeeAllocations)
{
  // Control: without it the test below could not fail.
  const AllocationWatch watch;
  auto* vector = new std::vector<double>(100);
  const Eigen::VectorXd eigenVector = Eigen::VectorXd::Zero(50);
  EXPECT_GE(watch.operatorNew(), 2); // the vector and its elements
  EXPECT_GE(watch.malloc(), 1);      // Eigen's heap vector
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

    const AllocationWatch watch;
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
    EXPECT_EQ(watch.operatorNew(), 0);
    EXPECT_EQ(watch.malloc(), 0);
    EXPECT_TRUE(std::isfinite(sum));
  }
}
} // namespace
} // namespace nao::kinematics::jit::test
