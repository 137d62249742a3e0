#include "Tools/Kinematics/StaticTorques.h"

#include <cassert>

namespace nao::kinematics
{
namespace
{
/// Torques of the fixed-base gravity load from the body poses, and the subtree first moments and the centre
/// of mass on the way: one backward pass, every subtree complete before its root is visited.
void addGravityTorques(const Model& model, Data& data, const Eigen::Vector3d& gravity, TorqueVector tau)
{
  const std::span<const Body> bodies = model.bodies();
  for (std::size_t i = 0; i < bodies.size(); ++i)
    data.subtreeFirstMoments[i] =
        bodies[i].inertial.mass * (data.bodyPoses[i] * bodies[i].inertial.centerOfMass);
  for (std::size_t i = bodies.size() - 1; i > 0; --i)
  {
    const Body& body = bodies[i];
    const Eigen::Vector3d& firstMoment = data.subtreeFirstMoments[i];
    const Eigen::Vector3d& axis = data.jointAxes[i];
    // The subtree's weight acts at its CoM; the motor holds its moment about the axis (dV/dq, V = -m g . c).
    double torque;
    if (body.type == JointType::prismatic)
      torque = -body.subtreeMass * axis.dot(gravity);
    else
      torque = -axis.dot((firstMoment - body.subtreeMass * data.bodyPoses[i].translation).cross(gravity));
    tau[body.coordinate] += body.multiplier * torque;
    data.subtreeFirstMoments[static_cast<std::size_t>(body.parent)] += firstMoment;
  }
  data.centerOfMass = model.totalMass() > 0.0
                          ? Eigen::Vector3d(data.subtreeFirstMoments[0] / model.totalMass())
                          : Eigen::Vector3d::Zero();
}

/// tau -= J^T W for every contact, walking from its link to the base.
void subtractContactTorques(const Model& model, const Data& data, std::span<const ContactWrench> contacts,
                            TorqueVector tau)
{
  for (const ContactWrench& contact : contacts)
  {
    const Eigen::Vector3d momentAboutOrigin = contact.moment + contact.point.cross(contact.force);
    for (int i = model.link(contact.link).body; i > 0; i = model.body(i).parent)
    {
      const Body& body = model.body(i);
      const Eigen::Vector3d& axis = data.jointAxes[static_cast<std::size_t>(i)];
      const double load =
          body.type == JointType::prismatic
              ? axis.dot(contact.force)
              : axis.dot(momentAboutOrigin -
                         data.bodyPoses[static_cast<std::size_t>(i)].translation.cross(contact.force));
      tau[body.coordinate] -= body.multiplier * load;
    }
  }
}
} // namespace

void computeGravityTorques(const Model& model, Data& data, const JointVector& q,
                           const Eigen::Vector3d& gravity, TorqueVector tau)
{
  assert(tau.size() == model.coordinateCount());
  updateBodyPoses(model, data, q);
  tau.setZero();
  addGravityTorques(model, data, gravity, tau);
}

void computeStaticTorques(const Model& model, Data& data, const JointVector& q,
                          const Eigen::Vector3d& gravity, std::span<const ContactWrench> contacts,
                          TorqueVector tau)
{
  computeGravityTorques(model, data, q, gravity, tau);
  subtractContactTorques(model, data, contacts, tau);
}

FeetSupport FeetSupport::fromLinks(const Model& model, std::string_view leftSole, std::string_view rightSole)
{
  return {model.linkIndex(leftSole), model.linkIndex(rightSole)};
}

SoleWrenches balanceSoleWrenches(const Model& model, const Data& data, const Eigen::Vector3d& gravity,
                                 const FeetSupport& feet, const SoleLoads& loads)
{
  const double sum = loads[0].weightFraction + loads[1].weightFraction;
  const std::array<double, 2> fractions =
      sum > 0.0 ? std::array{loads[0].weightFraction / sum, loads[1].weightFraction / sum}
                : std::array{0.5, 0.5};
  const std::array<int, 2> soles{feet.leftSole, feet.rightSole};
  SoleWrenches wrenches;
  Eigen::Vector3d combinedCenterOfPressure = Eigen::Vector3d::Zero();
  for (std::size_t foot = 0; foot < 2; ++foot)
  {
    const math::Pose sole = linkPose(model, data, soles[foot]);
    wrenches[foot].link = soles[foot];
    wrenches[foot].point =
        sole * Eigen::Vector3d(loads[foot].centerOfPressure.x(), loads[foot].centerOfPressure.y(), 0.0);
    wrenches[foot].force = -fractions[foot] * model.totalMass() * gravity;
    combinedCenterOfPressure += fractions[foot] * wrenches[foot].point;
  }
  // Move both CoPs so that the combined one lies on the line of gravity through the CoM (see the header).
  Eigen::Vector3d shift = data.centerOfMass - combinedCenterOfPressure;
  const double gravityNormSquared = gravity.squaredNorm();
  if (gravityNormSquared > 0.0) shift -= (shift.dot(gravity) / gravityNormSquared) * gravity;
  for (ContactWrench& wrench : wrenches)
    wrench.point += shift;
  return wrenches;
}

void computeStandingTorques(const Model& model, Data& data, const JointVector& q,
                            const Eigen::Vector3d& gravity, const FeetSupport& feet, const SoleLoads& loads,
                            TorqueVector tau, SoleWrenches* wrenches)
{
  computeGravityTorques(model, data, q, gravity, tau);
  const SoleWrenches balanced = balanceSoleWrenches(model, data, gravity, feet, loads);
  subtractContactTorques(model, data, balanced, tau);
  if (wrenches) *wrenches = balanced;
}
} // namespace nao::kinematics
