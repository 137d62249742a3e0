#include "Tools/Collision/BodyDistances.h"
#include "Tools/Collision/Distance.h"

#include <stdexcept>

namespace nao::collision
{

BodyData::BodyData(const BodyModel& model)
    : shapesInFrame(static_cast<std::size_t>(model.shapeCount())),
      pairDistances(static_cast<std::size_t>(model.pairCount()))
{
}

void updateShapePoses(const BodyModel& model, BodyData& data, std::span<const math::Pose> linkPoses)
{
  if (linkPoses.size() < static_cast<std::size_t>(model.linkCount()))
    throw std::invalid_argument("updateShapePoses: fewer link poses than the body model's links");
  const std::vector<LinkShape>& shapes = model.shapes();
  const std::vector<PreparedShape>& inLink = model.preparedShapes();
  for (std::size_t i = 0; i < shapes.size(); ++i)
  {
    const math::Pose& pose = linkPoses[static_cast<std::size_t>(shapes[i].link)];
    PreparedShape& placed = data.shapesInFrame[i];
    placed.start = pose * inLink[i].start;
    placed.axis.noalias() = pose.rotation * inLink[i].axis; // a rigid motion keeps the inverse squared length
    placed.radius = inLink[i].radius;
    placed.inverseSquaredLength = inLink[i].inverseSquaredLength;
  }
}

void computePairDistances(const BodyModel& model, BodyData& data)
{
  // One kind after the other, so that the query is known inside each loop.
  const auto forPairsOf = [&](PairKind kind, const auto& query)
  {
    for (const BodyModel::IndexedPair& pair : model.pairsOfKind(kind))
      query(data.shapesInFrame[static_cast<std::size_t>(pair.shapeA)],
            data.shapesInFrame[static_cast<std::size_t>(pair.shapeB)],
            data.pairDistances[static_cast<std::size_t>(pair.pair)]);
  };
  using Shape = const PreparedShape&;
  forPairsOf(PairKind::sphereSphere,
             [](Shape a, Shape b, ShapeDistance& r) { sphereSphereDistance(a, b, r); });
  forPairsOf(PairKind::sphereCapsule,
             [](Shape a, Shape b, ShapeDistance& r) { sphereCapsuleDistance(a, b, r); });
  forPairsOf(PairKind::capsuleSphere,
             [](Shape a, Shape b, ShapeDistance& r) { capsuleSphereDistance(a, b, r); });
  forPairsOf(PairKind::capsuleCapsule,
             [](Shape a, Shape b, ShapeDistance& r) { capsuleCapsuleDistance(a, b, r); });
}

void computeBodyDistances(const BodyModel& model, BodyData& data, std::span<const math::Pose> linkPoses)
{
  updateShapePoses(model, data, linkPoses);
  computePairDistances(model, data);
}

int closestPair(const BodyData& data)
{
  int closest = -1;
  for (std::size_t i = 0; i < data.pairDistances.size(); ++i)
    if (closest < 0 ||
        data.pairDistances[i].distance < data.pairDistances[static_cast<std::size_t>(closest)].distance)
      closest = static_cast<int>(i);
  return closest;
}
} // namespace nao::collision
