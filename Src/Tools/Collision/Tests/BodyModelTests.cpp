// The body model: validation with named errors, the pair list builder, and per-frame distances that agree
// with the primitive queries on shapes moved by hand.
#include "Tools/Collision/BodyDistances.h"
#include "Tools/Collision/Distance.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <random>

namespace nao::collision::test
{
namespace
{
using ::testing::HasSubstr;

LinkShape sphere(std::string name, int link, Eigen::Vector3d center, double radius)
{
  return {std::move(name), link, ShapeKind::sphere, center, center, radius};
}

LinkShape capsule(std::string name, int link, Eigen::Vector3d start, Eigen::Vector3d end, double radius)
{
  return {std::move(name), link, ShapeKind::capsule, start, end, radius};
}

/// Three links: torso (0) with a sphere, upper arm (1) and forearm (2) with capsules.
std::vector<LinkShape> armShapes()
{
  return {sphere("torso", 0, {0, 0, 0.05}, 0.08), capsule("upperArm", 1, {0, 0, 0}, {0.1, 0, 0}, 0.03),
          capsule("foreArm", 2, {0, 0, 0}, {0.12, 0, 0}, 0.025), sphere("hand", 2, {0.14, 0, 0}, 0.03)};
}

std::string errorOf(int linkCount, std::vector<LinkShape> shapes, std::vector<ShapePair> pairs)
{
  try
  {
    BodyModel model(linkCount, std::move(shapes), std::move(pairs));
  }
  catch (const BodyModelError& error)
  {
    return error.what();
  }
  return "no error";
}

TEST(BodyModel, RejectsBadShapesAndPairsByName)
{
  std::vector<LinkShape> negative = armShapes();
  negative[1].radius = -0.01;
  EXPECT_THAT(errorOf(3, negative, {}), HasSubstr("'upperArm': radius"));
  std::vector<LinkShape> badLink = armShapes();
  badLink[2].link = 3;
  EXPECT_THAT(errorOf(3, badLink, {}), HasSubstr("'foreArm': link 3 is outside [0, 3)"));
  EXPECT_THAT(errorOf(3, armShapes(), {{0, 4}}), HasSubstr("pair ('torso', #4): no such shape"));
  EXPECT_THAT(errorOf(3, armShapes(), {{2, 2}}), HasSubstr("itself"));
  EXPECT_THAT(errorOf(3, armShapes(), {{0, 2}, {2, 0}}),
              HasSubstr("pair ('foreArm', 'torso'): listed twice"));
  EXPECT_EQ(errorOf(3, armShapes(), {{0, 2}, {0, 3}}), "no error");
}

TEST(BodyModel, PairsBetweenLinksSkipsSameLinkAndExcludedNeighbours)
{
  const std::vector<std::pair<int, int>> neighbours{{1, 0}, {1, 2}};
  const std::vector<ShapePair> pairs = pairsBetweenLinks(armShapes(), neighbours);
  ASSERT_EQ(pairs.size(), 2u); // torso with foreArm and hand; never foreArm with hand (same link)
  EXPECT_EQ(pairs[0].shapeA, 0);
  EXPECT_EQ(pairs[0].shapeB, 2);
  EXPECT_EQ(pairs[1].shapeA, 0);
  EXPECT_EQ(pairs[1].shapeB, 3);
  EXPECT_EQ(pairsBetweenLinks(armShapes(), {}).size(), 5u);
}

math::Pose randomPose(std::mt19937& random)
{
  std::uniform_real_distribution<double> any(-1.0, 1.0);
  const Eigen::Vector3d axis = Eigen::Vector3d(any(random), any(random), any(random)).normalized();
  return {math::rotationAboutAxis(axis, 3.0 * any(random)),
          0.2 * Eigen::Vector3d(any(random), any(random), any(random))};
}

TEST(BodyDistances, AgreeWithPrimitiveQueriesOnShapesMovedByHand)
{
  const std::vector<LinkShape> shapes = armShapes();
  const BodyModel model(3, shapes, pairsBetweenLinks(shapes, {}));
  BodyData data(model);
  std::mt19937 random(7);
  for (int trial = 0; trial < 200; ++trial)
  {
    const std::array<math::Pose, 3> poses{randomPose(random), randomPose(random), randomPose(random)};
    computeBodyDistances(model, data, poses);
    for (int i = 0; i < model.pairCount(); ++i)
    {
      const ShapePair& pair = model.pairs()[static_cast<std::size_t>(i)];
      const LinkShape& a = shapes[static_cast<std::size_t>(pair.shapeA)];
      const LinkShape& b = shapes[static_cast<std::size_t>(pair.shapeB)];
      const math::Pose& poseA = poses[static_cast<std::size_t>(a.link)];
      const math::Pose& poseB = poses[static_cast<std::size_t>(b.link)];
      // Every shape as a capsule (a sphere's core is a point): the capsule query covers all kinds.
      const Capsule movedA{poseA * a.start, poseA * (a.kind == ShapeKind::sphere ? a.start : a.end),
                           a.radius};
      const Capsule movedB{poseB * b.start, poseB * (b.kind == ShapeKind::sphere ? b.start : b.end),
                           b.radius};
      const ShapeDistance expected = capsuleCapsuleDistance(movedA, movedB);
      const ShapeDistance& actual = data.pairDistances[static_cast<std::size_t>(i)];
      EXPECT_NEAR(actual.distance, expected.distance, 1e-14);
      EXPECT_LE((actual.pointOnA - expected.pointOnA).norm(), 1e-14);
      EXPECT_LE((actual.pointOnB - expected.pointOnB).norm(), 1e-14);
      // Back in its link frame the witness point is `radius` from the shape's own core.
      const Eigen::Vector3d coreA = poseA.inverse() * (actual.pointOnA - a.radius * actual.normal);
      const Eigen::Vector3d axis = a.end - a.start;
      const double t = a.kind == ShapeKind::sphere
                           ? 0.0
                           : std::clamp(axis.dot(coreA - a.start) / axis.squaredNorm(), 0.0, 1.0);
      EXPECT_LE((a.start + t * axis - coreA).norm(), 1e-14);
    }
    const int closest = closestPair(data);
    for (const ShapeDistance& d : data.pairDistances)
      EXPECT_GE(d.distance, data.pairDistances[static_cast<std::size_t>(closest)].distance);
  }
}

TEST(BodyDistances, HandCaseArmTouchesTorso)
{
  // Upper arm capsule along x, 0.2 m above the torso sphere's centre: 0.2 - 0.08 - 0.03 = 0.09 m.
  const BodyModel model(3, armShapes(), {{0, 1}});
  BodyData data(model);
  std::array<math::Pose, 3> poses{};
  poses[1].translation = Eigen::Vector3d(-0.05, 0.0, 0.25);
  computeBodyDistances(model, data, poses);
  EXPECT_NEAR(data.pairDistances[0].distance, 0.09, 1e-15);
  EXPECT_TRUE(data.pairDistances[0].normal.isApprox(Eigen::Vector3d::UnitZ(), 1e-15));
  EXPECT_TRUE(data.pairDistances[0].pointOnB.isApprox(Eigen::Vector3d(0, 0, 0.22), 1e-15));
}

TEST(BodyDistances, TooFewLinkPosesIsAnError)
{
  const BodyModel model(3, armShapes(), {{0, 1}});
  BodyData data(model);
  const std::array<math::Pose, 2> poses{};
  EXPECT_THROW(computeBodyDistances(model, data, poses), std::invalid_argument);
  EXPECT_EQ(closestPair(BodyData(BodyModel(3, armShapes(), {}))), -1);
}
} // namespace
} // namespace nao::collision::test
