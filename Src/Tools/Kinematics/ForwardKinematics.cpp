#include "Tools/Kinematics/ForwardKinematics.h"

#include <cassert>
#include <cmath>

namespace nao::kinematics
{
namespace
{
/// rotation = frame * R(axis, angle) and the axis in the base frame; axis-aligned joints touch two columns
/// only.
inline void rotateAboutJointAxis(const Body& body, const Eigen::Matrix3d& frame, double s, double c,
                                 Eigen::Matrix3d& rotation, Eigen::Vector3d& axisInBase)
{
  switch (body.axisKind)
  {
  case AxisKind::x:
    rotation.col(0) = frame.col(0);
    rotation.col(1) = c * frame.col(1) + s * frame.col(2);
    rotation.col(2) = c * frame.col(2) - s * frame.col(1);
    axisInBase = frame.col(0);
    break;
  case AxisKind::y:
    rotation.col(0) = c * frame.col(0) - s * frame.col(2);
    rotation.col(1) = frame.col(1);
    rotation.col(2) = s * frame.col(0) + c * frame.col(2);
    axisInBase = frame.col(1);
    break;
  case AxisKind::z:
    rotation.col(0) = c * frame.col(0) + s * frame.col(1);
    rotation.col(1) = c * frame.col(1) - s * frame.col(0);
    rotation.col(2) = frame.col(2);
    axisInBase = frame.col(2);
    break;
  case AxisKind::general:
  {
    // Rodrigues: R = c I + s [a]x + (1 - c) a a^T.
    const Eigen::Vector3d& a = body.axis;
    Eigen::Matrix3d local = (1.0 - c) * (a * a.transpose());
    local.diagonal().array() += c;
    local(0, 1) -= s * a.z();
    local(1, 0) += s * a.z();
    local(0, 2) += s * a.y();
    local(2, 0) -= s * a.y();
    local(1, 2) -= s * a.x();
    local(2, 1) += s * a.x();
    rotation.noalias() = frame.lazyProduct(local);
    axisInBase.noalias() = frame.lazyProduct(a);
    break;
  }
  }
}

inline void placeBody(const Body& body, const math::Pose& parent, double value, double s, double c,
                      math::Pose& pose, Eigen::Vector3d& axisInBase)
{
  pose.translation.noalias() = parent.rotation.lazyProduct(body.placement.translation);
  pose.translation += parent.translation;
  Eigen::Matrix3d rotatedFrame;
  if (!body.placementRotationIsIdentity)
    rotatedFrame.noalias() = parent.rotation.lazyProduct(body.placement.rotation);
  const Eigen::Matrix3d& frame = body.placementRotationIsIdentity ? parent.rotation : rotatedFrame;
  if (body.type == JointType::prismatic)
  {
    pose.rotation = frame;
    axisInBase.noalias() = frame.lazyProduct(body.axis);
    pose.translation += value * axisInBase;
  }
  else
    rotateAboutJointAxis(body, frame, s, c, pose.rotation, axisInBase);
}
} // namespace

void updateBodyPoses(const Model& model, Data& data, const JointVector& q)
{
  assert(q.size() == model.coordinateCount());
  const std::span<const Body> bodies = model.bodies();
  for (std::size_t i = 1; i < bodies.size(); ++i)
  {
    const Body& body = bodies[i];
    const double value = body.multiplier * q[body.coordinate] + body.offset;
    data.jointValues[i] = value;
    double s = 0.0;
    double c = 1.0;
    if (body.type == JointType::revolute)
    {
      if (body.sameAngleAs >= 0)
      {
        s = data.sines[static_cast<std::size_t>(body.sameAngleAs)];
        c = data.cosines[static_cast<std::size_t>(body.sameAngleAs)];
      }
      else
      {
        s = std::sin(value);
        c = std::cos(value);
      }
      data.sines[i] = s;
      data.cosines[i] = c;
    }
    placeBody(body, data.bodyPoses[static_cast<std::size_t>(body.parent)], value, s, c, data.bodyPoses[i],
              data.jointAxes[i]);
  }
}

math::Pose linkPose(const Model& model, const Data& data, int linkIndex)
{
  const Link& link = model.link(linkIndex);
  const math::Pose& body = data.bodyPoses[static_cast<std::size_t>(link.body)];
  if (link.placementIsIdentity) return body;
  if (link.placementRotationIsIdentity) return {body.rotation, body * link.placement.translation};
  return body * link.placement;
}

void updateLinkPoses(const Model& model, Data& data)
{
  const std::span<const Link> links = model.links();
  for (std::size_t i = 0; i < links.size(); ++i)
  {
    const Link& link = links[i];
    const math::Pose& body = data.bodyPoses[static_cast<std::size_t>(link.body)];
    math::Pose& pose = data.linkPoses[i];
    if (link.placementIsIdentity)
    {
      pose = body;
      continue;
    }
    if (link.placementRotationIsIdentity)
      pose.rotation = body.rotation;
    else
      pose.rotation.noalias() = body.rotation.lazyProduct(link.placement.rotation);
    pose.translation.noalias() = body.rotation.lazyProduct(link.placement.translation);
    pose.translation += body.translation;
  }
}

void forwardKinematics(const Model& model, Data& data, const JointVector& q)
{
  updateBodyPoses(model, data, q);
  updateLinkPoses(model, data);
}

const Eigen::Vector3d& updateCenterOfMass(const Model& model, Data& data)
{
  const std::span<const Body> bodies = model.bodies();
  for (std::size_t i = 0; i < bodies.size(); ++i)
    data.subtreeFirstMoments[i] =
        bodies[i].inertial.mass * (data.bodyPoses[i] * bodies[i].inertial.centerOfMass);
  for (std::size_t i = bodies.size() - 1; i > 0; --i)
    data.subtreeFirstMoments[static_cast<std::size_t>(bodies[i].parent)] += data.subtreeFirstMoments[i];
  data.centerOfMass = model.totalMass() > 0.0
                          ? Eigen::Vector3d(data.subtreeFirstMoments[0] / model.totalMass())
                          : Eigen::Vector3d(data.bodyPoses[0].translation);
  return data.centerOfMass;
}
} // namespace nao::kinematics
