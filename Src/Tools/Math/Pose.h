#pragma once
// A rigid transform kept as a rotation matrix and a translation: composing two costs 27 + 9 multiplications
// and inverting is a transpose, which is what kinematics does millions of times per second. Eigen::Isometry3d
// would store a 4x4 matrix and needs care to avoid the full product.
#include <Eigen/Core>
#include <Eigen/Geometry>

namespace nao::math
{
struct Pose
{
  Eigen::Matrix3d rotation =
      Eigen::Matrix3d::Identity(); ///< maps vectors of the child frame into the parent frame
  Eigen::Vector3d translation = Eigen::Vector3d::Zero(); ///< m, child origin in the parent frame

  static Pose identity() { return {}; }

  /// The child-frame point `point` (m) expressed in the parent frame.
  Eigen::Vector3d operator*(const Eigen::Vector3d& point) const
  {
    return rotation.lazyProduct(point) + translation;
  }

  /// parentFromChild * childFromGrandChild = parentFromGrandChild.
  Pose operator*(const Pose& other) const
  {
    return {rotation.lazyProduct(other.rotation), rotation.lazyProduct(other.translation) + translation};
  }

  Pose inverse() const
  {
    const Eigen::Matrix3d transposed = rotation.transpose();
    return {transposed, -(transposed * translation)};
  }

  bool isApprox(const Pose& other, double precision = 1e-12) const
  {
    return rotation.isApprox(other.rotation, precision) &&
           (translation - other.translation).norm() <= precision * (1.0 + translation.norm());
  }
};

/// The cross-product matrix: skew(a) * b = a x b.
inline Eigen::Matrix3d skew(const Eigen::Vector3d& a)
{
  Eigen::Matrix3d result;
  result << 0.0, -a.z(), a.y(), a.z(), 0.0, -a.x(), -a.y(), a.x(), 0.0;
  return result;
}

/// Rotation by `angle` (rad) about the unit vector `axis` (Rodrigues' formula).
inline Eigen::Matrix3d rotationAboutAxis(const Eigen::Vector3d& axis, double angle)
{
  return Eigen::AngleAxisd(angle, axis).toRotationMatrix();
}

/// URDF's fixed-axis roll-pitch-yaw (rad): R = Rz(yaw) * Ry(pitch) * Rx(roll).
inline Eigen::Matrix3d rotationFromRollPitchYaw(double roll, double pitch, double yaw)
{
  return (Eigen::AngleAxisd(yaw, Eigen::Vector3d::UnitZ()) *
          Eigen::AngleAxisd(pitch, Eigen::Vector3d::UnitY()) *
          Eigen::AngleAxisd(roll, Eigen::Vector3d::UnitX()))
      .toRotationMatrix();
}
} // namespace nao::math
