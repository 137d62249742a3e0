#include "Modules/Modeling/StaticTorqueProvider/StaticTorqueProvider.h"
#include "Modules/Modeling/Common/NaoRobotDescription.h"
#include "Tools/Kinematics/ForwardKinematics.h"
#include <cmath>

namespace nao
{
StaticTorqueProvider::StaticTorqueProvider()
    : model_(loadNaoModel()), data_(model_), feet_(kinematics::FeetSupport::fromLinks(model_)),
      layout_(kinematics::naoFsrLayout(model_, feet_)),
      eigen_(model_, feet_, evaluatorOptions(KinematicsBackendChoice::eigen, false)),
      compiled_(model_, feet_, switchableEvaluatorOptions(params().backend, params().allowAvx2)),
      q_(Eigen::VectorXd::Zero(model_.coordinateCount())),
      tau_(Eigen::VectorXd::Zero(model_.coordinateCount()))
{
  onParametersChanged();
}

void StaticTorqueProvider::onParametersChanged()
{
  contactParameters_.minimumReading = params().minimumReading;
  contactParameters_.maximumReading = params().maximumReading;
  contactParameters_.liftedFraction = params().liftedFraction;
  contactParameters_.minimumPlausibleFraction = params().minimumPlausibleFraction;
  contactParameters_.maximumPlausibleFraction = params().maximumPlausibleFraction;
  contactParameters_.minimumSoleFraction = params().minimumSoleFraction;
  evaluator_ = params().backend == KinematicsBackendChoice::eigen ? &eigen_ : &compiled_;
}

void StaticTorqueProvider::update(JointTorques& torques)
{
  const JointSensorData& joints = get<JointSensorData>();
  for (std::size_t j = 0; j < numOfJoints; ++j)
    if (std::isfinite(joints.angles[j])) q_[static_cast<Eigen::Index>(j)] = joints.angles[j];

  // Gravity in the torso frame from the torso's roll and pitch (torso = Ry(pitch) * Rx(roll) in the world).
  const auto& angles = get<InertialSensorData>().angles;
  if (!std::isfinite(angles[0]) || !std::isfinite(angles[1]))
  {
    torques.valid = false; // keep the last torques: an IMU glitch must not make the output jump
    return;
  }
  const double roll = angles[0], pitch = angles[1], g = params().gravity;
  const Eigen::Vector3d gravity(g * std::sin(pitch), -g * std::cos(pitch) * std::sin(roll),
                                -g * std::cos(pitch) * std::cos(roll));

  const FsrSensorData& fsr = get<FsrSensorData>();
  const std::array<float, kinematics::fsrCount> readings = {
      fsr.left.readings[0],  fsr.left.readings[1],  fsr.left.readings[2],  fsr.left.readings[3],
      fsr.right.readings[0], fsr.right.readings[1], fsr.right.readings[2], fsr.right.readings[3]};
  kinematics::ContactEstimate contact =
      kinematics::estimateContact(model_, data_, gravity, feet_, layout_, readings, contactParameters_);
  if (contact.model == kinematics::ContactModel::comProjection)
  {
    // Only this fallback looks at the posture (where the centre of mass lies between the soles): compute it
    // now.
    kinematics::updateBodyPoses(model_, data_, q_);
    kinematics::updateCenterOfMass(model_, data_);
    contact =
        kinematics::estimateContact(model_, data_, gravity, feet_, layout_, readings, contactParameters_);
  }
  if (contact.model == kinematics::ContactModel::noContact)
    evaluator_->gravityTorques(q_, gravity, tau_); // lifted: a fixed torso
  else
    evaluator_->standingTorques(q_, gravity, contact.soles, tau_);

  for (std::size_t j = 0; j < numOfJoints; ++j)
    torques.torques[j] = static_cast<float>(tau_[static_cast<Eigen::Index>(j)]);
  static_assert(static_cast<int>(kinematics::ContactModel::noContact) ==
                static_cast<int>(SupportModel::noContact));
  torques.supportModel = static_cast<SupportModel>(contact.model);
  torques.footLoad = {static_cast<float>(contact.normalForce[0]), static_cast<float>(contact.normalForce[1])};
  torques.gravity = {static_cast<float>(gravity.x()), static_cast<float>(gravity.y()),
                     static_cast<float>(gravity.z())};
  torques.valid = true;
}

MAKE_MODULE(StaticTorqueProvider);
} // namespace nao
