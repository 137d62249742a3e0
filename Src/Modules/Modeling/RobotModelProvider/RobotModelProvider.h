#pragma once
// Forward kinematics of the measured posture: every limb's pose, the soles and the centre of mass in the
// torso frame.
#include "Framework/Module.h"
#include "Representations/Modeling/RobotModel.h"
#include "Representations/Sensing/JointSensorData.h"
#include "Tools/Kinematics/Data.h"
#include "Tools/Kinematics/Model.h"

namespace nao
{
class RobotModelProvider : public Module<RobotModelProvider, Requires<JointSensorData>, Provides<RobotModel>>
{
public:
  RobotModelProvider();
  void update(RobotModel& robotModel);

private:
  kinematics::Model model_;
  kinematics::Data data_;
  Eigen::VectorXd q_;        ///< rad, LoLA order; the last finite measurement of each joint
  JointArray<int> bodies_;   ///< body moved by each joint
  int leftSole_, rightSole_; ///< link indices
};
} // namespace nao
