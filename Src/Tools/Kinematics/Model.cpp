#include "Tools/Kinematics/Model.h"

#include "Tools/Kinematics/ModelError.h"

namespace nao::kinematics
{
int Model::findLink(std::string_view linkName) const
{
  for (std::size_t i = 0; i < links_.size(); ++i)
    if (links_[i].name == linkName) return static_cast<int>(i);
  return -1;
}

int Model::findBodyOfJoint(std::string_view jointName) const
{
  for (std::size_t i = 1; i < bodies_.size(); ++i)
    if (bodies_[i].jointName == jointName) return static_cast<int>(i);
  return -1;
}

int Model::findCoordinate(std::string_view independentJointName) const
{
  for (std::size_t i = 0; i < coordinates_.size(); ++i)
    if (coordinates_[i].name == independentJointName) return static_cast<int>(i);
  return -1;
}

int Model::linkIndex(std::string_view linkName) const
{
  const int index = findLink(linkName);
  if (index < 0) throw ModelError("model '" + name_ + "' has no link '" + std::string(linkName) + "'");
  return index;
}

int Model::coordinateIndex(std::string_view independentJointName) const
{
  const int index = findCoordinate(independentJointName);
  if (index < 0)
    throw ModelError("model '" + name_ + "' has no independent joint '" + std::string(independentJointName) +
                     "'");
  return index;
}

bool Model::isAncestorOrSelf(int ancestor, int body) const
{
  // Parents have smaller indices, so the walk can stop as soon as it passes `ancestor`.
  while (body > ancestor)
    body = bodies_[static_cast<std::size_t>(body)].parent;
  return body == ancestor;
}
} // namespace nao::kinematics
