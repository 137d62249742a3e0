// SelfCollisionProvider: the velocity-damper QP of NAOqi's self-collision avoidance (seed 001) on the spheres and
// capsules of selfCollision.toml. Each frame it finds the protected pairs near the body, linearises them at the
// request sent last frame and solves a small QP that keeps every protected chain out of the body and otherwise
// follows the request. Every choice and why (reference posture, limp joints, which pairs become rows, infeasible
// frames): README.md of this folder.
#include "Modules/MotionControl/SelfCollisionProvider/SelfCollisionProvider.h"
#include "Tools/Collision/BodyDistances.h"
#include "Tools/Collision/BodyOnModel.h"
#include "Tools/Kinematics/Evaluators.h"
#include "Tools/Optimization/QpSolver.h"
#include "Tools/Streams/ConfigError.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace nao
{
namespace
{
enum ChainBit : std::uint8_t
{
  head = 1,
  lArm = 2,
  rArm = 4,
  lLeg = 8,
  rLeg = 16
};

/// The chains a joint belongs to: its limbs' (isJointOf; the one hip-yaw-pitch motor moves both legs), or the head.
std::uint8_t chainOfJoint(std::size_t j)
{
  constexpr LimbArray<ChainBit> limbChains{{lArm, rArm, lLeg, rLeg}};
  const Joint joint = jointAt(j);
  if (isHeadJoint(joint)) return head;
  std::uint8_t chains = 0;
  for (std::size_t l = 0; l < numOfLimbs; ++l)
    if (isJointOf(joint, limbAt(l))) chains = static_cast<std::uint8_t>(chains | limbChains[l]);
  return chains;
}

std::uint8_t protectedMask(const SelfCollisionProtection& p)
{
  return static_cast<std::uint8_t>((p.Head ? head : 0) | (p.Arms || p.LArm ? lArm : 0) |
                                   (p.Arms || p.RArm ? rArm : 0) | (p.LLeg ? lLeg : 0) | (p.RLeg ? rLeg : 0));
}
} // namespace

struct SelfCollisionProvider::State
{
  State(const RobotDescription& robot, const SelfCollisionShapes& file)
      : model(robot.model), atReference(model), atRequest(model),
        onModel(collision::bodyOnModel(model, file)), distances(body), desiredDistances(body),
        poses(modelLinks.size()), n(model.coordinateCount()), jacobianA(6, n), jacobianB(6, n),
        hessian(Eigen::MatrixXd::Zero(n, n)), gradient(n),
        inequality(Eigen::MatrixXd::Zero(body.pairCount() + 2 * n, n)), bound(body.pairCount() + 2 * n),
        equality(0, n), equalityBound(0), qRef(n), qDesired(n), target(n), row(n),
        solver({static_cast<int>(n), 0, static_cast<int>(body.pairCount() + 2 * n)})
  {
    if (n != static_cast<Eigen::Index>(numOfJoints))
      throw std::runtime_error("SelfCollisionProvider: the robot description has no LoLA joint order");
    if (body.pairCount() > static_cast<int>(SelfCollision::maxPairs) || body.shapeCount() > 255)
      throw std::runtime_error("selfCollision.toml: more than " + std::to_string(SelfCollision::maxPairs) +
                               " pairs or 255 shapes");
    for (std::size_t j = 0; j < numOfJoints; ++j)
      jointLower[j] = robot.limits(j).bounded ? robot.limits(j).lower : -1e9,
      jointUpper[j] = robot.limits(j).bounded ? robot.limits(j).upper : 1e9;
    for (const collision::LinkShape& shape : body.shapes())
    {
      const int coordinate =
          model.body(model.link(modelLinks[static_cast<std::size_t>(shape.link)]).body).coordinate;
      shapeChain.push_back(coordinate < 0 ? 0 : chainOfJoint(static_cast<std::size_t>(coordinate)));
    }
    for (const collision::ShapePair& pair : body.pairs())
    {
      const std::uint8_t chains =
          static_cast<std::uint8_t>(shapeChain[static_cast<std::size_t>(pair.shapeA)] |
                                    shapeChain[static_cast<std::size_t>(pair.shapeB)]);
      pairChains.push_back(chains);
    }
    rowPair.resize(static_cast<std::size_t>(body.pairCount()));
  }

  const kinematics::Model& model;
  // One evaluator per posture (the JIT where it runs): the Jacobians need the reference's after the request's.
  kinematics::KinematicsEvaluator atReference, atRequest;
  collision::BodyOnModel onModel;
  const std::vector<int>& modelLinks = onModel.modelLinks; ///< dense link index -> model link index
  const collision::BodyModel& body = onModel.body;
  collision::BodyData distances;        ///< at the reference posture
  collision::BodyData desiredDistances; ///< at the requested posture
  std::vector<math::Pose> poses;        ///< per dense link, base frame
  Eigen::Index n;                       ///< joints = QP variables (LoLA order)
  kinematics::Jacobian jacobianA, jacobianB;
  Eigen::MatrixXd hessian;
  Eigen::VectorXd gradient;
  Eigen::MatrixXd inequality; ///< A of A x <= b: pair rows, then limit and step rows
  Eigen::VectorXd bound;
  Eigen::MatrixXd equality;
  Eigen::VectorXd equalityBound;
  Eigen::VectorXd qRef;     ///< rad, reference posture
  Eigen::VectorXd qDesired; ///< rad, the request (the reference where a joint cannot follow it)
  Eigen::VectorXd target;   ///< rad, request - qRef
  Eigen::Matrix<double, 1, Eigen::Dynamic> row;
  optimization::QpSolver solver;
  std::vector<std::uint8_t> shapeChain, pairChains; ///< ChainBit masks
  std::vector<int> rowPair;                         ///< pair of each pair row
  JointArray<double> jointLower{}, jointUpper{};    ///< rad
  std::uint8_t protectedChains = 0;

  JointArray<float> lastSent{}; ///< rad, the request sent last frame
  bool haveLastSent = false;
  CollisionFreeJointRequest output;
  SelfCollision result;
};

SelfCollisionProvider::SelfCollisionProvider(const ModuleContext& context)
    : Module(context),
      state_(std::make_unique<State>(loaded<RobotDescription>(), loaded<SelfCollisionShapes>()))
{
  onParametersChanged();
}

SelfCollisionProvider::~SelfCollisionProvider() = default;

void SelfCollisionProvider::onParametersChanged()
{
  state_->protectedChains = protectedMask(params().protection);
}

void SelfCollisionProvider::update(CollisionFreeJointRequest& request, SelfCollision& selfCollision)
{
  computeFrame();
  request = state_->output;
  selfCollision = state_->result;
}

void SelfCollisionProvider::computeFrame()
{
  State& s = *state_;
  const FallSafeJointRequest& request = get<FallSafeJointRequest>();
  SelfCollision& result = s.result;
  s.output = request; // exactly the request unless a constrained chain changes it below
  result.protectedChains = s.protectedChains;
  result.corrections.fill(0.f);
  result.modifiedJoints = 0;
  result.constrainedPairs = result.activePairs = result.iterations = 0;

  const Movable movable = takeReference();
  approachRequest(movable);
  const collision::BodyData& desired = computeDistances();
  std::uint32_t involved = 0; ///< bit j: joint j has a non-zero coefficient in a pair row
  const int pairRows = addPairRows(movable, desired, involved);
  if (pairRows == 0)
    result.status = s.protectedChains == 0 ? SelfCollisionStatus::off : SelfCollisionStatus::free;
  else
    solve(pairRows, pairRows, involved);
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    result.corrections[j] = s.output.angles[j] - request.angles[j];
    if (s.output.angles[j] != request.angles[j] && std::isfinite(request.angles[j]))
      result.modifiedJoints |= 1u << j;
  }
  s.lastSent = s.output.angles;
  s.haveLastSent = true;
}

