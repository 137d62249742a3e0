// Turns the URDF's link/joint tree into the Model's flat body arrays (see Model.h for what each field means).
#include "Tools/Files/BoundedFile.h"
#include "Tools/Kinematics/ModelError.h"
#include "Tools/Kinematics/UrdfDocument.h"
#include "Tools/Kinematics/UrdfLoader.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

namespace nao::kinematics
{
namespace
{
math::Pose toPose(const detail::UrdfPose& pose)
{
  math::Pose result;
  result.rotation = pose.rotation.normalized().toRotationMatrix();
  result.translation = pose.position;
  return result;
}

bool isFinite(const math::Pose& pose)
{
  return pose.rotation.allFinite() && pose.translation.allFinite();
}

AxisKind axisKindOf(const Eigen::Vector3d& axis)
{
  if (axis == Eigen::Vector3d::UnitX()) return AxisKind::x;
  if (axis == Eigen::Vector3d::UnitY()) return AxisKind::y;
  if (axis == Eigen::Vector3d::UnitZ()) return AxisKind::z;
  return AxisKind::general;
}

/// Inertia about `center` of a body with inertia `inertia` about its own CoM at `com` (parallel-axis
/// theorem).
Eigen::Matrix3d shiftedInertia(const Eigen::Matrix3d& inertia, double mass, const Eigen::Vector3d& com,
                               const Eigen::Vector3d& center)
{
  const Eigen::Vector3d d = com - center;
  return inertia + mass * (d.squaredNorm() * Eigen::Matrix3d::Identity() - d * d.transpose());
}
} // namespace

class ModelBuilder
{
public:
  ModelBuilder(std::string_view source, const detail::UrdfDocument& urdf, const ModelOptions& options)
      : source_(source), urdf_(urdf), options_(options)
  {
    for (const detail::UrdfJoint& joint : urdf.joints)
      jointsByParent_.emplace(joint.parent, &joint);
  }

  Model build()
  {
    model_.name_ = urdf_.robotName;
    const std::string rootName = urdf_.rootLink;
    Body base;
    base.linkName = rootName;
    model_.bodies_.push_back(base);
    addLinkTree(rootName, 0, math::Pose::identity());
    rejectUnusedCalibration();
    resolveMimics();
    assignCoordinates();
    findSharedAngles();
    mergeInertials();
    return std::move(model_);
  }

private:
  [[noreturn]] void failAtJoint(const std::string& joint, const std::string& problem) const
  {
    throw ModelError(urdf_.jointLocation(source_, joint) + ": joint '" + joint + "': " + problem);
  }
  [[noreturn]] void failAtLink(const std::string& link, const std::string& problem) const
  {
    throw ModelError(urdf_.linkLocation(source_, link) + ": link '" + link + "': " + problem);
  }

  void addLinkTree(const std::string& linkName, int body, const math::Pose& linkInBody)
  {
    Link link;
    link.name = linkName;
    link.body = body;
    link.placement = linkInBody;
    link.placementRotationIsIdentity = linkInBody.rotation == Eigen::Matrix3d::Identity();
    link.placementIsIdentity =
        link.placementRotationIsIdentity && linkInBody.translation == Eigen::Vector3d::Zero();
    link.inertial = linkInertial(linkName);
    model_.links_.push_back(link);

    const auto [first, last] = jointsByParent_.equal_range(linkName);
    for (auto it = first; it != last; ++it)
    {
      const detail::UrdfJoint& joint = *it->second;
      const math::Pose origin = toPose(joint.origin);
      if (!isFinite(origin)) failAtJoint(joint.name, "origin is not finite");
      const math::Pose jointInBody = linkInBody * origin;
      if (joint.type == detail::UrdfJointType::fixed)
        addLinkTree(joint.child, body, jointInBody);
      else
        addLinkTree(joint.child, addBody(joint, body, jointInBody), math::Pose::identity());
    }
  }

