#pragma once
// Exact signed distances between spheres and capsules (conventions: Shapes.h).
//
// Every query reduces to the closest points of the two cores (a point or a segment each) and subtracts the
// radii. This is exact, also when the shapes penetrate: a capsule is a segment grown by its radius, so the
// shortest translation that separates two of them is along the line between the closest core points (or, when
// the cores cross, perpendicular to both) and has length radiusA + radiusB - |cB - cA|.
//
// Degenerate cores are handled explicitly:
// - zero-length capsule (|end - start| <= coreCoincidenceTolerance): treated as a sphere at `start`;
// - parallel, anti-parallel and collinear axes (sine of the angle <= parallelSineTolerance): the witness
// points
//   are taken at the middle of the overlap of the two axes (or at the nearest ends when they do not overlap),
//   a stable choice among the equally close pairs;
// - coincident core points (crossing axes, a sphere centre on an axis, equal centres): see crossingNormal()
//   and anyPerpendicular() for the normal chosen.
#include "Tools/Collision/Shapes.h"

namespace nao::collision
{
/// Axes whose angle has a sine at or below this count as parallel (the direction error this allows moves a
/// witness point along the axis and changes the distance by at most length * 1e-12).
inline constexpr double parallelSineTolerance = 1e-12;

/// Parameters of the closest points start + s * (end - start) of two segments, s and t in [0, 1].
struct SegmentParameters
{
  double s = 0.0; ///< on the first segment
  double t = 0.0; ///< on the second segment
};

/// A sphere or capsule prepared for repeated queries: the axis and its inverse squared length are computed
/// once (a rigid motion keeps the length), which saves a division per capsule in every query. A sphere is a
/// core of zero length.
struct PreparedShape
{
  Eigen::Vector3d start = Eigen::Vector3d::Zero(); ///< m: sphere centre or capsule axis start
  Eigen::Vector3d axis = Eigen::Vector3d::Zero();  ///< m: capsule end - start; zero for a sphere
  double radius = 0.0;                             ///< m
  double inverseSquaredLength = 0.0; ///< 1/m^2: 1 / |axis|^2; 0 for a sphere or a zero-length capsule

  Eigen::Vector3d end() const { return start + axis; }
};

PreparedShape prepareShape(const Sphere& sphere);
PreparedShape prepareShape(const Capsule& capsule);
/// start and end in m; end == start is a sphere.
PreparedShape prepareShape(const Eigen::Vector3d& start, const Eigen::Vector3d& end, double radius);

/// Parameter in [0, 1] of the point of segment (start, end) closest to `point`.
double closestSegmentParameter(const Eigen::Vector3d& point, const Eigen::Vector3d& start,
                               const Eigen::Vector3d& end);

/// Closest points of segment (startA, endA) and segment (startB, endB); see the header comment for parallel
/// and zero-length segments.
SegmentParameters closestSegmentParameters(const Eigen::Vector3d& startA, const Eigen::Vector3d& endA,
                                           const Eigen::Vector3d& startB, const Eigen::Vector3d& endB);

/// A unit vector perpendicular to `direction` (deterministic: `direction` crossed with the coordinate axis it
/// is least aligned with); +x for a zero vector. The normal when a sphere centre lies on a capsule axis.
Eigen::Vector3d anyPerpendicular(const Eigen::Vector3d& direction);

/// The normal of two capsules whose cores touch or cross: normalize(axisA x axisB), or anyPerpendicular() of
/// the longer axis when they are parallel or one is a point, or +x when both are points (also for two
/// concentric spheres).
Eigen::Vector3d crossingNormal(const Eigen::Vector3d& axisA, const Eigen::Vector3d& axisB);

ShapeDistance sphereSphereDistance(const Sphere& a, const Sphere& b);
ShapeDistance sphereCapsuleDistance(const Sphere& a, const Capsule& b);
ShapeDistance capsuleSphereDistance(const Capsule& a, const Sphere& b);
ShapeDistance capsuleCapsuleDistance(const Capsule& a, const Capsule& b);

/// The same queries on prepared shapes, writing into `result` (for loops over many pairs). Which one applies
/// is the caller's knowledge: a sphere's axis is ignored by the sphere queries.
void sphereSphereDistance(const PreparedShape& a, const PreparedShape& b, ShapeDistance& result);
void sphereCapsuleDistance(const PreparedShape& a, const PreparedShape& b, ShapeDistance& result);
void capsuleSphereDistance(const PreparedShape& a, const PreparedShape& b, ShapeDistance& result);
void capsuleCapsuleDistance(const PreparedShape& a, const PreparedShape& b, ShapeDistance& result);
} // namespace nao::collision

// Definitions of the hot queries, inline so that a loop over many pairs (BodyDistances) can overlap them.
#include "Tools/Collision/DistanceInline.h"
