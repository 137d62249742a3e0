#include "Tools/Kinematics/Jit/Layout.h"

#include "Tools/Kinematics/Jit/SinCos.h"
#include "Tools/Kinematics/ModelError.h"

#include <algorithm>

namespace nao::kinematics::jit
{
namespace
{
std::size_t roundUp(std::size_t value, std::size_t multiple)
{
  return (value + multiple - 1) / multiple * multiple;
}

int axisColumn(AxisKind kind)
{
  return kind == AxisKind::x ? 0 : kind == AxisKind::y ? 1 : 2;
}
} // namespace

Layout::Layout(const Model& model, std::span<const int> contactLinkIndices)
    : contactLinks(contactLinkIndices.begin(), contactLinkIndices.end())
{
  if (contactLinks.size() > 64) throw ModelError("the JIT supports at most 64 contact links");
  assignAngleSlots(model);
  assignContactSets(model);
  allocateBlocks(model);
  buildJacobianPaths(model);
}

void Layout::assignAngleSlots(const Model& model)
{
  const std::size_t bodies = static_cast<std::size_t>(model.bodyCount());
  bodyAngleSlot.assign(bodies, -1);
  for (std::size_t i = 1; i < bodies; ++i)
  {
    const Body& body = model.body(static_cast<int>(i));
    if (body.type != JointType::revolute) continue;
    if (body.sameAngleAs >= 0 && bodyAngleSlot[static_cast<std::size_t>(body.sameAngleAs)] >= 0)
      bodyAngleSlot[i] = bodyAngleSlot[static_cast<std::size_t>(body.sameAngleAs)];
    else
    {
      bodyAngleSlot[i] = static_cast<int>(angleCoordinates.size());
      angleCoordinates.push_back(body.coordinate);
      angleMultipliers.push_back(body.multiplier);
      angleOffsets.push_back(body.offset);
    }
  }
  angleCount = angleCoordinates.size();
  angleCapacity = roundUp(std::max<std::size_t>(angleCount, 1), sinCosBatch);
  angleCoordinates.resize(angleCapacity, 0);
  angleMultipliers.resize(angleCapacity, 0.0);
  angleOffsets.resize(angleCapacity, 0.0);
}

void Layout::assignContactSets(const Model& model)
{
  const std::size_t bodies = static_cast<std::size_t>(model.bodyCount());
  bodyContactSet.assign(bodies, -1);
  for (std::size_t i = 1; i < bodies; ++i)
  {
    std::uint64_t mask = 0;
    for (std::size_t c = 0; c < contactLinks.size(); ++c)
      if (model.isAncestorOrSelf(static_cast<int>(i), model.link(contactLinks[c]).body))
        mask |= std::uint64_t{1} << c;
    if (mask == 0) continue;
    const auto found = std::find(contactSets.begin(), contactSets.end(), mask);
    bodyContactSet[i] = static_cast<int>(found - contactSets.begin());
    if (found == contactSets.end()) contactSets.push_back(mask);
  }
}

void Layout::allocateBlocks(const Model& model)
{
  const std::size_t bodies = static_cast<std::size_t>(model.bodyCount());
  const std::size_t links = static_cast<std::size_t>(model.linkCount());
  // Allocate in order; every block starts at a multiple of four doubles (32 bytes).
  std::size_t next = 0;
  const auto take = [&](std::size_t doubles)
  {
    const std::size_t offset = next;
    next += roundUp(doubles, vectorStride);
    return offset;
  };
  sines = take(angleCapacity);
  cosines = take(angleCapacity);
  inputs = take((1 + inputsPerContact * contactLinks.size()) * vectorStride);
  gravity = take(3 * vectorStride);
  contactSetData = take(contactSets.size() * contactSetStride);
  centerOfMass = take(vectorStride);
  zero = take(vectorStride);

  bodyPose.resize(bodies);
  jointAxis.resize(bodies);
  firstMoment.resize(bodies);
  for (std::size_t i = 0; i < bodies; ++i)
  {
    const Body& body = model.body(static_cast<int>(i));
    bodyPose[i] = take(poseStride);
    firstMoment[i] = take(vectorStride);
    if (i == 0)
      jointAxis[i] = zero;
    else if (body.axisKind == AxisKind::general)
      jointAxis[i] = take(vectorStride);
    else
      jointAxis[i] = bodyPose[i] + static_cast<std::size_t>(axisColumn(body.axisKind)) * vectorStride;
  }

  linkRotationColumns.resize(links);
  linkTranslation.resize(links);
  for (std::size_t l = 0; l < links; ++l)
  {
    const Link& link = model.link(static_cast<int>(l));
    const std::size_t body = bodyPose[static_cast<std::size_t>(link.body)];
    if (link.placementIsIdentity)
    {
      linkRotationColumns[l] = body;
      linkTranslation[l] = body + 3 * vectorStride;
    }
    else if (link.placementRotationIsIdentity)
    {
      linkRotationColumns[l] = body;
      linkTranslation[l] = take(vectorStride);
    }
    else
    {
      linkRotationColumns[l] = take(poseStride);
      linkTranslation[l] = linkRotationColumns[l] + 3 * vectorStride;
    }
  }
  size = next;
}

void Layout::buildJacobianPaths(const Model& model)
{
  const std::size_t bodies = static_cast<std::size_t>(model.bodyCount());
  jacobianPathBegin.reserve(bodies + 1);
  for (std::size_t b = 0; b < bodies; ++b)
  {
    jacobianPathBegin.push_back(static_cast<std::uint32_t>(jacobianSteps.size()));
    const std::size_t pathBegin = jacobianSteps.size();
    for (int i = static_cast<int>(b); i > 0; i = model.body(i).parent)
    {
      const Body& body = model.body(i);
      const std::size_t index = static_cast<std::size_t>(i);
      const std::uint32_t column = static_cast<std::uint32_t>(body.coordinate);
      const bool first =
          std::none_of(jacobianSteps.begin() + static_cast<std::ptrdiff_t>(pathBegin), jacobianSteps.end(),
                       [&](const JacobianStep& step) { return step.column == column; });
      jacobianSteps.push_back({static_cast<std::uint32_t>(jointAxis[index]),
                               static_cast<std::uint32_t>(bodyPose[index] + 3 * vectorStride), column,
                               body.type == JointType::prismatic, first, body.multiplier});
    }
  }
  jacobianPathBegin.push_back(static_cast<std::uint32_t>(jacobianSteps.size()));
}
} // namespace nao::kinematics::jit
