#pragma once
// The immutable robot model: a tree of moving bodies in topological order, built once from a URDF. Everything
// a code generator needs is plain data here (parent indices, fixed placements, axes, mimic factors, masses).
// Algorithms are free functions over (const Model&, Data&), see Data.h; conventions in Conventions.h.
#include "Tools/Math/Pose.h"

#include <Eigen/Core>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nao::kinematics
{
enum class JointType : std::uint8_t
{
  fixed,    ///< only the base body (index 0) has it: fixed URDF joints are merged into their parent body
  revolute, ///< URDF revolute and continuous (the latter without limits)
  prismatic,
};

/// Which rotation an axis needs: axis-aligned joints use the cheap 2-column update.
enum class AxisKind : std::uint8_t
{
  x,      ///< axis is exactly (1, 0, 0)
  y,      ///< axis is exactly (0, 1, 0)
  z,      ///< axis is exactly (0, 0, 1)
  general ///< any other unit vector
};

struct JointLimits
{
  bool bounded = false;  ///< false for continuous joints; the numbers below are then meaningless
  double lower = 0.0;    ///< rad (m for prismatic)
  double upper = 0.0;    ///< rad (m for prismatic)
  double effort = 0.0;   ///< N*m (N for prismatic), from the URDF
  double velocity = 0.0; ///< rad/s (m/s for prismatic), from the URDF
};

/// Mass properties, all in one frame (the frame is stated where used).
struct Inertial
{
  double mass = 0.0;                                      ///< kg
  Eigen::Vector3d centerOfMass = Eigen::Vector3d::Zero(); ///< m
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();      ///< kg*m^2, about the centre of mass
};

/// A moving joint and everything rigidly attached to its child side up to the next moving joints. The body
/// frame is the frame of the joint's child link. Body 0 is the base: the root link and links fixed to it, no
/// joint.
struct Body
{
  std::string jointName; ///< empty for the base
  std::string linkName;  ///< the URDF link whose frame is the body frame
  int parent = -1;       ///< index of the parent body, always smaller than this body's index; -1 for the base
  JointType type = JointType::fixed;
  AxisKind axisKind = AxisKind::general;
  Eigen::Vector3d axis = Eigen::Vector3d::UnitX(); ///< unit vector, joint frame = body frame
  /// Joint frame at q = 0 in the parent body frame (the URDF joint origin composed with fixed joints in
  /// between).
  math::Pose placement;
  bool placementRotationIsIdentity = true; ///< exact: the rotation product can be skipped
  int coordinate = -1;     ///< index into q of the independent joint that drives this one; -1 for the base
  double multiplier = 1.0; ///< joint value = multiplier * q[coordinate] + offset (1 and 0 unless a mimic)
  double offset = 0.0;     ///< rad (m for prismatic)
  /// Index of an earlier body with exactly the same joint value (a mimic with multiplier 1, offset 0), whose
  /// sine and cosine can be reused; -1 if none.
  int sameAngleAs = -1;
  JointLimits limits;
  Inertial inertial;        ///< in the body frame: the merged mass of all links fixed to this body
  double subtreeMass = 0.0; ///< kg, this body and all its descendants
};

/// Every URDF link, moving or not: its pose is its body's pose times a fixed placement.
struct Link
{
  std::string name;
  int body = 0;                            ///< the body it is rigidly attached to
  math::Pose placement;                    ///< link frame in the body frame
  bool placementIsIdentity = true;         ///< exact: the link frame is the body frame
  bool placementRotationIsIdentity = true; ///< exact: only a translation (most sensor frames)
  Inertial inertial;                       ///< in the link frame, as in the URDF (after mass calibration)
};

/// An independent joint coordinate (one entry of q).
struct Coordinate
{
  std::string name; ///< the joint's URDF name
  int body = 0;     ///< the body of that joint (mimic joints have other bodies but the same coordinate)
};

class Model
{
public:
  std::string_view name() const { return name_; }

  int bodyCount() const { return static_cast<int>(bodies_.size()); }
  std::span<const Body> bodies() const { return bodies_; }
  const Body& body(int index) const { return bodies_[static_cast<std::size_t>(index)]; }

  int linkCount() const { return static_cast<int>(links_.size()); }
  std::span<const Link> links() const { return links_; }
  const Link& link(int index) const { return links_[static_cast<std::size_t>(index)]; }

  /// nq: the size of q and of the torque vector.
  int coordinateCount() const { return static_cast<int>(coordinates_.size()); }
  std::span<const Coordinate> coordinates() const { return coordinates_; }

  double totalMass() const { return totalMass_; } ///< kg

  /// -1 if there is no such link / joint / independent joint.
  int findLink(std::string_view linkName) const;
  int findBodyOfJoint(std::string_view jointName) const;
  int findCoordinate(std::string_view independentJointName) const;

  /// As find*, but throw ModelError naming the missing link or joint.
  int linkIndex(std::string_view linkName) const;
  int coordinateIndex(std::string_view independentJointName) const;

  /// True if `ancestor` is `body` or lies on the path from `body` to the base.
  bool isAncestorOrSelf(int ancestor, int body) const;

  /// The longest chain from the base to a leaf, in bodies with joints: bounds the size of path buffers.
  int maxDepth() const { return maxDepth_; }

private:
  friend class ModelBuilder;
  Model() = default;

  std::string name_;
  std::vector<Body> bodies_;
  std::vector<Link> links_;
  std::vector<Coordinate> coordinates_;
  double totalMass_ = 0.0;
  int maxDepth_ = 0;
};
} // namespace nao::kinematics
