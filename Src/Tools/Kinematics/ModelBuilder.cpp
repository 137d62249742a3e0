// Turns urdfdom's link/joint graph into the Model's flat body arrays (see Model.h for what each field means).
#include "Tools/Files/BoundedFile.h"
#include "Tools/Kinematics/ModelError.h"
#include "Tools/Kinematics/UrdfLoader.h"
#include "Tools/Kinematics/UrdfScan.h"

#include <algorithm>
#include <cmath>
#include <console_bridge/console.h>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <urdf_parser/urdf_parser.h>

namespace nao::kinematics
{
namespace
{
/// Collects urdfdom's error messages (it logs them and often carries on) so that loading can fail with them.
class UrdfdomErrorCollector : public console_bridge::OutputHandler
{
public:
  void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override
  {
    if (level >= console_bridge::CONSOLE_BRIDGE_LOG_ERROR) errors.push_back(text);
  }
  std::vector<std::string> errors;
};

/// urdfdom names elements in brackets ("Joint [x] has no known type"); point to the line of the first one.
std::string withLine(const std::string& message, const detail::UrdfScan& scan)
{
  const std::size_t open = message.find('[');
  const std::size_t close = message.find(']', open);
  if (open == std::string::npos || close == std::string::npos) return message;
  const std::string name = message.substr(open + 1, close - open - 1);
  for (const auto* lines : {&scan.jointLines, &scan.linkLines})
    if (const auto found = lines->find(name); found != lines->end())
      return message + " (line " + std::to_string(found->second) + ")";
  return message;
}

urdf::ModelInterfaceSharedPtr parseWithUrdfdom(std::string_view xml, std::string_view source,
                                               const detail::UrdfScan& scan)
{
  // console_bridge's handler is global: one parse at a time (loading happens at start-up only).
  static std::mutex handlerMutex;
  const std::lock_guard lock(handlerMutex);
  UrdfdomErrorCollector collector;
  console_bridge::useOutputHandler(&collector);
  urdf::ModelInterfaceSharedPtr parsed;
  try
  {
    parsed = urdf::parseURDF(std::string(xml));
  }
  catch (const std::exception& error)
  {
    collector.errors.push_back(error.what());
  }
  console_bridge::restorePreviousOutputHandler();
  if (!collector.errors.empty() || !parsed)
  {
    std::string message = std::string(source) + ": urdfdom rejected the URDF:";
    for (const std::string& error : collector.errors)
      message += " " + withLine(error, scan) + ";";
    throw ModelError(collector.errors.empty() ? message + " (no reason given)" : message);
  }
  return parsed;
}

math::Pose toPose(const urdf::Pose& pose)
{
  math::Pose result;
  const urdf::Rotation& r = pose.rotation;
  result.rotation = Eigen::Quaterniond(r.w, r.x, r.y, r.z).normalized().toRotationMatrix();
  result.translation = {pose.position.x, pose.position.y, pose.position.z};
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
  ModelBuilder(std::string_view source, const detail::UrdfScan& scan, const urdf::ModelInterface& urdf,
               const ModelOptions& options)
      : source_(source), scan_(scan), urdf_(urdf), options_(options)
  {
    for (const detail::ScannedJoint& joint : scan.joints)
      jointsByParent_.emplace(joint.parent, &joint);
  }

  Model build()
  {
    model_.name_ = urdf_.getName();
    const std::string rootName = urdf_.getRoot()->name;
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
    throw ModelError(scan_.jointLocation(source_, joint) + ": joint '" + joint + "': " + problem);
  }
  [[noreturn]] void failAtLink(const std::string& link, const std::string& problem) const
  {
    throw ModelError(scan_.linkLocation(source_, link) + ": link '" + link + "': " + problem);
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
      const urdf::JointConstSharedPtr joint = urdf_.getJoint(it->second->name);
      const math::Pose origin = toPose(joint->parent_to_joint_origin_transform);
      if (!isFinite(origin)) failAtJoint(joint->name, "origin is not finite");
      const math::Pose jointInBody = linkInBody * origin;
      if (joint->type == urdf::Joint::FIXED)
        addLinkTree(joint->child_link_name, body, jointInBody);
      else
        addLinkTree(joint->child_link_name, addBody(*joint, body, jointInBody), math::Pose::identity());
    }
  }

  int addBody(const urdf::Joint& joint, int parent, const math::Pose& placement)
  {
    Body body;
    body.jointName = joint.name;
    body.linkName = joint.child_link_name;
    body.parent = parent;
    switch (joint.type)
    {
    case urdf::Joint::REVOLUTE:
    case urdf::Joint::CONTINUOUS:
      body.type = JointType::revolute;
      break;
    case urdf::Joint::PRISMATIC:
      body.type = JointType::prismatic;
      break;
    default:
      failAtJoint(joint.name, "type " +
                                  std::string(joint.type == urdf::Joint::PLANAR ? "'planar'" : "'floating'") +
                                  " is not supported (revolute, continuous, prismatic and fixed are)");
    }
    const Eigen::Vector3d axis{joint.axis.x, joint.axis.y, joint.axis.z};
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
      body.limits = {joint.type != urdf::Joint::CONTINUOUS, joint.limits->lower, joint.limits->upper,
                     joint.limits->effort, joint.limits->velocity};
    model_.bodies_.push_back(body);
    return model_.bodyCount() - 1;
  }

  Inertial linkInertial(const std::string& linkName)
  {
    Inertial inertial;
    const urdf::LinkConstSharedPtr link = urdf_.getLink(linkName);
    if (link->inertial)
    {
      const urdf::Inertial& in = *link->inertial;
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
      for (urdf::JointConstSharedPtr joint = urdf_.getJoint(body.jointName); joint->mimic;)
      {
        const std::string& masterName = joint->mimic->joint_name;
        const int master = model_.findBodyOfJoint(masterName);
        if (master < 0)
          failAtJoint(body.jointName,
                      "mimics '" + masterName + "', which is not a moving joint of this model");
        if (master == i || ++steps > model_.bodyCount())
          failAtJoint(body.jointName, "mimic joints form a cycle");
        body.offset = joint->mimic->multiplier * body.offset + joint->mimic->offset;
        body.multiplier *= joint->mimic->multiplier;
        masterBody_[static_cast<std::size_t>(i)] = master;
        joint = urdf_.getJoint(masterName);
      }
    }
  }

  void assignCoordinates()
  {
    std::vector<std::string> order = options_.coordinateOrder;
    if (order.empty())
    {
      for (const detail::ScannedJoint& joint : scan_.joints)
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
  const detail::UrdfScan& scan_;
  const urdf::ModelInterface& urdf_;
  const ModelOptions& options_;
  std::multimap<std::string, const detail::ScannedJoint*> jointsByParent_; // keeps file order per parent
  std::vector<int> masterBody_; ///< per body: the body of the independent joint that drives it
  Model model_;
};

Model buildModel(std::string_view urdfXml, const ModelOptions& options, std::string_view sourceName)
{
  const detail::UrdfScan scan = detail::scanUrdf(urdfXml, sourceName);
  const urdf::ModelInterfaceSharedPtr urdf = parseWithUrdfdom(urdfXml, sourceName, scan);
  return ModelBuilder(sourceName, scan, *urdf, options).build();
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