SelfCollisionProvider::Movable SelfCollisionProvider::takeReference()
{
  State& s = *state_;
  const SelfCollisionParameters& p = params();
  const FallSafeJointRequest& request = get<FallSafeJointRequest>();
  const JointSensorData& measured = get<JointSensorData>();
  Movable movable{};
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const bool stiff = request.stiffnesses[j] >= p.limpStiffness;
    movable[j] =
        stiff && std::isfinite(request.angles[j]) && jointAt(j) != Joint::LHand && jointAt(j) != Joint::RHand;
    float reference =
        stiff && s.haveLastSent && std::isfinite(s.lastSent[j]) ? s.lastSent[j] : measured.angles[j];
    if (!std::isfinite(reference)) reference = std::isfinite(request.angles[j]) ? request.angles[j] : 0.f;
    s.qRef[static_cast<Eigen::Index>(j)] = reference;
  }
  return movable;
}

void SelfCollisionProvider::approachRequest(const Movable& movable)
{
  State& s = *state_;
  const SelfCollisionParameters& p = params();
  const FallSafeJointRequest& request = get<FallSafeJointRequest>();
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const auto c = static_cast<Eigen::Index>(j);
    // A request more than maxStep away (the chain was held, or the request jumped) is approached at maxStep per
    // frame: a jump could carry a chain through the body between two checks.
    const double reference = s.qRef[c];
    if (movable[j] && s.protectedChains != 0 && std::abs(request.angles[j] - reference) > p.maxStep)
      s.output.angles[j] =
          static_cast<float>(reference + std::copysign(p.maxStep, request.angles[j] - reference));
    s.qDesired[c] = movable[j] ? s.output.angles[j] : reference;
  }
}

