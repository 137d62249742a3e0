#pragma once
// Forward kinematics of the measured posture: every limb's pose, the soles and the centre of mass in the
// torso frame; and the joints' ranges from the same robot description.
#include "Framework/Module.h"
#include "Framework/RobotDescription.h"
#include "Representations/Modeling/JointLimits.h"
#include "Representations/Modeling/RobotModel.h"
#include "Representations/Sensing/JointSensorData.h"
#include "Tools/Kinematics/Evaluators.h"
#include <memory>

namespace nao
{
struct RobotModelParameters
{
  kinematics::KinematicsBackend backend = kinematics::KinematicsBackend::automatic;
  bool allowAvx2 = true;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& streams::field("backend", backend).doc("JIT, Eigen, or automatic: the JIT where it runs");
    ar& streams::field("allowAvx2", allowAvx2)
        .doc("false: the JIT's SSE4.1 code, as on the NAO V6's Atom (for comparisons)");
  }
};

class RobotModelProvider : public Module<RobotModelProvider,                //
                                         Requires<JointSensorData>,         //
                                         Provides<RobotModel, JointLimits>, //
                                         Parameters<RobotModelParameters>,  //
                                         Loads<RobotDescription>>
{
public:
  explicit RobotModelProvider(const ModuleContext& context);
  ~RobotModelProvider() override;
  void update(RobotModel& robotModel, JointLimits& limits);

private:
  void updateModel(RobotModel& robotModel);
  void updateLimits(JointLimits& limits);
  void onParametersChanged() override;

  struct State;
  std::unique_ptr<State> state_; ///< evaluators and the last good posture (RobotModelProvider.cpp)
};
} // namespace nao
