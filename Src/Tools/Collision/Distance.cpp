// The rare cases of the distance queries, out of line (the common ones are in DistanceInline.h).
#include "Tools/Collision/Distance.h"

#include <Eigen/Geometry>
#include <algorithm>

namespace nao::collision
{
namespace detail
{
SegmentParameters closestParametersOfDegenerateCores(const PreparedShape& a, const PreparedShape& b)
{
  const bool aIsPoint = a.inverseSquaredLength == 0.0;
  const bool bIsPoint = b.inverseSquaredLength == 0.0;
  if (aIsPoint) return {0.0, closestParameter(a.start, b)};
  if (bIsPoint) return {closestParameter(b.start, a), 0.0};

  // Parallel axes. A(s) = a.start + s u, B(t) = b.start + t v. B's ends projected onto A's line: every s in
  // the overlap is equally close, and the middle of the overlap is a choice that does not jump when the
  // segments slide along each other.
  const Eigen::Vector3d& u = a.axis;
  const Eigen::Vector3d& v = b.axis;
  const Eigen::Vector3d w = a.start - b.start;
  const double uv = u.dot(v);
  const double uw = u.dot(w);
  const double vw = v.dot(w);
  const auto bestT = [&](double s) { return clampToUnit((vw + s * uv) * b.inverseSquaredLength); };
  const auto bestS = [&](double t) { return clampToUnit((t * uv - uw) * a.inverseSquaredLength); };
  const double sOfStartB = -uw * a.inverseSquaredLength;
  const double sOfEndB = (uv - uw) * a.inverseSquaredLength;
  const double overlapLow = std::max(0.0, std::min(sOfStartB, sOfEndB));
  const double overlapHigh = std::min(1.0, std::max(sOfStartB, sOfEndB));
  if (overlapLow <= overlapHigh)
  {
    const double s = 0.5 * (overlapLow + overlapHigh);
    return {s, bestT(s)};
  }
  // No overlap: the nearest end of A, then the nearest point of B to it, then back.
  const double endOfA = overlapHigh < 0.0 ? 0.0 : 1.0;
  const double t = bestT(endOfA);
  return {bestS(t), t};
}
} // namespace detail

Eigen::Vector3d anyPerpendicular(const Eigen::Vector3d& direction)
{
  const Eigen::Vector3d magnitude = direction.cwiseAbs();
  if (magnitude.maxCoeff() == 0.0) return Eigen::Vector3d::UnitX();
  Eigen::Index leastAligned = 0;
  magnitude.minCoeff(&leastAligned);
  return direction.cross(Eigen::Vector3d::Unit(leastAligned)).normalized();
}

Eigen::Vector3d crossingNormal(const Eigen::Vector3d& axisA, const Eigen::Vector3d& axisB)
{
  const double squaredLengthA = axisA.squaredNorm();
  const double squaredLengthB = axisB.squaredNorm();
  if (squaredLengthA <= detail::squaredCoincidence && squaredLengthB <= detail::squaredCoincidence)
    return Eigen::Vector3d::UnitX();
  const Eigen::Vector3d across = axisA.cross(axisB);
  const double squaredSineBound =
      parallelSineTolerance * parallelSineTolerance * squaredLengthA * squaredLengthB;
  if (across.squaredNorm() > squaredSineBound && across.squaredNorm() > 0.0) return across.normalized();
  return anyPerpendicular(squaredLengthA >= squaredLengthB ? axisA : axisB);
}
} // namespace nao::collision
