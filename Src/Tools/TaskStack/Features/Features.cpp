// Task features and their Jacobians (Features.h).
#include "Tools/TaskStack/Features/Features.h"

#include <Eigen/Geometry>
#include <cmath>

namespace nao::taskstack
{
namespace
{
std::size_t index(int i)
{
  return static_cast<std::size_t>(i);
}
} // namespace

Eigen::Vector3d relativePosition(const kinematics::Model& model, const kinematics::Data& data, int link,
                                 const Eigen::Vector3d& pointInLink, int reference, FeatureScratch& scratch,
                                 Eigen::Ref<FeatureJacobian> jacobian)
{
  const math::Pose& linkPose = data.linkPoses[index(link)];
  const math::Pose& referencePose = data.linkPoses[index(reference)];
  const Eigen::Vector3d p = linkPose * pointInLink;
  kinematics::computePointJacobian(model, data, link, pointInLink, scratch.a);
  // The same base-frame point carried rigidly by the reference link.
  kinematics::computePointJacobian(model, data, reference, referencePose.inverse() * p, scratch.b);
  // The difference in place: an expression inside the product would be evaluated into a heap temporary.
  scratch.a.topRows<3>() -= scratch.b.topRows<3>();
  jacobian.noalias() = referencePose.rotation.transpose() * scratch.a.topRows<3>();
  return referencePose.rotation.transpose() * (p - referencePose.translation);
}

Eigen::Matrix3d relativeOrientation(const kinematics::Model& model, const kinematics::Data& data, int link,
                                    int reference, FeatureScratch& scratch,
                                    Eigen::Ref<FeatureJacobian> jacobian)
{
  const Eigen::Matrix3d& referenceRotation = data.linkPoses[index(reference)].rotation;
  kinematics::computePointJacobian(model, data, link, Eigen::Vector3d::Zero(), scratch.a);
  kinematics::computePointJacobian(model, data, reference, Eigen::Vector3d::Zero(), scratch.b);
  scratch.a.bottomRows<3>() -= scratch.b.bottomRows<3>();
  jacobian.noalias() = referenceRotation.transpose() * scratch.a.bottomRows<3>();
  return referenceRotation.transpose() * data.linkPoses[index(link)].rotation;
}

Eigen::Vector3d rotationError(const Eigen::Matrix3d& rotation, const Eigen::Matrix3d& target)
{
  const Eigen::AngleAxisd error(rotation * target.transpose());
  return error.angle() * error.axis();
}

Eigen::Vector3d relativeCenterOfMass(const kinematics::Model& model, const kinematics::Data& data,
                                     int reference, FeatureScratch& scratch,
                                     Eigen::Ref<FeatureJacobian> jacobian)
{
  const double totalMass = model.body(0).subtreeMass;
  auto com = scratch.a.topRows<3>();
  com.setZero();
  for (int i = 1; i < model.bodyCount(); ++i)
  {
    const auto& body = model.body(i);
    const Eigen::Vector3d& axis = data.jointAxes[index(i)];
    const Eigen::Vector3d column =
        body.type == kinematics::JointType::prismatic
            ? Eigen::Vector3d(body.subtreeMass * axis)
            : Eigen::Vector3d(axis.cross(data.subtreeFirstMoments[index(i)] -
                                         body.subtreeMass * data.bodyPoses[index(i)].translation));
    com.col(body.coordinate) += body.multiplier / totalMass * column;
  }
  const math::Pose& referencePose = data.linkPoses[index(reference)];
  kinematics::computePointJacobian(model, data, reference, referencePose.inverse() * data.centerOfMass,
                                   scratch.b);
  com -= scratch.b.topRows<3>();
  jacobian.noalias() = referencePose.rotation.transpose() * com;
  return referencePose.rotation.transpose() * (data.centerOfMass - referencePose.translation);
}

void distanceRow(const kinematics::Model& model, const kinematics::Data& data, int linkA,
                 const Eigen::Vector3d& pointA, int linkB, const Eigen::Vector3d& pointB,
                 const Eigen::Vector3d& normal, FeatureScratch& scratch, Eigen::Ref<Eigen::RowVectorXd> row)
{
  kinematics::computePointJacobian(model, data, linkA, data.linkPoses[index(linkA)].inverse() * pointA,
                                   scratch.a);
  kinematics::computePointJacobian(model, data, linkB, data.linkPoses[index(linkB)].inverse() * pointB,
                                   scratch.b);
  scratch.b.topRows<3>() -= scratch.a.topRows<3>();
  row.noalias() = normal.transpose() * scratch.b.topRows<3>();
}
} // namespace nao::taskstack
