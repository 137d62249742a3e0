// Distance queries against closed-form hand cases (every degenerate case by name) and against a sampling
// reference on thousands of random pairs from every family of RandomShapes.h.
#include "RandomShapes.h"
#include "Tools/Collision/Distance.h"

#include <gtest/gtest.h>

namespace nao::collision::test
{
namespace
{
constexpr double exact = 1e-14; ///< m, for hand cases whose inputs are exact in binary or nearly so

/// Distance from `point` to the segment of `capsule` (projection onto the axis, clamped): written here so
/// that the witness check does not use the library.
double distanceToAxis(const Eigen::Vector3d& point, const Capsule& capsule)
{
  const Eigen::Vector3d axis = capsule.end - capsule.start;
  const double length2 = axis.squaredNorm();
  const double t = length2 == 0.0 ? 0.0 : std::clamp(axis.dot(point - capsule.start) / length2, 0.0, 1.0);
  return (capsule.start + t * axis - point).norm();
}

/// What every result must satisfy: unit normal, pointOnB - pointOnA = distance * normal, and each witness
/// point is its radius from its own core along the normal (so the core points really lie on the cores).
void expectConsistent(const ShapeDistance& result, const Capsule& a, const Capsule& b, double tolerance)
{
  EXPECT_NEAR(result.normal.norm(), 1.0, 1e-12);
  EXPECT_LE((result.pointOnB - result.pointOnA - result.distance * result.normal).norm(), tolerance);
  EXPECT_LE(distanceToAxis(result.pointOnA - a.radius * result.normal, a), tolerance);
  EXPECT_LE(distanceToAxis(result.pointOnB + b.radius * result.normal, b), tolerance);
}

Capsule capsule(const Eigen::Vector3d& start, const Eigen::Vector3d& end, double radius)
{
  return {start, end, radius};
}

ShapeDistance checked(const Capsule& a, const Capsule& b)
{
  const ShapeDistance result = capsuleCapsuleDistance(a, b);
  expectConsistent(result, a, b, exact);
  return result;
}

TEST(SphereSphere, SeparatedPenetratingAndConcentric)
{
  ShapeDistance r = sphereSphereDistance({{0, 0, 0}, 0.125}, {{0.5, 0, 0}, 0.25});
  EXPECT_NEAR(r.distance, 0.125, exact);
  EXPECT_TRUE(r.pointOnA.isApprox(Eigen::Vector3d(0.125, 0, 0), exact));
  EXPECT_TRUE(r.pointOnB.isApprox(Eigen::Vector3d(0.25, 0, 0), exact));
  EXPECT_TRUE(r.normal.isApprox(Eigen::Vector3d::UnitX(), exact));

  r = sphereSphereDistance({{0, 0, 0}, 0.125}, {{0, 0.125, 0}, 0.125}); // depth 0.125 along +y
  EXPECT_NEAR(r.distance, -0.125, exact);
  EXPECT_TRUE(r.normal.isApprox(Eigen::Vector3d::UnitY(), exact));
  EXPECT_TRUE(r.pointOnA.isApprox(Eigen::Vector3d(0, 0.125, 0), exact));
  EXPECT_NEAR(r.pointOnB.norm(), 0.0, exact);

  r = sphereSphereDistance({{1, 2, 3}, 0.1}, {{1, 2, 3}, 0.2}); // concentric: the fallback normal
  EXPECT_NEAR(r.distance, -0.3, exact);
  EXPECT_TRUE(r.normal.isApprox(Eigen::Vector3d::UnitX(), exact));
}

TEST(SphereSphere, Touching)
{
  const ShapeDistance r = sphereSphereDistance({{0, 0, 0}, 0.25}, {{0, 0, 0.75}, 0.5});
  EXPECT_NEAR(r.distance, 0.0, exact);
  EXPECT_TRUE(r.pointOnA.isApprox(r.pointOnB, exact));
}

TEST(SphereCapsule, ProjectionInsideAndOutsideTheAxis)
{
  const Capsule axisX = capsule({0, 0, 0}, {1, 0, 0}, 0.125);
  ShapeDistance r =
      sphereCapsuleDistance({{0.25, 0.5, 0}, 0.125}, axisX); // foot inside: distance to the axis
  EXPECT_NEAR(r.distance, 0.25, exact);
  EXPECT_TRUE(r.normal.isApprox(-Eigen::Vector3d::UnitY(), exact));
  EXPECT_TRUE(r.pointOnA.isApprox(Eigen::Vector3d(0.25, 0.375, 0), exact));
  EXPECT_TRUE(r.pointOnB.isApprox(Eigen::Vector3d(0.25, 0.125, 0), exact));

  r = sphereCapsuleDistance({{-0.3, 0.4, 0}, 0.125}, axisX); // foot outside: distance to the start, 0.5
  EXPECT_NEAR(r.distance, 0.25, exact);
  EXPECT_TRUE(r.pointOnB.isApprox(Eigen::Vector3d(-0.6, 0.8, 0) * 0.125, exact));

  r = capsuleSphereDistance(axisX, {{1.5, 0, 0}, 0.25}); // beyond the end, swapped order: normal from capsule
  EXPECT_NEAR(r.distance, 0.125, exact);
  EXPECT_TRUE(r.normal.isApprox(Eigen::Vector3d::UnitX(), exact));
}

TEST(SphereCapsule, CentreOnTheAxisUsesAPerpendicularNormal)
{
  const Capsule axisX = capsule({0, 0, 0}, {1, 0, 0}, 0.125);
  const ShapeDistance r = sphereCapsuleDistance({{0.5, 0, 0}, 0.25}, axisX);
  EXPECT_NEAR(r.distance, -0.375, exact);
  EXPECT_NEAR(r.normal.norm(), 1.0, exact);
  EXPECT_NEAR(r.normal.x(), 0.0, exact);
  expectConsistent(r, {{0.5, 0, 0}, {0.5, 0, 0}, 0.25}, axisX, exact);
}

TEST(CapsuleCapsule, SkewAndCrossingAxes)
{
  const Capsule a = capsule({-1, 0, 0}, {1, 0, 0}, 0.125);
  ShapeDistance r = checked(a, capsule({0, -1, 0.5}, {0, 1, 0.5}, 0.125)); // perpendicular, 0.5 apart in z
  EXPECT_NEAR(r.distance, 0.25, exact);
  EXPECT_TRUE(r.pointOnA.isApprox(Eigen::Vector3d(0, 0, 0.125), exact));
  EXPECT_TRUE(r.pointOnB.isApprox(Eigen::Vector3d(0, 0, 0.375), exact));

  r = checked(a, capsule({0.5, -1, 0}, {0.5, 1, 0}, 0.25)); // axes cross at (0.5, 0, 0): x cross y = +z
  EXPECT_NEAR(r.distance, -0.375, exact);
  EXPECT_TRUE(r.normal.isApprox(Eigen::Vector3d::UnitZ(), exact));
  EXPECT_TRUE(r.pointOnA.isApprox(Eigen::Vector3d(0.5, 0, 0.125), exact));
  EXPECT_TRUE(r.pointOnB.isApprox(Eigen::Vector3d(0.5, 0, -0.25), exact));
}

TEST(CapsuleCapsule, TShapeEndToSide)
{
  const ShapeDistance r =
      checked(capsule({0, 0, 0}, {1, 0, 0}, 0.0625), capsule({0.5, 1, 0}, {0.5, 0.25, 0}, 0.0625));
  EXPECT_NEAR(r.distance, 0.125, exact);
  EXPECT_TRUE(r.pointOnA.isApprox(Eigen::Vector3d(0.5, 0.0625, 0), exact));
}

TEST(CapsuleCapsule, ParallelAndAntiParallelTakeTheMiddleOfTheOverlap)
{
  const Capsule a = capsule({0, 0, 0}, {1, 0, 0}, 0.0625);
  for (const Capsule& b :
       {capsule({0.5, 0.25, 0}, {2, 0.25, 0}, 0.0625), capsule({2, 0.25, 0}, {0.5, 0.25, 0}, 0.0625)})
  {
    const ShapeDistance r = checked(a, b);
    EXPECT_NEAR(r.distance, 0.125, exact);
    EXPECT_TRUE(r.pointOnA.isApprox(Eigen::Vector3d(0.75, 0.0625, 0), exact)); // overlap s in [0.5, 1]
    EXPECT_TRUE(r.normal.isApprox(Eigen::Vector3d::UnitY(), exact));
  }
}

TEST(CapsuleCapsule, ParallelWithoutOverlapUsesTheNearestEnds)
{
  const ShapeDistance r =
      checked(capsule({0, 0, 0}, {1, 0, 0}, 0.0), capsule({1.3, 0.4, 0}, {2, 0.4, 0}, 0.0));
  EXPECT_NEAR(r.distance, 0.5, exact);
  EXPECT_TRUE(r.pointOnA.isApprox(Eigen::Vector3d(1, 0, 0), exact));
  EXPECT_TRUE(r.pointOnB.isApprox(Eigen::Vector3d(1.3, 0.4, 0), exact));
}

TEST(CapsuleCapsule, CollinearOverlappingAndEndToEnd)
{
  const Capsule a = capsule({0, 0, 0}, {1, 0, 0}, 0.125);
  ShapeDistance r =
      checked(a, capsule({0.5, 0, 0}, {2, 0, 0}, 0.25)); // cores overlap: perpendicular fallback
  EXPECT_NEAR(r.distance, -0.375, exact);
  EXPECT_NEAR(r.normal.x(), 0.0, exact);

  r = checked(a, capsule({2, 0, 0}, {1.25, 0, 0}, 0.0625)); // end to end, 0.25 apart
  EXPECT_NEAR(r.distance, 0.0625, exact);
  EXPECT_TRUE(r.normal.isApprox(Eigen::Vector3d::UnitX(), exact));
  EXPECT_TRUE(r.pointOnA.isApprox(Eigen::Vector3d(1.125, 0, 0), exact));
}

TEST(CapsuleCapsule, ZeroLengthCoresAreSpheres)
{
  const Capsule point = capsule({0.5, 0.5, 0}, {0.5, 0.5, 0}, 0.125);
  ShapeDistance r = checked(point, capsule({0, 0, 0}, {1, 0, 0}, 0.125));
  EXPECT_NEAR(r.distance, 0.25, exact);
  EXPECT_TRUE(r.normal.isApprox(-Eigen::Vector3d::UnitY(), exact));

  r = checked(point, capsule({0.5, 0.5, 0.75}, {0.5, 0.5, 0.75}, 0.25));
  EXPECT_NEAR(r.distance, 0.375, exact);
  r = checked(point, point);
  EXPECT_NEAR(r.distance, -0.25, exact);
  EXPECT_TRUE(r.normal.isApprox(Eigen::Vector3d::UnitX(), exact));
}

TEST(SegmentParameters, AreInsideTheSegments)
{
  PairGenerator generator(3);
  for (int i = 0; i < 2000; ++i)
  {
    const CapsulePair pair =
        generator.make(allPairFamilies[static_cast<std::size_t>(i) % allPairFamilies.size()]);
    const SegmentParameters p = closestSegmentParameters(pair.a.start, pair.a.end, pair.b.start, pair.b.end);
    EXPECT_TRUE(p.s >= 0.0 && p.s <= 1.0 && p.t >= 0.0 && p.t <= 1.0) << p.s << " " << p.t;
  }
}

class RandomPairs : public ::testing::TestWithParam<PairFamily>
{
};

TEST_P(RandomPairs, MatchSamplingReference)
{
  // 1000 pairs per family; the reference samples |A(s) - B(t)| with no closed form.
  constexpr double tolerance = 1e-12; // m
  PairGenerator generator(17 + static_cast<unsigned>(GetParam()));
  double worst = 0.0;
  for (int i = 0; i < 1000; ++i)
  {
    const CapsulePair pair = generator.make(GetParam());
    const ShapeDistance result = capsuleCapsuleDistance(pair.a, pair.b);
    expectConsistent(result, pair.a, pair.b, tolerance);
    const double reference = referenceCoreDistance(pair.a, pair.b) - pair.a.radius - pair.b.radius;
    worst = std::max(worst, std::abs(result.distance - reference));
    ASSERT_NEAR(result.distance, reference, tolerance) << streams::enumName(GetParam()) << " pair " << i;
    if (!std::isnan(pair.constructedDistance))
    {
      ASSERT_NEAR(result.distance, pair.constructedDistance, tolerance);
    }

    // The sphere queries agree with a capsule whose core is a point.
    const Sphere sphere{pair.a.start, pair.a.radius};
    const Capsule pointCapsule{pair.a.start, pair.a.start, pair.a.radius};
    const ShapeDistance viaSphere = sphereCapsuleDistance(sphere, pair.b);
    EXPECT_NEAR(viaSphere.distance,
                referenceCoreDistance(pointCapsule, pair.b) - sphere.radius - pair.b.radius, tolerance);
    expectConsistent(viaSphere, pointCapsule, pair.b, tolerance);
    const ShapeDistance swapped = capsuleSphereDistance(pair.b, sphere);
    EXPECT_NEAR(swapped.distance, viaSphere.distance, 1e-15);
  }
  RecordProperty("worstDifferenceMetres", std::to_string(worst));
}

INSTANTIATE_TEST_SUITE_P(EveryFamily, RandomPairs, ::testing::ValuesIn(allPairFamilies),
                         [](const auto& info) { return std::string(streams::enumName(info.param)); });
} // namespace
} // namespace nao::collision::test
