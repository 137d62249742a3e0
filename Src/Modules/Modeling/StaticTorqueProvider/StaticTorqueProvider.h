#pragma once
// The torque every motor must produce to hold the measured posture: gravity (its direction from LoLA's Angles while
// SensorHealth trusts them and they agree with the filtered orientation, InertialData; else the filter's), with the
// torso carried by the soles as the FSRs say (scaled to the robot's weight). When the FSRs contradict gravity
// (lifted, broken sensor) or SensorHealth distrusts a foot's FSRs, a stated fallback is used and named in
// JointTorques::supportModel: a dead sensor never makes the robot "lifted".
#include "Framework/Module.h"
#include "Framework/RobotDescription.h"
#include "Modules/Modeling/StaticTorqueProvider/StaticTorqueParameters.h"
#include "Representations/Modeling/JointTorques.h"
#include "Representations/Modeling/RobotModel.h"
#include "Representations/Sensing/FsrSensorData.h"
#include "Representations/Sensing/InertialData.h"
#include "Representations/Sensing/InertialSensorData.h"
#include "Representations/Sensing/JointSensorData.h"
#include "Representations/Sensing/SensorHealth.h"
#include <memory>

namespace nao
{
class StaticTorqueProvider
    : public Module<StaticTorqueProvider,
                    Requires<JointSensorData, RobotModel, FsrSensorData, InertialSensorData, InertialData,
                             SensorHealth>,
                    Provides<JointTorques>, Parameters<StaticTorqueParameters>, Loads<RobotDescription>>
{
public:
  explicit StaticTorqueProvider(const ModuleContext& context);
  ~StaticTorqueProvider() override;
  void update(JointTorques& torques);

private:
  void onParametersChanged() override;

  struct State;
  std::unique_ptr<State> state_; ///< evaluators, contact model and workspaces (StaticTorqueProvider.cpp)
};
} // namespace nao
