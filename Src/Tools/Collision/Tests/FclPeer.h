#pragma once
// Our shapes as FCL 0.7 objects (Debian libfcl-dev), for the reference test and the benchmark only.
// FCL places a capsule at the origin of its frame with the axis along z and length lz.
#include "Tools/Collision/Shapes.h"

#include <Eigen/Geometry>
#include <fcl/geometry/shape/capsule.h>
#include <fcl/geometry/shape/sphere.h>
#include <fcl/narrowphase/collision.h>
#include <fcl/narrowphase/collision_object.h>
#include <fcl/narrowphase/distance.h>
#include <memory>

namespace nao::collision::test
{
inline std::shared_ptr<fcl::CollisionGeometryd> fclGeometry(const Capsule& shape, bool isSphere)
{
  if (isSphere) return std::make_shared<fcl::Sphered>(shape.radius);
  return std::make_shared<fcl::Capsuled>(shape.radius, (shape.end - shape.start).norm());
}

inline fcl::Transform3d fclPose(const Capsule& shape)
{
  fcl::Transform3d pose = fcl::Transform3d::Identity();
  pose.translation() = 0.5 * (shape.start + shape.end);
  const Eigen::Vector3d axis = shape.end - shape.start;
  if (axis.norm() > 0.0)
    pose.linear() = Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitZ(), axis).toRotationMatrix();
  return pose;
}

/// FCL's exact path: its closed forms for separated spheres and capsules and its signed capsule-capsule
/// query. (enable_signed_distance would switch every pair to GJK/EPA of libccd, which agrees only to about
/// 5e-7 m.) For penetrating pairs with a sphere this query only answers -1; fclDistance() then asks FCL's
/// collision query for the penetration depth.
inline fcl::DistanceRequestd fclExactDistanceRequest()
{
  fcl::DistanceRequestd request;
  request.enable_nearest_points = true;
  request.gjk_solver_type = fcl::GST_LIBCCD;
  return request;
}

struct FclDistance
{
  double distance;
  bool hasWitnessPoints; ///< false for a penetration depth from the collision query
  Eigen::Vector3d pointOnA;
  Eigen::Vector3d pointOnB;
};

inline FclDistance fclDistance(const Capsule& a, bool aIsSphere, const Capsule& b, bool bIsSphere)
{
  const auto geometryA = fclGeometry(a, aIsSphere);
  const auto geometryB = fclGeometry(b, bIsSphere);
  fcl::DistanceResultd result;
  fcl::distance(geometryA.get(), fclPose(a), geometryB.get(), fclPose(b), fclExactDistanceRequest(), result);
  if (result.min_distance >= 0.0 || !(aIsSphere || bIsSphere))
    return {result.min_distance, true, result.nearest_points[0], result.nearest_points[1]};
  fcl::CollisionRequestd request(1, true);
  fcl::CollisionResultd collision;
  fcl::collide(geometryA.get(), fclPose(a), geometryB.get(), fclPose(b), request, collision);
  const double depth = collision.numContacts() > 0 ? collision.getContact(0).penetration_depth : 0.0;
  return {-depth, false, Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()};
}
} // namespace nao::collision::test
