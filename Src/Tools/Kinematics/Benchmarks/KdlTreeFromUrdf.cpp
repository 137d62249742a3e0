#include "Tools/Kinematics/Benchmarks/KdlTreeFromUrdf.h"

#include <stdexcept>
#include <urdf_parser/urdf_parser.h>

namespace nao::kinematics::benchmark
{
namespace
{
KDL::Vector toKdl(const urdf::Vector3& v)
{
  return {v.x, v.y, v.z};
}

KDL::Frame toKdl(const urdf::Pose& pose)
{
  const urdf::Rotation& r = pose.rotation;
  return {KDL::Rotation::Quaternion(r.x, r.y, r.z, r.w), toKdl(pose.position)};
}

KDL::Joint toKdl(const urdf::Joint& joint)
{
  const KDL::Frame origin = toKdl(joint.parent_to_joint_origin_transform);
  KDL::Vector axis = toKdl(joint.axis);
  switch (joint.type)
  {
  case urdf::Joint::REVOLUTE:
  case urdf::Joint::CONTINUOUS:
    axis.Normalize();
    return {joint.name, origin.p, origin.M * axis, KDL::Joint::RotAxis};
  case urdf::Joint::PRISMATIC:
    axis.Normalize();
    return {joint.name, origin.p, origin.M * axis, KDL::Joint::TransAxis};
  case urdf::Joint::FIXED:
    return KDL::Joint(joint.name, KDL::Joint::None);
  default:
    throw std::runtime_error("KDL converter: unsupported joint " + joint.name);
  }
}

KDL::RigidBodyInertia toKdl(const urdf::InertialSharedPtr& inertial)
{
  if (!inertial) return KDL::RigidBodyInertia::Zero();
  const KDL::Frame frame = toKdl(inertial->origin);
  // Inertia about the CoM in the inertial frame, turned into the link frame.
  const KDL::RigidBodyInertia atCom(inertial->mass, KDL::Vector::Zero(),
                                    KDL::RotationalInertia(inertial->ixx, inertial->iyy, inertial->izz,
                                                           inertial->ixy, inertial->ixz, inertial->iyz));
  return frame * atCom;
}

struct Selection
{
  bool onlyLoadedLinks;
  const std::set<std::string>& keep;

  bool skips(const urdf::Link& link) const
  {
    return onlyLoadedLinks && link.parent_joint->type == urdf::Joint::FIXED && link.child_links.empty() &&
           (!link.inertial || link.inertial->mass == 0.0) && !keep.contains(link.name);
  }
};

void addChildren(KDL::Tree& tree, const urdf::Link& link, const Selection& selection)
{
  for (const urdf::LinkSharedPtr& child : link.child_links)
  {
    if (selection.skips(*child)) continue;
    const urdf::Joint& joint = *child->parent_joint;
    const KDL::Segment segment(child->name, toKdl(joint), toKdl(joint.parent_to_joint_origin_transform),
                               toKdl(child->inertial));
    if (!tree.addSegment(segment, link.name))
      throw std::runtime_error("KDL converter: cannot add segment " + child->name);
    addChildren(tree, *child, selection);
  }
}
} // namespace

KDL::Tree kdlTreeFromUrdf(const std::string& urdfXml, bool onlyLoadedLinks, const std::set<std::string>& keep)
{
  const urdf::ModelInterfaceSharedPtr model = urdf::parseURDF(urdfXml);
  if (!model) throw std::runtime_error("KDL converter: urdfdom cannot parse the URDF");
  KDL::Tree tree(model->getRoot()->name);
  addChildren(tree, *model->getRoot(), Selection{onlyLoadedLinks, keep});
  return tree;
}
} // namespace nao::kinematics::benchmark
