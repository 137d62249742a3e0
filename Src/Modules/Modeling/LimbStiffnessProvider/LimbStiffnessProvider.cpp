// LimbStiffnessProvider: configuration stiffness (Woolfrey et al.) of both arms and legs from the measured angles: p
// along the vertical and the translational stiffness ellipsoid per limb, one forward pass per frame. Why it is built
// this way (the shared forward pass, the vertical, the 3 x 3 ellipsoid, non-finite readings): README.md of this
// folder.
#include "Modules/Modeling/LimbStiffnessProvider/LimbStiffnessProvider.h"
#include "Tools/Stiffness/ChainKinematics.h"
#include "Tools/Stiffness/Metric.h"
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>

namespace nao
{
namespace
{
kinematics::EvaluatorOptions switchable(const LimbStiffnessParameters& parameters)
{
  const auto backend = parameters.backend == kinematics::KinematicsBackend::eigen
                           ? kinematics::KinematicsBackend::automatic
                           : parameters.backend;
  return {backend, parameters.allowAvx2};
}
} // namespace

LimbStiffnessProvider::ChainSpec LimbStiffnessProvider::chainSpec(const kinematics::Model& model, Limb limb)
{
  // Arms end at the gripper point: the origin of the hand joint in the wrist link (the hand joint only opens
  // the hand, about an axis through that point, so the point is fixed in the wrist link).
  const auto gripper = [&](const char* handJoint)
  {
    const Eigen::Vector3d point = model.body(model.findBodyOfJoint(handJoint)).placement.translation;
    return std::array<double, 3>{point.x(), point.y(), point.z()};
  };
  switch (limb)
  {
  case Limb::leftArm:
    return {"torso", "l_wrist", gripper("LHand")};
  case Limb::rightArm:
    return {"torso", "r_wrist", gripper("RHand")};
  case Limb::leftLeg:
    return {"torso", "l_sole", {0.0, 0.0, 0.0}};
  case Limb::rightLeg:
    return {"torso", "r_sole", {0.0, 0.0, 0.0}};
  }
  return {"torso", "torso", {0.0, 0.0, 0.0}};
}

struct LimbStiffnessProvider::State
{
  State(const RobotDescription& robot, const LimbStiffnessParameters& parameters)
      : eigen(robot.model, {kinematics::KinematicsBackend::eigen, false}),
        compiled(robot.model, switchable(parameters)), q(Eigen::VectorXd::Zero(robot.model.coordinateCount()))
  {
    for (std::size_t l = 0; l < numOfLimbs; ++l)
    {
      const ChainSpec spec = chainSpec(robot.model, limbAt(l));
      chains[l].emplace(robot.model, spec.base, spec.tip,
                        Eigen::Vector3d(spec.pointInTip[0], spec.pointInTip[1], spec.pointInTip[2]));
      checkJointsOfLimb(*chains[l], limbAt(l));
      workspaces[l].emplace(*chains[l]);
    }
  }

  /// The chain must move its limb's joints only (q is in LoLA order: a chain joint's coordinate is its Joint), or
  /// LimbStiffness would name another limb's values.
  static void checkJointsOfLimb(const stiffness::Chain& chain, Limb limb)
  {
    for (const stiffness::ChainJoint& joint : chain.joints())
      if (!isJointOf(jointAt(static_cast<std::size_t>(joint.coordinate)), limb))
        throw std::runtime_error("LimbStiffnessProvider: the chain of " +
                                 std::string(streams::enumName(limb)) + " (" + chain.baseLinkName() + " -> " +
                                 chain.tipLinkName() + ") moves joint '" + joint.name +
                                 "', which is not one of that limb's joints");
  }

  kinematics::KinematicsEvaluator eigen;
  kinematics::KinematicsEvaluator compiled;
  kinematics::KinematicsEvaluator* evaluator = nullptr;
  std::array<std::optional<stiffness::Chain>, numOfLimbs> chains;
  std::array<std::optional<stiffness::Workspace>, numOfLimbs> workspaces;
  stiffness::StiffnessQuery query;   ///< direction: the unit vertical; K_c from the parameters
  Eigen::VectorXd q;                 ///< rad, LoLA order; the last finite measurement of each joint
  Eigen::Vector3d up{0.0, 0.0, 1.0}; ///< the last finite vertical
  bool anglesSeen = false, upSeen = false;
};

LimbStiffnessProvider::LimbStiffnessProvider(const ModuleContext& context)
    : Module(context), state_(std::make_unique<State>(loaded<RobotDescription>(), params()))
{
  onParametersChanged();
}

LimbStiffnessProvider::~LimbStiffnessProvider() = default;

void LimbStiffnessProvider::onParametersChanged()
{
  state_->evaluator =
      params().backend == kinematics::KinematicsBackend::eigen ? &state_->eigen : &state_->compiled;
  state_->query.cartesianStiffness.setZero();
  for (int i = 0; i < 6; ++i)
    state_->query.cartesianStiffness(i, i) = params().cartesianStiffness[static_cast<std::size_t>(i)];
}

void LimbStiffnessProvider::update(LimbStiffness& limbStiffness)
{
  State& s = *state_;
  const JointSensorData& joints = get<JointSensorData>();
  bool allFinite = true;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    if (std::isfinite(joints.angles[j]))
      s.q[static_cast<Eigen::Index>(j)] = joints.angles[j];
    else
      allFinite = false;
  }
  s.anglesSeen = s.anglesSeen || allFinite;
  const auto& angles = get<InertialSensorData>().angles;
  if (std::isfinite(angles[0]) && std::isfinite(angles[1]))
  {
    // Against gravity in the torso frame, torso = Ry(pitch) Rx(roll) in the world (StaticTorqueProvider).
    const double roll = angles[0], pitch = angles[1];
    s.up =
        Eigen::Vector3d(-std::sin(pitch), std::cos(pitch) * std::sin(roll), std::cos(pitch) * std::cos(roll));
    s.upSeen = true;
  }
  s.query.direction << s.up, 0.0, 0.0, 0.0;

  s.evaluator->update(s.q);
  for (std::size_t l = 0; l < numOfLimbs; ++l)
  {
    const stiffness::Chain& chain = *s.chains[l];
    stiffness::Workspace& workspace = *s.workspaces[l];
    stiffness::updateChainFromPoses(chain, workspace, s.q, *s.evaluator);
    LimbEllipsoid& out = limbStiffness.limbs[l];
    out.verticalMetric = static_cast<float>(stiffness::computeMetric(chain, workspace, s.query));
    const stiffness::TranslationalEllipsoid ellipsoid =
        stiffness::computeTranslationalEllipsoid(workspace, s.query.cartesianStiffness);
    for (int i = 0; i < 3; ++i)
    {
      out.values[static_cast<std::size_t>(i)] = static_cast<float>(ellipsoid.values[i]);
      out.endpoint[static_cast<std::size_t>(i)] = static_cast<float>(workspace.tipPoint[i]);
      for (int c = 0; c < 3; ++c)
        out.vectors[static_cast<std::size_t>(3 * i + c)] = static_cast<float>(ellipsoid.vectors(i, c));
    }
  }
  for (int i = 0; i < 3; ++i)
    limbStiffness.up[static_cast<std::size_t>(i)] = static_cast<float>(s.up[i]);
  limbStiffness.valid = s.anglesSeen && s.upSeen;
}

MAKE_MODULE(LimbStiffnessProvider);
} // namespace nao