const collision::BodyData& SelfCollisionProvider::computeDistances()
{
  // Distances at the request first (a pair the request would bring close is constrained even while the
  // reference is still far: no step jumps over the activation band), then at the reference, whose body poses
  // the Jacobians use.
  State& s = *state_;
  const auto distancesAt = [&s](const Eigen::VectorXd& q, kinematics::KinematicsEvaluator& evaluator,
                                collision::BodyData& distances)
  {
    evaluator.update(q);
    for (std::size_t k = 0; k < s.modelLinks.size(); ++k)
      s.poses[k] = evaluator.linkPose(s.modelLinks[k]);
    collision::computeBodyDistances(s.body, distances, s.poses);
  };
  const bool held = s.qDesired == s.qRef; // the request is the reference: the same distances
  if (!held) distancesAt(s.qDesired, s.atRequest, s.desiredDistances);
  distancesAt(s.qRef, s.atReference, s.distances);

  SelfCollision& result = s.result;
  result.pairCount = static_cast<std::uint16_t>(s.body.pairCount());
  result.minDistance = 0.f;
  result.closestPair = static_cast<std::int16_t>(collision::closestPair(s.distances));
  if (result.closestPair >= 0)
    result.minDistance =
        static_cast<float>(s.distances.pairDistances[static_cast<std::size_t>(result.closestPair)].distance);
  return held ? s.distances : s.desiredDistances;
}

int SelfCollisionProvider::addPairRows(const Movable& movable, const collision::BodyData& desired,
                                       std::uint32_t& involved)
{
  // Velocity-damper rows of the close protected pairs: -n^T (J_B - J_A) x <= damping (d - d_safe).
  State& s = *state_;
  const SelfCollisionParameters& p = params();
  SelfCollision& result = s.result;
  int rows = 0;
  for (std::size_t i = 0; i < static_cast<std::size_t>(s.body.pairCount()); ++i)
  {
    const collision::ShapePair& pair = s.body.pairs()[i];
    const collision::ShapeDistance& d = s.distances.pairDistances[i];
    result.distances[i] = static_cast<float>(d.distance);
    result.shapeA[i] = static_cast<std::uint8_t>(pair.shapeA);
    result.shapeB[i] = static_cast<std::uint8_t>(pair.shapeB);
    const bool isProtected = (s.pairChains[i] & s.protectedChains) != 0;
    result.pairState[i] = !isProtected ? PairState::unprotected : PairState::far;
    if (!isProtected ||
        (d.distance >= p.activationDistance && desired.pairDistances[i].distance >= p.activationDistance))
      continue;
    const int linkA = s.body.shapes()[static_cast<std::size_t>(pair.shapeA)].link;
    const int linkB = s.body.shapes()[static_cast<std::size_t>(pair.shapeB)].link;
    const auto ua = static_cast<std::size_t>(linkA), ub = static_cast<std::size_t>(linkB);
    s.atReference.computePointJacobian(s.modelLinks[ua], s.poses[ua].inverse() * d.pointOnA, s.jacobianA);
    s.atReference.computePointJacobian(s.modelLinks[ub], s.poses[ub].inverse() * d.pointOnB, s.jacobianB);
    // Two products, not one of the difference: Eigen would evaluate the difference into a heap temporary.
    s.row.noalias() = -d.normal.transpose() * s.jacobianB.topRows<3>();
    s.row.noalias() += d.normal.transpose() * s.jacobianA.topRows<3>();
    std::uint32_t columns = 0;
    for (std::size_t j = 0; j < numOfJoints; ++j)
    {
      const auto c = static_cast<Eigen::Index>(j);
      if (!movable[j]) s.row[c] = 0.0;
      if (s.row[c] != 0.0) columns |= 1u << j;
    }
    result.pairState[i] = PairState::constrained;
    ++result.constrainedPairs;
    // Nothing can move (both sides limp, or a limp chain against the torso): no row, or an unmeetable one would
    // make every other chain hold too.
    if (columns == 0) continue;
    s.inequality.row(rows) = s.row;
    s.bound[rows] = p.damping * (d.distance - p.safetyDistance);
    s.rowPair[static_cast<std::size_t>(rows)] = static_cast<int>(i);
    involved |= columns;
    ++rows;
  }
  return rows;
}

