// The one place where the listed representations' operations are compiled (RepresentationInstances.h).
#include "Framework/RepresentationInstances.h"
#include "Framework/Representation.h"
#include "Representations/Infrastructure/BatteryData.h"
#include "Representations/Infrastructure/FrameInfo.h"
#include "Representations/Infrastructure/ModuleTimes.h"
#include "Representations/Modeling/FallDownState.h"
#include "Representations/Modeling/JointLimits.h"
#include "Representations/Modeling/JointThermalState.h"
#include "Representations/Modeling/JointTorques.h"
#include "Representations/Modeling/LimbStiffness.h"
#include "Representations/Modeling/RobotModel.h"
#include "Representations/Modeling/ThermalBudget.h"
#include "Representations/MotionControl/EnergySaving.h"
#include "Representations/MotionControl/EnergySavingRequest.h"
#include "Representations/MotionControl/FallProtection.h"
#include "Representations/MotionControl/ForecastPosture.h"
#include "Representations/MotionControl/JointRequest.h"
#include "Representations/MotionControl/SelfCollision.h"
#include "Representations/MotionControl/SitDown.h"
#include "Representations/MotionControl/SmartStiffness.h"
#include "Representations/Sensing/FilteredCurrent.h"
#include "Representations/Sensing/FsrSensorData.h"
#include "Representations/Sensing/InertialData.h"
#include "Representations/Sensing/InertialSensorData.h"
#include "Representations/Sensing/JointSensorData.h"
#include "Representations/Sensing/SensorHealth.h"
#include "Representations/Sensing/TouchData.h"
#include "Representations/Sensing/UnreadableReadings.h"

namespace nao
{
#define NAO_DEFINE_REPRESENTATION_INSTANCE(Name) template RepresentationInfo makeRepresentationInfo<Name>();
NAO_FOR_EACH_LISTED_REPRESENTATION(NAO_DEFINE_REPRESENTATION_INSTANCE)
#undef NAO_DEFINE_REPRESENTATION_INSTANCE

std::span<const std::string_view> listedRepresentations()
{
#define NAO_REPRESENTATION_NAME(Name) #Name,
  static constexpr std::string_view names[] = {NAO_FOR_EACH_LISTED_REPRESENTATION(NAO_REPRESENTATION_NAME)};
#undef NAO_REPRESENTATION_NAME
  return names;
}
} // namespace nao
