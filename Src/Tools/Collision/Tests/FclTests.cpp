// Distances against FCL 0.7 (Debian libfcl-dev) on thousands of random pairs from every family of
// RandomShapes.h, as capsule-capsule, sphere-capsule and sphere-sphere queries.
#include "FclPeer.h"
#include "RandomShapes.h"
#include "Tools/Collision/Distance.h"

#include <cstdio>
#include <gtest/gtest.h>

namespace nao::collision::test
{
namespace
{
constexpr double tolerance = 1e-12; ///< m: FCL's closed forms are exact too, except:
/// m: for nearly parallel axes FCL computes the line parameter from a*e - b*b, which cancels, and lands
/// beside the closest points; its distance is then too large, never too small (ours is checked against
/// sampling).
constexpr double fclNearlyParallelError = 1e-8;
constexpr double witnessTolerance = 1e-10; ///< m: witness points of well-conditioned pairs

class AgainstFcl : public ::testing::TestWithParam<PairFamily>
{
};

struct Worst
{
  double separated = 0.0;   ///< m, largest |ours - FCL| of separated pairs
  double penetrating = 0.0; ///< m, of penetrating pairs
  double witness = 0.0;     ///< m, largest witness point difference where the points are unique
};

/// Witness points are unique for separated shapes unless both cores are segments at a small angle (parallel
/// overlapping axes have a whole range of closest pairs; near it the pair is ill-conditioned).
bool witnessesAreWellDefined(const Capsule& a, bool aIsSphere, const Capsule& b, bool bIsSphere)
{
  if (aIsSphere || bIsSphere) return true;
  const Eigen::Vector3d axisA = a.end - a.start, axisB = b.end - b.start;
  if (axisA.norm() == 0.0 || axisB.norm() == 0.0) return true;
  return axisA.normalized().cross(axisB.normalized()).norm() > 0.01;
}

void expectSameAsFcl(const Capsule& a, bool aIsSphere, const Capsule& b, bool bIsSphere,
                     const ShapeDistance& ours, const std::string& where, double fclError, Worst& worst)
{
  const FclDistance fcl = fclDistance(a, aIsSphere, b, bIsSphere);
  const double difference = std::abs(ours.distance - fcl.distance);
  ASSERT_LE(ours.distance - fcl.distance, tolerance)
      << where << ": ours " << ours.distance << ", FCL " << fcl.distance;
  ASSERT_LE(fcl.distance - ours.distance, fclError)
      << where << ": ours " << ours.distance << ", FCL " << fcl.distance;
  if (ours.distance > 1e-9)
  {
    worst.separated = std::max(worst.separated, difference);
    // Any closest pair is right; FCL's must be as far apart as ours, and the same where they are unique.
    EXPECT_NEAR((fcl.pointOnB - fcl.pointOnA).norm(), fcl.distance, tolerance) << where;
    if (witnessesAreWellDefined(a, aIsSphere, b, bIsSphere))
    {
      const double witness =
          std::max((fcl.pointOnA - ours.pointOnA).norm(), (fcl.pointOnB - ours.pointOnB).norm());
      EXPECT_LE(witness, witnessTolerance) << where;
      worst.witness = std::max(worst.witness, witness);
    }
  }
  else if (ours.distance < -1e-9)
  {
    worst.penetrating = std::max(worst.penetrating, difference);
  }
}

TEST_P(AgainstFcl, CapsulesAndSpheres)
{
  // 1000 pairs per family, each asked as capsule-capsule, sphere-capsule and sphere-sphere.
  PairGenerator generator(101 + static_cast<unsigned>(GetParam()));
  Worst worst;
  for (int i = 0; i < 1000; ++i)
  {
    const CapsulePair pair = generator.make(GetParam());
    const Sphere sphereA{pair.a.start, pair.a.radius}, sphereB{pair.b.start, pair.b.radius};
    const Capsule pointA{pair.a.start, pair.a.start, pair.a.radius};
    const Capsule pointB{pair.b.start, pair.b.start, pair.b.radius};
    const double fclError = GetParam() == PairFamily::nearlyParallel ? fclNearlyParallelError : tolerance;
    const std::string where = std::string(streams::enumName(GetParam())) + " pair " + std::to_string(i);
    expectSameAsFcl(pair.a, false, pair.b, false, capsuleCapsuleDistance(pair.a, pair.b),
                    where + " capsule-capsule", fclError, worst);
    expectSameAsFcl(pointA, true, pair.b, false, sphereCapsuleDistance(sphereA, pair.b),
                    where + " sphere-capsule", tolerance, worst);
    expectSameAsFcl(pointA, true, pointB, true, sphereSphereDistance(sphereA, sphereB),
                    where + " sphere-sphere", tolerance, worst);
  }
  RecordProperty("worstSeparatedMetres", std::to_string(worst.separated));
  RecordProperty("worstPenetratingMetres", std::to_string(worst.penetrating));
  RecordProperty("worstWitnessMetres", std::to_string(worst.witness));
  std::printf("%s: worst |ours - FCL| separated %.1e m, penetrating %.1e m, witness points %.1e m\n",
              std::string(streams::enumName(GetParam())).c_str(), worst.separated, worst.penetrating,
              worst.witness);
}

INSTANTIATE_TEST_SUITE_P(EveryFamily, AgainstFcl, ::testing::ValuesIn(allPairFamilies),
                         [](const auto& info) { return std::string(streams::enumName(info.param)); });
} // namespace
} // namespace nao::collision::test
