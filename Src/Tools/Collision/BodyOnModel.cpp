#include "Tools/Collision/BodyOnModel.h"

#include <algorithm>
#include <stdexcept>

namespace nao::collision
{
BodyOnModel bodyOnModel(const kinematics::Model& model, const BodyShapes& file)
{
  std::vector<int> modelLinks;
  const auto dense = [&](int modelLink)
  {
    const auto found = std::find(modelLinks.begin(), modelLinks.end(), modelLink);
    if (found != modelLinks.end()) return static_cast<int>(found - modelLinks.begin());
    modelLinks.push_back(modelLink);
    return static_cast<int>(modelLinks.size()) - 1;
  };
  std::vector<LinkShape> shapes;
  for (const BodyShapes::Shape& shape : file.shapes)
  {
    const int link = model.findLink(shape.link);
    if (link < 0)
      throw std::runtime_error(shape.where + ": shapes." + shape.name + ".link: no link '" + shape.link +
                               "' in the robot description");
    shapes.push_back({shape.name, dense(link), shape.kind, shape.start, shape.end, shape.radius});
  }
  std::vector<std::pair<int, int>> excluded;
  for (const BodyShapes::ExcludedPair& pair : file.excludedLinkPairs)
  {
    const int a = model.findLink(pair.linkA), b = model.findLink(pair.linkB);
    if (a < 0 || b < 0)
      throw std::runtime_error(pair.where + ": excludedLinkPairs: no link '" +
                               (a < 0 ? pair.linkA : pair.linkB) + "' in the robot description");
    const auto ia = std::find(modelLinks.begin(), modelLinks.end(), a);
    const auto ib = std::find(modelLinks.begin(), modelLinks.end(), b);
    if (ia == modelLinks.end() || ib == modelLinks.end())
      throw std::runtime_error(pair.where + ": excludedLinkPairs: link '" +
                               (ia == modelLinks.end() ? pair.linkA : pair.linkB) + "' carries no shape");
    excluded.emplace_back(static_cast<int>(ia - modelLinks.begin()),
                          static_cast<int>(ib - modelLinks.begin()));
  }
  std::vector<ShapePair> pairs = pairsBetweenLinks(shapes, excluded);
  const int linkCount = static_cast<int>(modelLinks.size());
  return {BodyModel(linkCount, std::move(shapes), std::move(pairs)), std::move(modelLinks)};
}
} // namespace nao::collision
