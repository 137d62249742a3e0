#pragma once
// The torque every motor must produce to hold the measured posture: gravity, with the torso carried by the
// soles as the FSRs say (scaled to the robot's weight). When the FSRs contradict gravity (lifted, broken
// sensor) a stated fallback is used and named in JointTorques::supportModel.
#include "Framework/Module.h"
#include "Modules/Modeling/Common/NaoRobotDescription.h"
#include "Representations/Modeling/JointTorques.h"
#include "Representations/Modeling/RobotModel.h"
#include "Representations/Sensing/FsrSensorData.h"
#include "Representations/Sensing/InertialSensorData.h"
#include "Representations/Sensing/JointSensorData.h"
#include "Tools/Kinematics/Data.h"
#include "Tools/Kinematics/FsrContact.h"
#include "Tools/Kinematics/StaticTorques.h"

namespace nao
{
struct StaticTorqueParameters
{
  float minimumReading = -0.1f; ///< kg; a reading below this (or NaN) marks the sensor broken
  float maximumReading = 10.f;  ///< kg; above this the sensor is broken (its range is 0..25 N)
  float liftedFraction = 0.15f; ///< FSR total / robot mass below this: lifted (no contact)
  float minimumPlausibleFraction =
      0.4f; ///< FSR total / robot mass below this, not lifted: CoM-projection fallback
  float maximumPlausibleFraction = 2.5f; ///< FSR total / robot mass above this: CoM-projection fallback
  float minimumSoleFraction = 0.02f; ///< a sole carrying less gets its centre of pressure at the sole origin
  float gravity = 9.81f;             ///< m/s²
  KinematicsBackendChoice backend =
      KinematicsBackendChoice::automatic; ///< JIT, Eigen, or the JIT where it runs
  bool allowAvx2 = true; ///< false: the JIT's SSE4.1 code, as on the NAO V6's Atom (for comparisons)

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& streams::field("minimumReading", minimumReading).range(-5.0, 0.0);
    ar& streams::field("maximumReading", maximumReading).range(1.0, 100.0);
    ar& streams::field("liftedFraction", liftedFraction).range(0.0, 1.0);
    ar& streams::field("minimumPlausibleFraction", minimumPlausibleFraction).range(0.0, 1.0);
    ar& streams::field("maximumPlausibleFraction", maximumPlausibleFraction).range(1.0, 10.0);
    ar& streams::field("minimumSoleFraction", minimumSoleFraction).range(0.0, 0.5);
    ar& streams::field("gravity", gravity).range(9.0, 10.0);
    ar& streams::field("backend", backend) & streams::field("allowAvx2", allowAvx2);
  }
};

class StaticTorqueProvider
    : public Module<StaticTorqueProvider,
                    Requires<JointSensorData, RobotModel, FsrSensorData, InertialSensorData>,
                    Provides<JointTorques>, Parameters<StaticTorqueParameters>>
{
public:
  StaticTorqueProvider();
  void update(JointTorques& torques);

private:
  void onParametersChanged() override;

  kinematics::Model model_;
  kinematics::Data
      data_; ///< poses for the centre-of-mass fallback of the contact estimate (Eigen, only then)
  kinematics::FeetSupport feet_;
  kinematics::FsrLayout layout_;
  kinematics::FsrContactParameters contactParameters_;
  // Both are built at start-up (the JIT compiles once), so a live switch of the backend allocates nothing.
  kinematics::StaticTorqueEvaluator eigen_;
  kinematics::StaticTorqueEvaluator compiled_;
  kinematics::StaticTorqueEvaluator* evaluator_ = nullptr;
  Eigen::VectorXd q_;   ///< rad, LoLA order
  Eigen::VectorXd tau_; ///< N·m, LoLA order
};
} // namespace nao
