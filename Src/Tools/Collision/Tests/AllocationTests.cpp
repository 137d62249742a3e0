// Per-frame distances must not allocate once BodyData exists (the motion thread never allocates). The counter
// interposes glibc's malloc family, which also sees operator new and Eigen's heap temporaries.
#include "Tools/Collision/BodyDistances.h"
#include "Tools/Collision/Distance.h"
#include "Tools/Testing/AllocationCounter.h"

#include <gtest/gtest.h>

namespace nao::collision::test
{
namespace
{
TEST(NoAllocation, CounterSeesHeapAllocations)
{
  // Control: the interposed malloc must notice an allocation, or the test below could not fail.
  const nao::test::ThreadAllocationCount watch;
  auto* vector = new std::vector<double>(100);
  nao::test::keepAllocation(vector);
  EXPECT_GE(watch.allocations(), 1u);
  delete vector;
}

TEST(NoAllocation, BodyDistancesDoNotAllocateAfterDataIsCreated)
{
  // Every pair kind, including the degenerate fallbacks (concentric spheres, crossing and collinear axes).
  std::vector<LinkShape> shapes{
      {"ball", 0, ShapeKind::sphere, {0, 0, 0}, {0, 0, 0}, 0.05},
      {"ball2", 1, ShapeKind::sphere, {0, 0, 0}, {0, 0, 0}, 0.05},
      {"rod", 2, ShapeKind::capsule, {-0.1, 0, 0}, {0.1, 0, 0}, 0.02},
      {"crossingRod", 3, ShapeKind::capsule, {0, -0.1, 0}, {0, 0.1, 0}, 0.02},
      {"collinearRod", 4, ShapeKind::capsule, {0, 0, 0}, {0.2, 0, 0}, 0.02},
  };
  const BodyModel model(5, shapes, pairsBetweenLinks(shapes, {}));
  BodyData data(model);
  const std::array<math::Pose, 5> poses{};

  const nao::test::ThreadAllocationCount watch;
  computeBodyDistances(model, data, poses);
  const int closest = closestPair(data);
  EXPECT_EQ(watch.allocations(), 0u);
  EXPECT_GE(closest, 0);
  EXPECT_EQ(model.pairCount(), 10);
}
} // namespace
} // namespace nao::collision::test
