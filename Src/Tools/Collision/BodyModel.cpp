#include "Tools/Collision/BodyModel.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace nao::collision
{
namespace
{
PairKind pairKind(ShapeKind a, ShapeKind b)
{
  if (a == ShapeKind::sphere)
    return b == ShapeKind::sphere ? PairKind::sphereSphere : PairKind::sphereCapsule;
  return b == ShapeKind::sphere ? PairKind::capsuleSphere : PairKind::capsuleCapsule;
}

std::string pairName(const std::vector<LinkShape>& shapes, const ShapePair& pair)
{
  const auto name = [&](int index)
  {
    const bool exists = index >= 0 && index < static_cast<int>(shapes.size());
    return exists ? "'" + shapes[static_cast<std::size_t>(index)].name + "'" : "#" + std::to_string(index);
  };
  return "pair (" + name(pair.shapeA) + ", " + name(pair.shapeB) + ")";
}
} // namespace

BodyModel::BodyModel(int linkCount, std::vector<LinkShape> shapes, std::vector<ShapePair> pairs)
    : linkCount_(linkCount), shapes_(std::move(shapes)), pairs_(std::move(pairs))
{
  if (linkCount_ < 0) throw BodyModelError("body model: negative link count");
  for (const LinkShape& shape : shapes_)
  {
    if (!(std::isfinite(shape.radius) && shape.radius >= 0.0))
      throw BodyModelError("shape '" + shape.name + "': radius must be finite and >= 0 m");
    if (shape.link < 0 || shape.link >= linkCount_)
      throw BodyModelError("shape '" + shape.name + "': link " + std::to_string(shape.link) +
                           " is outside [0, " + std::to_string(linkCount_) + ")");
    if (!shape.start.allFinite() || !shape.end.allFinite())
      throw BodyModelError("shape '" + shape.name + "': points must be finite");
    preparedShapes_.push_back(shape.kind == ShapeKind::sphere
                                  ? prepareShape(Sphere{shape.start, shape.radius})
                                  : prepareShape(shape.start, shape.end, shape.radius));
  }
  std::set<std::pair<int, int>> seen;
  pairKinds_.reserve(pairs_.size());
  for (const ShapePair& pair : pairs_)
  {
    const auto valid = [&](int index) { return index >= 0 && index < shapeCount(); };
    if (!valid(pair.shapeA) || !valid(pair.shapeB))
      throw BodyModelError(pairName(shapes_, pair) + ": no such shape");
    if (pair.shapeA == pair.shapeB)
      throw BodyModelError(pairName(shapes_, pair) + ": a shape paired with itself");
    if (!seen.insert(std::minmax(pair.shapeA, pair.shapeB)).second)
      throw BodyModelError(pairName(shapes_, pair) + ": listed twice");
    const PairKind kind = pairKind(shapes_[static_cast<std::size_t>(pair.shapeA)].kind,
                                   shapes_[static_cast<std::size_t>(pair.shapeB)].kind);
    pairsOfKind_[static_cast<std::size_t>(kind)].push_back(
        {pair.shapeA, pair.shapeB, static_cast<int>(pairKinds_.size())});
    pairKinds_.push_back(kind);
  }
}

int BodyModel::shapeIndex(std::string_view name) const
{
  const auto found =
      std::find_if(shapes_.begin(), shapes_.end(), [&](const LinkShape& s) { return s.name == name; });
  return found == shapes_.end() ? -1 : static_cast<int>(found - shapes_.begin());
}

std::vector<ShapePair> pairsBetweenLinks(const std::vector<LinkShape>& shapes,
                                         std::span<const std::pair<int, int>> excludedLinkPairs)
{
  std::set<std::pair<int, int>> excluded;
  for (const auto& [first, second] : excludedLinkPairs)
    excluded.insert(std::minmax(first, second));
  std::vector<ShapePair> pairs;
  const int count = static_cast<int>(shapes.size());
  for (int a = 0; a < count; ++a)
    for (int b = a + 1; b < count; ++b)
    {
      const int linkA = shapes[static_cast<std::size_t>(a)].link;
      const int linkB = shapes[static_cast<std::size_t>(b)].link;
      if (linkA != linkB && !excluded.contains(std::minmax(linkA, linkB))) pairs.push_back({a, b});
    }
  return pairs;
}
} // namespace nao::collision
