#pragma once
// Forward kinematics of the measured posture: every limb's pose, the soles and the centre of mass in the
// torso frame; and the joints' ranges from the same robot description.
#include "Framework/Module.h"
#include "Modules/Modeling/Common/NaoRobotDescription.h"
#include "Representations/Modeling/JointLimits.h"
#include "Representations/Modeling/RobotModel.h"
#include "Representations/Sensing/JointSensorData.h"

namespace nao
{
struct RobotModelParameters
{
  KinematicsBackendChoice backend =
      KinematicsBackendChoice::automatic; ///< JIT, Eigen, or the JIT where it runs
  bool allowAvx2 = true; ///< false: the JIT's SSE4.1 code, as on the NAO V6's Atom (for comparisons)

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& streams::field("backend", backend) & streams::field("allowAvx2", allowAvx2);
  }
};

class RobotModelProvider : public Module<RobotModelProvider,                //
                                         Requires<JointSensorData>,         //
                                         Provides<RobotModel, JointLimits>, //
                                         Parameters<RobotModelParameters>>
{
public:
  RobotModelProvider();
  void update(RobotModel& robotModel);
  void update(JointLimits& limits);

private:
  void onParametersChanged() override;

  kinematics::Model model_;
  // Both are built at start-up (the JIT compiles once), so a live switch of the backend allocates nothing.
  kinematics::KinematicsEvaluator eigen_;
  kinematics::KinematicsEvaluator compiled_;
  kinematics::KinematicsEvaluator* evaluator_ = nullptr;
  Eigen::VectorXd q_;        ///< rad, LoLA order; the last finite measurement of each joint
  JointArray<int> bodies_;   ///< body moved by each joint
  int leftSole_, rightSole_; ///< link indices
};
} // namespace nao
