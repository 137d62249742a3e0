#pragma once
// The self-collision model of a body: spheres and capsules fixed to links, and the list of shape pairs to
// check. Immutable after construction; the per-frame results live in BodyData (BodyDistances.h).
//
// Links are plain indices into the caller's array of link poses (for the NAO: nao::kinematics::Model's links,
// as in Data::linkPoses), so this library knows nothing of a robot. Which pairs to check is the caller's
// choice: neighbours that always touch (upper arm and shoulder) must be left out, or they would always
// collide.
#include "Tools/Collision/Distance.h"

#include <Eigen/Core>
#include <array>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nao::collision
{
/// A body model that cannot be used; the message names the shape or pair.
class BodyModelError : public std::invalid_argument
{
public:
  explicit BodyModelError(const std::string& message) : std::invalid_argument(message) {}
};

enum class ShapeKind
{
  sphere,
  capsule
};

/// A shape fixed to a link, given in the link frame.
struct LinkShape
{
  std::string name; ///< for messages, configuration and plots
  int link = 0;     ///< index into the link poses passed to updateShapePoses()
  ShapeKind kind = ShapeKind::sphere;
  Eigen::Vector3d start = Eigen::Vector3d::Zero(); ///< m, link frame: sphere centre or capsule axis start
  Eigen::Vector3d end = Eigen::Vector3d::Zero();   ///< m, link frame: capsule axis end (unused by spheres)
  double radius = 0.0;                             ///< m
};

/// Two shapes (indices into BodyModel::shapes()) whose distance is computed; A and B as in ShapeDistance.
struct ShapePair
{
  int shapeA = 0;
  int shapeB = 0;
};

/// Which primitive query a pair needs, decided once at construction.
enum class PairKind
{
  sphereSphere,
  sphereCapsule,
  capsuleSphere,
  capsuleCapsule
};

class BodyModel
{
public:
  /// Throws BodyModelError if a radius is negative or not finite, a link index is outside [0, linkCount), a
  /// pair names a missing shape, pairs a shape with itself, or is listed twice (in either order).
  BodyModel(int linkCount, std::vector<LinkShape> shapes, std::vector<ShapePair> pairs);

  int linkCount() const { return linkCount_; }
  int shapeCount() const { return static_cast<int>(shapes_.size()); }
  int pairCount() const { return static_cast<int>(pairs_.size()); }
  const std::vector<LinkShape>& shapes() const { return shapes_; }
  /// Per shape, in its link frame, prepared for queries (axis and inverse squared length computed once).
  const std::vector<PreparedShape>& preparedShapes() const { return preparedShapes_; }
  const std::vector<ShapePair>& pairs() const { return pairs_; }
  const std::vector<PairKind>& pairKinds() const { return pairKinds_; }
  /// A pair with its index in pairs().
  struct IndexedPair
  {
    int shapeA;
    int shapeB;
    int pair;
  };
  /// The pairs of one kind, in pair order: computePairDistances() runs the kinds one after the other, so that
  /// the branch on the kind is predictable.
  const std::vector<IndexedPair>& pairsOfKind(PairKind kind) const
  {
    return pairsOfKind_[static_cast<std::size_t>(kind)];
  }

  /// Index of the shape called `name`, or -1.
  int shapeIndex(std::string_view name) const;

private:
  int linkCount_;
  std::vector<LinkShape> shapes_;
  std::vector<PreparedShape> preparedShapes_;
  std::vector<ShapePair> pairs_;
  std::vector<PairKind> pairKinds_;
  std::array<std::vector<IndexedPair>, 4> pairsOfKind_;
};

/// Every pair of shapes on different links, except pairs whose links are listed in `excludedLinkPairs`
/// (either order), in the order of the shapes. The usual way to build the pair list: exclude neighbours that
/// touch.
std::vector<ShapePair> pairsBetweenLinks(const std::vector<LinkShape>& shapes,
                                         std::span<const std::pair<int, int>> excludedLinkPairs);
} // namespace nao::collision
