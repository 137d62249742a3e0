#pragma once
// Inline definitions of the queries declared in Distance.h (include that header, not this one). Inlining them
// into the loop over a body's pairs lets the processor overlap the square roots and divisions of consecutive
// pairs; the rare cases (parallel axes, zero-length cores, coincident cores) stay out of line in
// Distance.cpp.
#include "Tools/Collision/Distance.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#if 0
#include <emmintrin.h>
#endif

namespace nao::collision
{
namespace detail
{
inline constexpr double squaredCoincidence = coreCoincidenceTolerance * coreCoincidenceTolerance;

/// Into [0, 1]. (Branch-free SSE min/max was measured slower on the 40-pair NAO set: its branches are mostly
/// predictable.)
inline double clampToUnit(double value)
{
  return std::min(std::max(value, 0.0), 1.0);
}

/// closestParameters() when the axes are within parallelSineTolerance of parallel or a core is a point.
SegmentParameters closestParametersOfDegenerateCores(const PreparedShape& a, const PreparedShape& b);

/// Parameter of the point of `segment` closest to `point` (0 for a point-like core, whose inverse squared
/// length is 0).
inline double closestParameter(const Eigen::Vector3d& point, const PreparedShape& segment)
{
  return clampToUnit(segment.axis.dot(point - segment.start) * segment.inverseSquaredLength);
}

inline SegmentParameters closestParameters(const PreparedShape& a, const PreparedShape& b)
{
  // A(s) = a.start + s u, B(t) = b.start + t v; |A(s) - B(t)|^2 is a convex quadratic in (s, t).
  const Eigen::Vector3d& u = a.axis;
  const Eigen::Vector3d& v = b.axis;
  const Eigen::Vector3d w = a.start - b.start;
  const Eigen::Vector3d normal = u.cross(v);
  // |normal|^2 = |u|^2 |v|^2 sin^2(angle); a point-like core has inverse squared length 0 and lands here too.
  const double squaredNormal = normal.squaredNorm();
  if (squaredNormal * a.inverseSquaredLength * b.inverseSquaredLength <=
      parallelSineTolerance * parallelSineTolerance) [[unlikely]]
    return closestParametersOfDegenerateCores(a, b);

  // Closest points of the two lines; the cross-product form avoids the cancellation of uu*vv - (u.v)^2. If
  // the line optimum lies outside the square, the optimum over the square lies on the nearest edge, so
  // clamping s, then the best t for it, then (if t was clamped) the best s for that t, is exact.
  const double uv = u.dot(v);
  const double s = clampToUnit(normal.dot(v.cross(w)) / squaredNormal);
  const double unclampedT = (v.dot(w) + s * uv) * b.inverseSquaredLength;
  const double t = clampToUnit(unclampedT);
  const double sForT = clampToUnit((t * uv - u.dot(w)) * a.inverseSquaredLength);
  return {t == unclampedT ? s : sForT, t};
}

/// Grows the closest core points cA, cB by the radii (Shapes.h) into `result`; `fallbackNormal()` gives the
/// normal when the core points coincide (called only then).
template<typename FallbackNormal>
void fromCorePoints(const Eigen::Vector3d& coreA, const Eigen::Vector3d& coreB, double radiusA,
                    double radiusB, const FallbackNormal& fallbackNormal, ShapeDistance& result)
{
  const Eigen::Vector3d between = coreB - coreA;
  const double squaredCoreDistance = between.squaredNorm();
  double coreDistance = 0.0;
  if (squaredCoreDistance > squaredCoincidence) [[likely]]
  {
    coreDistance = std::sqrt(squaredCoreDistance);
    result.normal = between * (1.0 / coreDistance); // one division instead of three
  }
  else
    result.normal = fallbackNormal();
  result.distance = coreDistance - radiusA - radiusB;
  result.pointOnA = coreA + radiusA * result.normal;
  result.pointOnB = coreB - radiusB * result.normal;
}
} // namespace detail

inline PreparedShape prepareShape(const Eigen::Vector3d& start, const Eigen::Vector3d& end, double radius)
{
  const Eigen::Vector3d axis = end - start;
  const double squaredLength = axis.squaredNorm();
  return {start, axis, radius, squaredLength > detail::squaredCoincidence ? 1.0 / squaredLength : 0.0};
}

inline PreparedShape prepareShape(const Sphere& sphere)
{
  return {sphere.center, Eigen::Vector3d::Zero(), sphere.radius, 0.0};
}

inline PreparedShape prepareShape(const Capsule& capsule)
{
  return prepareShape(capsule.start, capsule.end, capsule.radius);
}

inline double closestSegmentParameter(const Eigen::Vector3d& point, const Eigen::Vector3d& start,
                                      const Eigen::Vector3d& end)
{
  return detail::closestParameter(point, prepareShape(start, end, 0.0));
}

inline SegmentParameters closestSegmentParameters(const Eigen::Vector3d& startA, const Eigen::Vector3d& endA,
                                                  const Eigen::Vector3d& startB, const Eigen::Vector3d& endB)
{
  return detail::closestParameters(prepareShape(startA, endA, 0.0), prepareShape(startB, endB, 0.0));
}

inline void sphereSphereDistance(const PreparedShape& a, const PreparedShape& b, ShapeDistance& result)
{
  detail::fromCorePoints(
      a.start, b.start, a.radius, b.radius, [] { return Eigen::Vector3d::UnitX(); }, result);
}

inline void sphereCapsuleDistance(const PreparedShape& a, const PreparedShape& b, ShapeDistance& result)
{
  const double t = detail::closestParameter(a.start, b);
  detail::fromCorePoints(
      a.start, b.start + t * b.axis, a.radius, b.radius, [&] { return anyPerpendicular(b.axis); }, result);
}

inline void capsuleSphereDistance(const PreparedShape& a, const PreparedShape& b, ShapeDistance& result)
{
  const double s = detail::closestParameter(b.start, a);
  detail::fromCorePoints(
      a.start + s * a.axis, b.start, a.radius, b.radius, [&] { return anyPerpendicular(a.axis); }, result);
}

inline void capsuleCapsuleDistance(const PreparedShape& a, const PreparedShape& b, ShapeDistance& result)
{
  const SegmentParameters closest = detail::closestParameters(a, b);
  detail::fromCorePoints(
      a.start + closest.s * a.axis, b.start + closest.t * b.axis, a.radius, b.radius,
      [&] { return crossingNormal(a.axis, b.axis); }, result);
}

inline ShapeDistance sphereSphereDistance(const Sphere& a, const Sphere& b)
{
  ShapeDistance result;
  sphereSphereDistance(prepareShape(a), prepareShape(b), result);
  return result;
}

inline ShapeDistance sphereCapsuleDistance(const Sphere& a, const Capsule& b)
{
  ShapeDistance result;
  sphereCapsuleDistance(prepareShape(a), prepareShape(b), result);
  return result;
}

inline ShapeDistance capsuleSphereDistance(const Capsule& a, const Sphere& b)
{
  ShapeDistance result;
  capsuleSphereDistance(prepareShape(a), prepareShape(b), result);
  return result;
}

inline ShapeDistance capsuleCapsuleDistance(const Capsule& a, const Capsule& b)
{
  ShapeDistance result;
  capsuleCapsuleDistance(prepareShape(a), prepareShape(b), result);
  return result;
}
} // namespace nao::collision
