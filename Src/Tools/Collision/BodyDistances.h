#pragma once
// Per-frame distances of every shape pair of a BodyModel, into preallocated BodyData: nothing allocates after
// BodyData(model) (checked by CollisionAllocationTests).
//
// Frame: the link poses are given in one common frame, usually the base (torso) frame of
// nao::kinematics::Data::linkPoses, and every result is in that frame.
//
// For a velocity damper the caller needs each witness point in its link frame, to ask for its Jacobian:
// linkPoses[shape.link].inverse() * distance.pointOnA (and likewise for B).
#include "Tools/Collision/BodyModel.h"
#include "Tools/Math/Pose.h"

#include <span>
#include <vector>

namespace nao::collision
{
struct BodyData
{
  explicit BodyData(const BodyModel& model);

  /// Per shape, in the common frame; a sphere has a zero axis.
  std::vector<PreparedShape> shapesInFrame;
  /// Per pair (index as in BodyModel::pairs()): signed distance, witness points and normal from A towards B.
  std::vector<ShapeDistance> pairDistances;
};

/// Moves every shape into the common frame of `linkPoses` (size >= model.linkCount(), else
/// std::invalid_argument).
void updateShapePoses(const BodyModel& model, BodyData& data, std::span<const math::Pose> linkPoses);

/// Signed distance of every pair from the shapes of the last updateShapePoses().
void computePairDistances(const BodyModel& model, BodyData& data);

/// updateShapePoses() then computePairDistances().
void computeBodyDistances(const BodyModel& model, BodyData& data, std::span<const math::Pose> linkPoses);

/// Index of the pair with the smallest signed distance, or -1 for a model without pairs.
int closestPair(const BodyData& data);
} // namespace nao::collision
