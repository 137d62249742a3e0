#include "Tools/Stiffness/Chain.h"

#include "Tools/Stiffness/StiffnessError.h"

#include <algorithm>

namespace nao::stiffness
{
namespace
{
using kinematics::Model;

std::string modelName(const Model& model)
{
  return "model '" + std::string(model.name()) + "'";
}

int linkOrThrow(const Model& model, std::string_view name, const char* role)
{
  const int index = model.findLink(name);
  if (index < 0)
    throw StiffnessError(modelName(model) + ": unknown link '" + std::string(name) + "' (the " + role +
                         " link)");
  return index;
}
} // namespace

Chain::Chain(const Model& model, std::string_view baseLink, std::string_view tipLink,
             const Eigen::Vector3d& pointInTip)
    : model_(&model), baseLink_(linkOrThrow(model, baseLink, "base")),
      tipLink_(linkOrThrow(model, tipLink, "tip")), pointInTip_(pointInTip)
{
  const int baseBody = model.link(baseLink_).body;
  const int tipBody = model.link(tipLink_).body;
  const std::string pair =
      "base link '" + std::string(baseLink) + "' and tip link '" + std::string(tipLink) + "'";
  if (!model.isAncestorOrSelf(baseBody, tipBody))
    throw StiffnessError(modelName(model) + ": base link '" + std::string(baseLink) +
                         "' is not an ancestor of tip link '" + std::string(tipLink) + "' (the path from '" +
                         std::string(tipLink) + "' to the root '" + model.link(0).name +
                         "' does not pass through it)");
  for (int body = tipBody; body != baseBody; body = model.body(body).parent)
  {
    const kinematics::Body& b = model.body(body);
    joints_.push_back({b.jointName, body, b.coordinate, b.multiplier, b.offset, b.type});
  }
  if (joints_.empty())
    throw StiffnessError(modelName(model) + ": no moving joint between " + pair +
                         " (they are rigidly attached to each other)");
  std::reverse(joints_.begin(), joints_.end());

  for (const ChainJoint& joint : joints_)
  {
    if (joint.multiplier == 0.0)
      throw StiffnessError(modelName(model) + ": chain joint '" + joint.name +
                           "' is a <mimic> with multiplier 0; its value cannot be set");
    // Every other body driven by the same coordinate must be off the chain and not above the base.
    for (int other = 1; other < model.bodyCount(); ++other)
    {
      if (other == joint.body || model.body(other).coordinate != joint.coordinate) continue;
      const std::string otherName = model.body(other).jointName;
      if (findJoint(otherName) >= 0)
        throw StiffnessError(modelName(model) + ": chain joints '" + joint.name + "' and '" + otherName +
                             "' are coupled by a <mimic>; the joints between " + pair +
                             " must be independent");
      if (model.isAncestorOrSelf(other, baseBody))
        throw StiffnessError(modelName(model) + ": joint '" + otherName + "' above base link '" +
                             std::string(baseLink) + "' is coupled by a <mimic> to chain joint '" +
                             joint.name + "', so the chain would move its own base");
    }
  }
}

int Chain::findJoint(std::string_view jointName) const
{
  for (std::size_t i = 0; i < joints_.size(); ++i)
    if (joints_[i].name == jointName) return static_cast<int>(i);
  return -1;
}

std::string Chain::jointNames() const
{
  std::string names;
  for (const ChainJoint& joint : joints_)
    names += (names.empty() ? "" : ", ") + joint.name;
  return names;
}

const std::string& Chain::baseLinkName() const
{
  return model_->link(baseLink_).name;
}

const std::string& Chain::tipLinkName() const
{
  return model_->link(tipLink_).name;
}
} // namespace nao::stiffness
