#pragma once
// Random capsule pairs for the reference tests, in families that cover every degenerate case, and a reference
// distance that knows nothing of the library's closed forms.
#include "Tools/Collision/Shapes.h"
#include "Tools/Streams/Enum.h"

#include <Eigen/Geometry>
#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <string_view>

namespace nao::collision::test
{
NAO_ENUM(PairFamily, std::uint8_t,
         general,        ///< anywhere in a 0.4 m box, any length and radius
         parallel,       ///< same direction, sideways offset, overlapping or not
         antiParallel,   ///< opposite directions
         collinear,      ///< on one line: overlapping (cores coincide) or end to end
         nearlyParallel, ///< angle between 1e-10 and 1e-4 rad
         zeroLength,     ///< one or both cores are points
         crossing,       ///< the axes intersect (core distance 0)
         touching,       ///< built to touch: signed distance 0 by construction
         penetrating,    ///< built to penetrate by a known depth
);

inline constexpr std::array allPairFamilies{
    PairFamily::general,   PairFamily::parallel,       PairFamily::antiParallel,
    PairFamily::collinear, PairFamily::nearlyParallel, PairFamily::zeroLength,
    PairFamily::crossing,  PairFamily::touching,       PairFamily::penetrating};
static_assert(allPairFamilies.size() == streams::enumCount<PairFamily>, "every family once");

struct CapsulePair
{
  Capsule a;
  Capsule b;
  double constructedDistance =
      std::nan(""); ///< m, the signed distance a touching or penetrating pair was built with
};

class PairGenerator
{
public:
  explicit PairGenerator(unsigned seed) : random_(seed) {}

  double uniform(double low, double high)
  {
    return std::uniform_real_distribution<double>(low, high)(random_);
  }
  Eigen::Vector3d point(double halfSize)
  {
    return {uniform(-halfSize, halfSize), uniform(-halfSize, halfSize), uniform(-halfSize, halfSize)};
  }
  Eigen::Vector3d direction()
  {
    Eigen::Vector3d d;
    do
      d = point(1.0);
    while (d.norm() < 0.1 || d.norm() > 1.0);
    return d.normalized();
  }
  Eigen::Vector3d anyDirectionPerpendicularTo(const Eigen::Vector3d& n)
  {
    Eigen::Vector3d across;
    do
      across = direction().cross(n);
    while (across.norm() < 0.1);
    return across.normalized();
  }
  Capsule capsule(const Eigen::Vector3d& start, const Eigen::Vector3d& axis)
  {
    return {start, start + axis, uniform(0.0, 0.05)};
  }

  CapsulePair make(PairFamily family)
  {
    switch (family)
    {
    case PairFamily::general:
      return {capsule(point(0.2), uniform(0.0, 0.2) * direction()),
              capsule(point(0.2), uniform(0.0, 0.2) * direction())};
    case PairFamily::parallel:
    case PairFamily::antiParallel:
    {
      const Eigen::Vector3d axis = direction();
      const double sign = family == PairFamily::parallel ? 1.0 : -1.0;
      const Capsule a = capsule(point(0.1), uniform(0.01, 0.2) * axis);
      return {a, capsule(a.start + point(0.15), sign * uniform(0.01, 0.2) * axis)};
    }
    case PairFamily::collinear:
    {
      const Eigen::Vector3d axis = direction();
      const Capsule a = capsule(point(0.1), uniform(0.01, 0.2) * axis);
      const double sign = uniform(0.0, 1.0) < 0.5 ? 1.0 : -1.0;
      return {a, capsule(a.start + uniform(-0.3, 0.3) * axis, sign * uniform(0.01, 0.2) * axis)};
    }
    case PairFamily::nearlyParallel:
    {
      const Eigen::Vector3d axis = direction();
      const double angle = std::pow(10.0, uniform(-10.0, -4.0));
      const Eigen::Vector3d tilted = Eigen::AngleAxisd(angle, axis.cross(direction()).normalized()) * axis;
      const Capsule a = capsule(point(0.1), uniform(0.01, 0.2) * axis);
      return {a, capsule(a.start + point(0.15), uniform(0.01, 0.2) * tilted)};
    }
    case PairFamily::zeroLength:
    {
      const bool both = uniform(0.0, 1.0) < 0.3;
      const Capsule a = capsule(point(0.2), Eigen::Vector3d::Zero());
      return {a, capsule(point(0.2),
                         both ? Eigen::Vector3d::Zero() : Eigen::Vector3d(uniform(0.0, 0.2) * direction()))};
    }
    case PairFamily::crossing:
    {
      const Capsule a = capsule(point(0.1), uniform(0.01, 0.2) * direction());
      const Eigen::Vector3d through = a.start + uniform(0.0, 1.0) * (a.end - a.start);
      const Eigen::Vector3d axis = uniform(0.01, 0.2) * direction();
      return {a, capsule(through - uniform(0.0, 1.0) * axis, axis)};
    }
    case PairFamily::touching:
    case PairFamily::penetrating:
    {
      // Two axes perpendicular to a normal n, in planes whose gap along n is known, crossing when seen along
      // n: the cores are closest at the crossing, so the signed distance is gap - radiusA - radiusB exactly.
      const Eigen::Vector3d n = direction();
      const double radiusA = uniform(0.01, 0.1), radiusB = uniform(0.01, 0.1);
      const double gap =
          family == PairFamily::touching ? radiusA + radiusB : uniform(0.0, 0.95) * (radiusA + radiusB);
      const Eigen::Vector3d coreA = point(0.1);
      const auto across = [&](const Eigen::Vector3d& core, double radius)
      {
        const Eigen::Vector3d axis = uniform(0.01, 0.2) * anyDirectionPerpendicularTo(n);
        return Capsule{core - uniform(0.0, 1.0) * axis, core + uniform(0.0, 1.0) * axis, radius};
      };
      return {across(coreA, radiusA), across(coreA + gap * n, radiusB), gap - radiusA - radiusB};
    }
    }
    return {};
  }

private:
  std::mt19937 random_;
};

/// Reference core distance: nested ternary searches over the segment parameters s and t (the squared distance
/// of A(s) and B(t) is jointly convex, so its minimum over t is convex in s). It samples |A(s) - B(t)| and
/// uses no closed form of the library.
inline double referenceCoreDistance(const Capsule& a, const Capsule& b)
{
  const auto onA = [&](double s) -> Eigen::Vector3d { return a.start + s * (a.end - a.start); };
  const auto onB = [&](double t) -> Eigen::Vector3d { return b.start + t * (b.end - b.start); };
  const auto minimise = [](const auto& f)
  {
    double low = 0.0, high = 1.0;
    for (int i = 0; i < 90; ++i)
    {
      const double m1 = low + (high - low) / 3.0, m2 = high - (high - low) / 3.0;
      if (f(m1) <= f(m2))
        high = m2;
      else
        low = m1;
    }
    const double middle = 0.5 * (low + high);
    return std::min({f(0.0), f(1.0), f(middle)});
  };
  const auto bestOverT = [&](double s)
  {
    const Eigen::Vector3d p = onA(s);
    return minimise([&](double t) { return (onB(t) - p).squaredNorm(); });
  };
  return std::sqrt(minimise(bestOverT));
}
} // namespace nao::collision::test