  int addBody(const detail::UrdfJoint& joint, int parent, const math::Pose& placement)
  {
    Body body;
    body.jointName = joint.name;
    body.linkName = joint.child;
    body.parent = parent;
    switch (joint.type)
    {
    case detail::UrdfJointType::revolute:
    case detail::UrdfJointType::continuous:
      body.type = JointType::revolute;
      break;
    case detail::UrdfJointType::prismatic:
      body.type = JointType::prismatic;
      break;
    default:
      failAtJoint(joint.name,
                  "type " +
                      std::string(joint.type == detail::UrdfJointType::planar ? "'planar'" : "'floating'") +
                      " is not supported (revolute, continuous, prismatic and fixed are)");
    }
    const Eigen::Vector3d& axis = joint.axis;
    if (!axis.allFinite() || axis.norm() < 1e-9)
    {
      std::ostringstream text;
      text << "axis (" << axis.transpose() << ") must be a finite, non-zero vector";
      failAtJoint(joint.name, text.str());
    }
    body.axis = axis.normalized();
    body.axisKind = axisKindOf(body.axis);
    body.placement = placement;
    body.placementRotationIsIdentity = placement.rotation == Eigen::Matrix3d::Identity();
    if (joint.limits)
      body.limits = {joint.type != detail::UrdfJointType::continuous, joint.limits->lower,
                     joint.limits->upper, joint.limits->effort, joint.limits->velocity};
    model_.bodies_.push_back(body);
    return model_.bodyCount() - 1;
  }

  Inertial linkInertial(const std::string& linkName)
  {
    Inertial inertial;
    const detail::UrdfLink& link = urdf_.link(linkName);
    if (link.inertial)
    {
      const detail::UrdfInertial& in = *link.inertial;
      const math::Pose frame = toPose(in.origin);
      Eigen::Matrix3d inertia;
      inertia << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
      inertial = {in.mass, frame.translation, frame.rotation * inertia * frame.rotation.transpose()};
      if (!std::isfinite(in.mass) || in.mass < 0.0)
        failAtLink(linkName, "mass " + std::to_string(in.mass) + " kg must be finite and not negative");
      if (!inertial.centerOfMass.allFinite() || !inertial.inertia.allFinite())
        failAtLink(linkName, "inertial origin or inertia is not finite");
    }
    for (const LinkMassCalibration& calibration : options_.massCalibration.links)
      if (calibration.link == linkName)
      {
        inertial.mass += calibration.extraMass;
        inertial.centerOfMass += calibration.centerOfMassOffset;
        if (inertial.mass < 0.0)
          throw ModelError(calibration.origin + ": key 'links." + linkName +
                           "': the calibrated mass is negative (" + std::to_string(inertial.mass) + " kg)");
      }
    return inertial;
  }

  void rejectUnusedCalibration() const
  {
    for (const LinkMassCalibration& calibration : options_.massCalibration.links)
      if (model_.findLink(calibration.link) < 0)
        throw ModelError(calibration.origin + ": key 'links." + calibration.link + "': the model '" +
                         model_.name_ + "' has no such link");
  }

  /// Rewrites every mimic as multiplier * (independent joint) + offset, following chains of mimics.
  void resolveMimics()
  {
    masterBody_.assign(model_.bodies_.size(), -1);
    for (int i = 1; i < model_.bodyCount(); ++i)
    {
      Body& body = model_.bodies_[static_cast<std::size_t>(i)];
      masterBody_[static_cast<std::size_t>(i)] = i;
      int steps = 0;
      for (const detail::UrdfJoint* joint = &urdf_.joint(body.jointName); joint->mimic;)
      {
        const std::string& masterName = joint->mimic->joint;
        const int master = model_.findBodyOfJoint(masterName);
        if (master < 0)
          failAtJoint(body.jointName,
                      "mimics '" + masterName + "', which is not a moving joint of this model");
        if (master == i || ++steps > model_.bodyCount())
          failAtJoint(body.jointName, "mimic joints form a cycle");
        body.offset = joint->mimic->multiplier * body.offset + joint->mimic->offset;
        body.multiplier *= joint->mimic->multiplier;
        masterBody_[static_cast<std::size_t>(i)] = master;
        joint = &urdf_.joint(masterName);
      }
    }
  }

