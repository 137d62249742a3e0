#pragma once
// The two shapes of the self-collision model and the result of a distance query between two of them.
//
// Units: m. A shape is given in whatever frame the caller uses (a link frame in BodyModel, the base frame
// after updateShapePoses()); a distance query needs both shapes in the same frame and answers in that frame.
#include <Eigen/Core>

namespace nao::collision
{
/// All points within `radius` of `center`.
struct Sphere
{
  Eigen::Vector3d center = Eigen::Vector3d::Zero(); ///< m
  double radius = 0.0;                              ///< m, >= 0
};

/// All points within `radius` of the segment from `start` to `end` (a cylinder capped by two half spheres).
/// start == end is allowed and is a sphere.
struct Capsule
{
  Eigen::Vector3d start = Eigen::Vector3d::Zero(); ///< m, one end of the axis segment
  Eigen::Vector3d end = Eigen::Vector3d::Zero();   ///< m, the other end
  double radius = 0.0;                             ///< m, >= 0
};

/// Signed distance between shapes A and B with witness points and the direction that separates them.
///
/// Let cA, cB be the closest points of the two cores (sphere centre or capsule axis segment). Then
///   normal   = (cB - cA) / |cB - cA|   (unit, points from A towards B)
///   distance = |cB - cA| - radiusA - radiusB
///   pointOnA = cA + radiusA * normal,  pointOnB = cB - radiusB * normal,
/// so pointOnB - pointOnA = distance * normal. distance < 0 is penetration: |distance| is the penetration
/// depth, the shortest translation of B along `normal` (or of A against it) that makes the shapes touch, and
/// each witness point then lies inside the other shape. Moving B by a small step along `normal` increases the
/// distance by that step.
///
/// When the cores touch or cross (|cB - cA| <= coreCoincidenceTolerance) the direction is not defined by
/// them; a deterministic unit vector is chosen instead (see the query functions), and the formulas above
/// still hold.
struct ShapeDistance
{
  double distance = 0.0;                              ///< m, < 0 when the shapes penetrate
  Eigen::Vector3d pointOnA = Eigen::Vector3d::Zero(); ///< m, on the surface of A
  Eigen::Vector3d pointOnB = Eigen::Vector3d::Zero(); ///< m, on the surface of B
  Eigen::Vector3d normal = Eigen::Vector3d::UnitX();  ///< unit, from A towards B
};

/// m: core points closer than this count as coincident (far above the rounding of robot-sized coordinates,
/// about 1e-16 m, and far below any meaningful distance).
inline constexpr double coreCoincidenceTolerance = 1e-12;
} // namespace nao::collision