void SelfCollisionProvider::solve(int pairRows, int rows, std::uint32_t involved)
{
  State& s = *state_;
  const SelfCollisionParameters& p = params();
  const FallSafeJointRequest& request = get<FallSafeJointRequest>();
  SelfCollision& result = s.result;

  // Cost, limits and step bounds. Joints outside every pair row keep weight 1 and no rows: their x is their
  // target, and their request is copied unchanged below anyway.
  s.hessian.setZero();
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const auto c = static_cast<Eigen::Index>(j);
    const bool variable = (involved >> j) & 1u;
    const double weight = variable ? 1.0 / std::max<double>(request.stiffnesses[j], p.limpStiffness) : 1.0;
    s.target[c] = variable ? s.qDesired[c] - s.qRef[c] : 0.0;
    s.hessian(c, c) = weight;
    s.gradient[c] = -weight * s.target[c];
    if (!variable) continue;
    const double upper = std::min(s.jointUpper[j] - s.qRef[c], p.maxStep);
    const double lower = std::max(s.jointLower[j] - s.qRef[c], -p.maxStep);
    s.inequality.row(rows).setZero();
    s.inequality(rows, c) = 1.0;
    s.bound[rows++] = std::max(upper, std::min(lower, 0.0)); // a reference beyond a limit may stay there
    s.inequality.row(rows).setZero();
    s.inequality(rows, c) = -1.0;
    s.bound[rows++] = -std::min(lower, std::max(upper, 0.0));
  }

  const optimization::QpProblem problem{
      s.hessian, s.gradient, s.equality, s.equalityBound, s.inequality.topRows(rows), s.bound.head(rows)};
  const optimization::QpStatus status = s.solver.solve(problem);
  result.iterations = static_cast<std::uint16_t>(s.solver.iterations());
  const bool optimal = status == optimization::QpStatus::optimal;
  result.status = optimal                                        ? SelfCollisionStatus::optimal
                  : status == optimization::QpStatus::infeasible ? SelfCollisionStatus::infeasible
                                                                 : SelfCollisionStatus::failed;
  bool anyActive = false;
  if (optimal)
    for (const int active : s.solver.activeInequalities())
    {
      anyActive = true;
      if (active < pairRows)
      {
        result.pairState[static_cast<std::size_t>(s.rowPair[static_cast<std::size_t>(active)])] =
            PairState::active;
        ++result.activePairs;
      }
    }
  if (!optimal || anyActive) // otherwise the optimum is the request itself: it passes bit for bit
    for (std::size_t j = 0; j < numOfJoints; ++j)
    {
      if (!((involved >> j) & 1u)) continue;
      const auto c = static_cast<Eigen::Index>(j);
      s.output.angles[j] = static_cast<float>(s.qRef[c] + (optimal ? s.solver.solution()[c] : 0.0));
    }
}

MAKE_MODULE(SelfCollisionProvider);
} // namespace nao