  void assignCoordinates()
  {
    std::vector<std::string> order = options_.coordinateOrder;
    if (order.empty())
    {
      for (const detail::UrdfJoint& joint : urdf_.joints)
        if (const int body = model_.findBodyOfJoint(joint.name); body > 0 && isIndependent(body))
          order.push_back(joint.name);
    }
    for (const std::string& name : order)
    {
      const int body = model_.findBodyOfJoint(name);
      if (body < 0 || !isIndependent(body))
        throw ModelError(source_ + ": coordinate order names '" + name +
                         "', which is not an independent moving joint of the model");
      if (model_.findCoordinate(name) >= 0)
        throw ModelError(source_ + ": coordinate order names '" + name + "' twice");
      model_.coordinates_.push_back({name, body});
    }
    for (int i = 1; i < model_.bodyCount(); ++i)
    {
      Body& body = model_.bodies_[static_cast<std::size_t>(i)];
      const std::string& master = model_.body(masterBody_[static_cast<std::size_t>(i)]).jointName;
      body.coordinate = model_.findCoordinate(master);
      if (body.coordinate < 0)
        throw ModelError(source_ + ": coordinate order lacks the independent joint '" + master + "'");
    }
  }

  bool isIndependent(int body) const { return masterBody_[static_cast<std::size_t>(body)] == body; }

  void findSharedAngles()
  {
    for (int i = 1; i < model_.bodyCount(); ++i)
    {
      Body& body = model_.bodies_[static_cast<std::size_t>(i)];
      for (int j = 1; j < i && body.sameAngleAs < 0; ++j)
      {
        const Body& other = model_.body(j);
        if (other.type == body.type && other.coordinate == body.coordinate &&
            other.multiplier == body.multiplier && other.offset == body.offset)
          body.sameAngleAs = j;
      }
    }
  }

  void mergeInertials()
  {
    for (Body& body : model_.bodies_)
      body.inertial = {};
    // First the mass and CoM of each body, then the inertia about that CoM.
    for (const Link& link : model_.links_)
    {
      Inertial& merged = model_.bodies_[static_cast<std::size_t>(link.body)].inertial;
      merged.mass += link.inertial.mass;
      merged.centerOfMass += link.inertial.mass * (link.placement * link.inertial.centerOfMass);
    }
    for (Body& body : model_.bodies_)
      if (body.inertial.mass > 0.0) body.inertial.centerOfMass /= body.inertial.mass;
    for (const Link& link : model_.links_)
    {
      Inertial& merged = model_.bodies_[static_cast<std::size_t>(link.body)].inertial;
      const Eigen::Matrix3d& rotation = link.placement.rotation;
      merged.inertia +=
          shiftedInertia(rotation * link.inertial.inertia * rotation.transpose(), link.inertial.mass,
                         link.placement * link.inertial.centerOfMass, merged.centerOfMass);
    }
    for (int i = model_.bodyCount() - 1; i >= 0; --i)
    {
      Body& body = model_.bodies_[static_cast<std::size_t>(i)];
      body.subtreeMass += body.inertial.mass;
      if (body.parent >= 0)
        model_.bodies_[static_cast<std::size_t>(body.parent)].subtreeMass += body.subtreeMass;
    }
    model_.totalMass_ = model_.bodies_.front().subtreeMass;
    std::vector<int> depth(model_.bodies_.size(), 0);
    for (int i = 1; i < model_.bodyCount(); ++i)
    {
      depth[static_cast<std::size_t>(i)] = depth[static_cast<std::size_t>(model_.body(i).parent)] + 1;
      model_.maxDepth_ = std::max(model_.maxDepth_, depth[static_cast<std::size_t>(i)]);
    }
  }

  std::string source_;
  const detail::UrdfDocument& urdf_;
  const ModelOptions& options_;
  std::multimap<std::string, const detail::UrdfJoint*> jointsByParent_; // keeps file order per parent
  std::vector<int> masterBody_; ///< per body: the body of the independent joint that drives it
  Model model_;
};

Model buildModel(std::string_view urdfXml, const ModelOptions& options, std::string_view sourceName)
{
  const detail::UrdfDocument urdf = detail::readUrdf(urdfXml, sourceName);
  return ModelBuilder(sourceName, urdf, options).build();
}

Model loadModel(const std::filesystem::path& urdfFile, const ModelOptions& options)
{
  std::string text;
  try
  {
    text = files::readBoundedFile(urdfFile);
  }
  catch (const files::FileError& error)
  {
    throw ModelError(error.what());
  }
  return buildModel(text, options, urdfFile.string());
}
} // namespace nao::kinematics
