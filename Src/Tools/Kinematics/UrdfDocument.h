#pragma once
// Internal to the URDF loader: the elements of a URDF that a Model needs, read with TinyXML, each with the line
// of its element so that every error can name it. The meaning of each element and its defaults follow the URDF
// specification (wiki.ros.org/urdf/XML) as urdfdom, the reference parser, reads it: origin xyz and rpy 0, axis
// (1 0 0), mimic multiplier 1 and offset 0, <limit> with effort and velocity required for revolute and
// prismatic joints, <mass> and all six <inertia> values required in an <inertial>. Elements a Model does not use
// (visual, collision, dynamics, calibration, safety_controller, transmission, gazebo) are not read.
// Own code rather than urdfdom, so that the robot binary can be linked statically (Debian ships no static
// urdfdom); UrdfDocumentTests compares every value with urdfdom's.
#include <Eigen/Core>
#include <Eigen/Geometry>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nao::kinematics::detail
{
/// An <origin>: translation in m, rotation from rpy (rad, fixed axes x then y then z) as a unit quaternion.
struct UrdfPose
{
  Eigen::Vector3d position = Eigen::Vector3d::Zero();
  Eigen::Quaterniond rotation = Eigen::Quaterniond::Identity();
};

struct UrdfInertial
{
  UrdfPose origin;   ///< centre of mass and inertia axes in the link
  double mass = 0.0; ///< kg
  double ixx = 0, ixy = 0, ixz = 0, iyy = 0, iyz = 0, izz = 0; ///< kg·m² about the centre of mass
};

struct UrdfLink
{
  std::string name;
  int line = 0;
  std::optional<UrdfInertial> inertial;
};

enum class UrdfJointType
{
  revolute,
  continuous,
  prismatic,
  fixed,
  floating,
  planar
};

struct UrdfLimits
{
  double lower = 0.0, upper = 0.0; ///< rad or m
  double effort = 0.0;             ///< N·m or N
  double velocity = 0.0;           ///< rad/s or m/s
};

struct UrdfMimic
{
  std::string joint; ///< the joint whose value this one follows: multiplier * value + offset
  double multiplier = 1.0;
  double offset = 0.0;
};

struct UrdfJoint
{
  std::string name;
  int line = 0;
  UrdfJointType type = UrdfJointType::fixed;
  std::string parent; ///< link name
  std::string child;  ///< link name
  UrdfPose origin;    ///< the joint frame in the parent link
  Eigen::Vector3d axis = Eigen::Vector3d::UnitX();
  std::optional<UrdfLimits> limits;
  std::optional<UrdfMimic> mimic;
};

struct UrdfDocument
{
  std::string robotName;
  std::vector<UrdfLink> links;                                ///< in file order
  std::vector<UrdfJoint> joints;                              ///< in file order
  std::string rootLink;                                       ///< the one link that is no joint's child
  std::map<std::string, std::size_t, std::less<>> linkIndex;  ///< name -> index in links
  std::map<std::string, std::size_t, std::less<>> jointIndex; ///< name -> index in joints

  const UrdfLink& link(std::string_view name) const;   ///< throws std::out_of_range for an unknown name
  const UrdfJoint& joint(std::string_view name) const; ///< throws std::out_of_range for an unknown name
  /// "source:line" for an element, or just "source" when the name is unknown.
  std::string linkLocation(std::string_view source, std::string_view link) const;
  std::string jointLocation(std::string_view source, std::string_view joint) const;
};

/// Throws ModelError naming source, line and element for malformed XML or text that is not UTF-8, a missing or
/// unparsable value the specification requires, duplicate names, a joint naming an unknown link, a link with two
/// parent joints, a cycle of joints (naming them) and a robot without exactly one root link.
UrdfDocument readUrdf(std::string_view xml, std::string_view sourceName);
} // namespace nao::kinematics::detail
