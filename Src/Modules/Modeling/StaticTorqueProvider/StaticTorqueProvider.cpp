#include "Modules/Modeling/StaticTorqueProvider/StaticTorqueProvider.h"
#include "Tools/Kinematics/Data.h"
#include "Tools/Kinematics/ForwardKinematics.h"
#include "Tools/Kinematics/FsrContact.h"
#include "Tools/Kinematics/StaticTorques.h"
#include <cmath>
#include <limits>

namespace nao
{
namespace
{
/// The second evaluator beside the Eigen one: the chosen backend, or `automatic` while Eigen is chosen, so
/// that the JIT is compiled and ready if the backend is switched live.
kinematics::EvaluatorOptions switchable(const StaticTorqueParameters& parameters)
{
  const auto backend = parameters.backend == kinematics::KinematicsBackend::eigen
                           ? kinematics::KinematicsBackend::automatic
                           : parameters.backend;
  return {backend, parameters.allowAvx2};
}
} // namespace

struct StaticTorqueProvider::State
{
  State(const kinematics::Model& model, const StaticTorqueParameters& parameters)
      : data(model), feet(kinematics::FeetSupport::fromLinks(model)),
        layout(kinematics::naoFsrLayout(model, feet)),
        eigen(model, feet, {kinematics::KinematicsBackend::eigen, false}),
        compiled(model, feet, switchable(parameters)), q(Eigen::VectorXd::Zero(model.coordinateCount())),
        tau(Eigen::VectorXd::Zero(model.coordinateCount()))
  {
  }

  kinematics::Data data; ///< poses for the centre-of-mass fallback of the contact estimate (Eigen, only then)
  kinematics::FeetSupport feet;
  kinematics::FsrLayout layout;
  kinematics::FsrContactParameters contactParameters;
  // Both are built at start-up (the JIT compiles once), so a live switch of the backend allocates nothing.
  kinematics::StaticTorqueEvaluator eigen;
  kinematics::StaticTorqueEvaluator compiled;
  kinematics::StaticTorqueEvaluator* evaluator = nullptr;
  Eigen::VectorXd q;   ///< rad, LoLA order
  Eigen::VectorXd tau; ///< N·m, LoLA order
};

StaticTorqueProvider::StaticTorqueProvider(const ModuleContext& context)
    : Module(context), state_(std::make_unique<State>(loaded<RobotDescription>().model, params()))
{
  onParametersChanged();
}

StaticTorqueProvider::~StaticTorqueProvider() = default;

void StaticTorqueProvider::onParametersChanged()
{
  kinematics::FsrContactParameters& contact = state_->contactParameters;
  contact.minimumReading = params().minimumReading;
  contact.maximumReading = params().maximumReading;
  contact.liftedFraction = params().liftedFraction;
  contact.minimumPlausibleFraction = params().minimumPlausibleFraction;
  contact.maximumPlausibleFraction = params().maximumPlausibleFraction;
  contact.minimumSoleFraction = params().minimumSoleFraction;
  state_->evaluator =
      params().backend == kinematics::KinematicsBackend::eigen ? &state_->eigen : &state_->compiled;
}

void StaticTorqueProvider::update(JointTorques& torques)
{
  const kinematics::Model& model = loaded<RobotDescription>().model;
  State& state = *state_;
  const JointSensorData& joints = get<JointSensorData>();
  for (std::size_t j = 0; j < numOfJoints; ++j)
    if (std::isfinite(joints.angles[j])) state.q[static_cast<Eigen::Index>(j)] = joints.angles[j];

  // Gravity in the torso frame from the torso's roll and pitch (torso = Ry(pitch) * Rx(roll) in the world): LoLA's
  // Angles (the IMU board's own filter) while SensorHealth trusts them and they agree with the filtered orientation
  // (InertialData, from gyroscope and accelerometer: an independent estimate); else the filter's. Angles stuck at
  // 1.5 rad lowered smart stiffness's limits on a standing robot before.
  const InertialData& inertial = get<InertialData>();
  const SensorHealth& health = get<SensorHealth>();
  const std::array<float, 2>& lola = get<InertialSensorData>().angles;
  const bool lolaFinite = std::isfinite(lola[0]) && std::isfinite(lola[1]);
  const bool filterFinite =
      inertial.valid && std::isfinite(inertial.angles[0]) && std::isfinite(inertial.angles[1]);
  const bool lolaAgrees =
      !filterFinite || (std::abs(lola[0] - inertial.angles[0]) <= params().anglesAgreement &&
                        std::abs(lola[1] - inertial.angles[1]) <= params().anglesAgreement);
  const bool useLola = lolaFinite && health[Sensor::imuAngles].trusted() && lolaAgrees;
  if (!useLola && !filterFinite)
  {
    torques.valid = false; // keep the last torques: an IMU glitch must not make the output jump
    return;
  }
  const std::array<float, 2>& angles = useLola ? lola : inertial.angles;
  const double roll = angles[0], pitch = angles[1], g = params().gravity;
  const Eigen::Vector3d gravity(g * std::sin(pitch), -g * std::cos(pitch) * std::sin(roll),
                                -g * std::cos(pitch) * std::cos(roll));

  const FsrSensorData& fsr = get<FsrSensorData>();
  std::array<float, kinematics::fsrCount> readings = {
      fsr.left.readings[0],  fsr.left.readings[1],  fsr.left.readings[2],  fsr.left.readings[3],
      fsr.right.readings[0], fsr.right.readings[1], fsr.right.readings[2], fsr.right.readings[3]};
  // A foot whose FSRs SensorHealth distrusts (suspect or failed) measures nothing: the contact estimate takes the
  // robot to stand (comProjection), never to be lifted. A one-frame glitch is the estimate's own per-reading check.
  if (!health[Sensor::leftFsr].valid() || !health[Sensor::rightFsr].valid())
    readings.fill(std::numeric_limits<float>::quiet_NaN());
  kinematics::ContactEstimate contact = kinematics::estimateContact(
      model, state.data, gravity, state.feet, state.layout, readings, state.contactParameters);
  if (contact.model == kinematics::ContactModel::comProjection)
  {
    // Only this fallback looks at the posture (where the centre of mass lies between the soles): compute it
    // now.
    kinematics::updateBodyPoses(model, state.data, state.q);
    kinematics::updateCenterOfMass(model, state.data);
    contact = kinematics::estimateContact(model, state.data, gravity, state.feet, state.layout, readings,
                                          state.contactParameters);
  }
  if (contact.model == kinematics::ContactModel::noContact)
    state.evaluator->gravityTorques(state.q, gravity, state.tau); // lifted: a fixed torso
  else
    state.evaluator->standingTorques(state.q, gravity, contact.soles, state.tau);

  for (std::size_t j = 0; j < numOfJoints; ++j)
    torques.torques[j] = static_cast<float>(state.tau[static_cast<Eigen::Index>(j)]);
  static_assert(streams::enumNamesOf<kinematics::ContactModel> == streams::enumNamesOf<SupportModel>,
                "the cast below needs the same enumerators in the same order");
  torques.supportModel = static_cast<SupportModel>(contact.model);
  torques.footLoad = {static_cast<float>(contact.normalForce[0]), static_cast<float>(contact.normalForce[1])};
  torques.gravity = {static_cast<float>(gravity.x()), static_cast<float>(gravity.y()),
                     static_cast<float>(gravity.z())};
  torques.valid = true;
  torques.sensorsTrusted = health[Sensor::leftFsr].valid() && health[Sensor::rightFsr].valid() &&
                           health[Sensor::accelerometer].valid();
}

MAKE_MODULE(StaticTorqueProvider);
} // namespace nao
