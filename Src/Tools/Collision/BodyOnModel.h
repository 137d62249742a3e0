#pragma once
// A body's self-collision shapes (BodyShapes, by link name) resolved against a kinematic model: the BodyModel
// whose links are numbered densely (only links that carry a shape get a pose each frame) and, per dense link, the
// model's link index. What every user of the shapes on the robot needs (SelfCollisionProvider, the Stack of Tasks'
// distance rows), written once.
#include "Tools/Collision/BodyShapes.h"
#include "Tools/Kinematics/Model.h"

#include <vector>

namespace nao::collision
{
struct BodyOnModel
{
  BodyModel body;
  std::vector<int> modelLinks; ///< dense link index (LinkShape::link) -> kinematics::Model link index
};

/// Throws std::runtime_error naming the file position of a shape whose link the model lacks, or of an excluded
/// pair naming a link that is missing or carries no shape; BodyModelError as BodyModel does.
BodyOnModel bodyOnModel(const kinematics::Model& model, const BodyShapes& shapes);
} // namespace nao::collision
