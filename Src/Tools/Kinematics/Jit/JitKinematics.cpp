#include "Tools/Kinematics/Jit/JitKinematics.h"

#include "Tools/Kinematics/Jit/SinCos.h"

#include <cassert>
#include <cstring>
#include <immintrin.h>
#include <stdexcept>

namespace nao::kinematics::jit
{
namespace
{
using KernelId = CompiledModel::KernelId;
using ConstVectorMap = Eigen::Map<const Eigen::Vector3d>;
using ConstRotationMap = Eigen::Map<const Eigen::Matrix3d, 0, Eigen::OuterStride<vectorStride>>;

/// Sines and cosines of the distinct revolute joint values.
void prepareAngles(const CompiledModel& compiled, Workspace& workspace, const JointVector& q)
{
  assert(q.size() == compiled.model().coordinateCount());
  const Layout& layout = compiled.layout();
  if (layout.angleCount == 0) return;
  double* values = workspace.values();
  jointSinCos(compiled.instructionSet(), q.data(), layout.angleCoordinates.data(),
              layout.angleMultipliers.data(), layout.angleOffsets.data(), values + layout.sines,
              values + layout.cosines, layout.angleCapacity);
}

/// (x, y) and (z, 0) as two 16-byte stores, the way the generated code loads them (store forwarding).
void storeHalves(double* destination, const Eigen::Vector3d& value)
{
  _mm_storeu_pd(destination, _mm_set_pd(value.y(), value.x()));
  _mm_storeu_pd(destination + 2, _mm_set_pd(0.0, value.z()));
}

void prepareGravity(const CompiledModel& compiled, Workspace& workspace, const Eigen::Vector3d& gravity)
{
  storeHalves(workspace.values() + compiled.layout().inputs, gravity);
}

void prepareContacts(const CompiledModel& compiled, Workspace& workspace,
                     std::span<const ContactWrench> contacts)
{
  const Layout& layout = compiled.layout();
  // The code is specialised to its contact links: anything else would silently give wrong torques.
  bool matching = contacts.size() == layout.contactLinks.size();
  for (std::size_t c = 0; matching && c < contacts.size(); ++c)
    matching = contacts[c].link == layout.contactLinks[c];
  if (!matching)
    throw std::invalid_argument("contact wrenches must act on the compiled contact links, in their order");
  for (std::size_t c = 0; c < contacts.size(); ++c)
  {
    double* destination = workspace.values() + layout.contactInput(c);
    storeHalves(destination, contacts[c].point);
    storeHalves(destination + vectorStride, contacts[c].force);
    storeHalves(destination + 2 * vectorStride, contacts[c].moment);
  }
}

void run(const CompiledModel& compiled, Workspace& workspace, KernelId id, const double* q, double* tau)
{
  compiled.kernel(id)(q, workspace.values(), tau);
}
} // namespace

void updateBodyPoses(const CompiledModel& compiled, Workspace& workspace, const JointVector& q)
{
  prepareAngles(compiled, workspace, q);
  run(compiled, workspace, KernelId::bodyPoses, q.data(), nullptr);
}

void forwardKinematics(const CompiledModel& compiled, Workspace& workspace, const JointVector& q)
{
  prepareAngles(compiled, workspace, q);
  run(compiled, workspace, KernelId::forwardKinematics, q.data(), nullptr);
}

void forwardKinematicsAndCenterOfMass(const CompiledModel& compiled, Workspace& workspace,
                                      const JointVector& q)
{
  prepareAngles(compiled, workspace, q);
  run(compiled, workspace, KernelId::forwardKinematicsAndCenterOfMass, q.data(), nullptr);
}

Eigen::Vector3d updateCenterOfMass(const CompiledModel& compiled, Workspace& workspace, const JointVector& q)
{
  prepareAngles(compiled, workspace, q);
  run(compiled, workspace, KernelId::centerOfMass, q.data(), nullptr);
  return centerOfMass(compiled, workspace);
}

void computeGravityTorques(const CompiledModel& compiled, Workspace& workspace, const JointVector& q,
                           const Eigen::Vector3d& gravity, TorqueVector tau)
{
  assert(tau.size() == compiled.model().coordinateCount());
  prepareAngles(compiled, workspace, q);
  prepareGravity(compiled, workspace, gravity);
  run(compiled, workspace, KernelId::gravityTorques, q.data(), tau.data());
}

void computeStaticTorques(const CompiledModel& compiled, Workspace& workspace, const JointVector& q,
                          const Eigen::Vector3d& gravity, std::span<const ContactWrench> contacts,
                          TorqueVector tau)
{
  assert(tau.size() == compiled.model().coordinateCount());
  prepareAngles(compiled, workspace, q);
  prepareGravity(compiled, workspace, gravity);
  prepareContacts(compiled, workspace, contacts);
  run(compiled, workspace, KernelId::staticTorques, q.data(), tau.data());
}

void computeStandingTorques(const CompiledModel& compiled, Workspace& workspace, const JointVector& q,
                            const Eigen::Vector3d& gravity, const FeetSupport& feet, const SoleLoads& loads,
                            TorqueVector tau, SoleWrenches* wrenches)
{
  const Model& model = compiled.model();
  updateCenterOfMass(compiled, workspace, q);
  // The Eigen balancing reads the soles' body poses and the centre of mass; hand it just those.
  Data& scratch = workspace.balanceScratch();
  for (const int sole : {feet.leftSole, feet.rightSole})
  {
    const int body = model.link(sole).body;
    scratch.bodyPoses[static_cast<std::size_t>(body)] = bodyPose(compiled, workspace, body);
  }
  scratch.centerOfMass = centerOfMass(compiled, workspace);
  const SoleWrenches balanced = balanceSoleWrenches(model, scratch, gravity, feet, loads);
  prepareGravity(compiled, workspace, gravity);
  prepareContacts(compiled, workspace, balanced);
  run(compiled, workspace, KernelId::torquesFromStoredPoses, q.data(), tau.data());
  if (wrenches) *wrenches = balanced;
}

math::Pose bodyPose(const CompiledModel& compiled, const Workspace& workspace, int body)
{
  const double* pose = workspace.values() + compiled.layout().bodyPose[static_cast<std::size_t>(body)];
  return {ConstRotationMap(pose), ConstVectorMap(pose + 3 * vectorStride)};
}

math::Pose linkPose(const CompiledModel& compiled, const Workspace& workspace, int link)
{
  const Layout& layout = compiled.layout();
  const std::size_t index = static_cast<std::size_t>(link);
  return {ConstRotationMap(workspace.values() + layout.linkRotationColumns[index]),
          ConstVectorMap(workspace.values() + layout.linkTranslation[index])};
}

Eigen::Vector3d jointAxis(const CompiledModel& compiled, const Workspace& workspace, int body)
{
  return ConstVectorMap(workspace.values() + compiled.layout().jointAxis[static_cast<std::size_t>(body)]);
}

Eigen::Vector3d centerOfMass(const CompiledModel& compiled, const Workspace& workspace)
{
  return ConstVectorMap(workspace.values() + compiled.layout().centerOfMass);
}

math::Pose linkPoseFromBody(const CompiledModel& compiled, const Workspace& workspace, int link)
{
  const Link& l = compiled.model().link(link);
  const math::Pose body = bodyPose(compiled, workspace, l.body);
  if (l.placementIsIdentity) return body;
  if (l.placementRotationIsIdentity) return {body.rotation, body * l.placement.translation};
  return body * l.placement;
}

void computePointJacobian(const CompiledModel& compiled, const Workspace& workspace, int link,
                          const Eigen::Vector3d& pointInLink, Eigen::Ref<Jacobian> jacobian)
{
  // Raw loops over a precomputed path: Eigen's expression machinery for a dynamic-size Ref, and walking the
  // Model's bodies, cost more than the arithmetic of these few 6-vectors.
  const Layout& layout = compiled.layout();
  const double* values = workspace.values();
  assert(jacobian.cols() == compiled.model().coordinateCount());
  const Link& l = compiled.model().link(link);
  const Eigen::Vector3d local = l.placement * pointInLink;
  const std::size_t body = static_cast<std::size_t>(l.body);
  const double* pose = values + layout.bodyPose[body];
  double p[3];
  for (std::size_t r = 0; r < 3; ++r)
    p[r] = pose[r] * local.x() + pose[vectorStride + r] * local.y() + pose[2 * vectorStride + r] * local.z() +
           pose[3 * vectorStride + r];

  double* columns = jacobian.data();
  const std::size_t stride = static_cast<std::size_t>(jacobian.outerStride());
  const std::size_t count = static_cast<std::size_t>(jacobian.cols());
  if (stride == 6)
    std::memset(columns, 0, 6 * count * sizeof(double));
  else
    for (std::size_t c = 0; c < count; ++c)
      std::memset(columns + c * stride, 0, 6 * sizeof(double));

  for (std::uint32_t s = layout.jacobianPathBegin[body]; s < layout.jacobianPathBegin[body + 1]; ++s)
  {
    // Straight into the column: a temporary 6-vector written by scalar stores and copied with vector loads
    // stalls store forwarding and cost more than everything else here.
    const Layout::JacobianStep& step = layout.jacobianSteps[s];
    const double* a = values + step.axis;
    const double m = step.multiplier;
    const double ax = m * a[0], ay = m * a[1], az = m * a[2];
    double* column = columns + step.column * stride;
    const bool assign = step.firstInColumn;
    if (step.prismatic)
    {
      column[0] = assign ? ax : column[0] + ax;
      column[1] = assign ? ay : column[1] + ay;
      column[2] = assign ? az : column[2] + az;
      continue;
    }
    const double* o = values + step.origin;
    const double dx = p[0] - o[0], dy = p[1] - o[1], dz = p[2] - o[2];
    const double vx = ay * dz - az * dy, vy = az * dx - ax * dz, vz = ax * dy - ay * dx;
    if (assign)
    {
      column[0] = vx;
      column[1] = vy;
      column[2] = vz;
      column[3] = ax;
      column[4] = ay;
      column[5] = az;
    }
    else
    {
      column[0] += vx;
      column[1] += vy;
      column[2] += vz;
      column[3] += ax;
      column[4] += ay;
      column[5] += az;
    }
  }
}

void copyToData(const CompiledModel& compiled, const Workspace& workspace, Data& data, bool withLinks)
{
  const Model& model = compiled.model();
  for (int i = 0; i < model.bodyCount(); ++i)
  {
    data.bodyPoses[static_cast<std::size_t>(i)] = bodyPose(compiled, workspace, i);
    data.jointAxes[static_cast<std::size_t>(i)] = jointAxis(compiled, workspace, i);
  }
  data.centerOfMass = centerOfMass(compiled, workspace);
  if (withLinks)
    for (int l = 0; l < model.linkCount(); ++l)
      data.linkPoses[static_cast<std::size_t>(l)] = linkPose(compiled, workspace, l);
}
} // namespace nao::kinematics::jit
