#pragma once
// The representations of Src/Representations, whose type-erased operations (RepresentationOps.h) are compiled once,
// in RepresentationInstances.cpp, instead of in every translation unit that mentions them: those operations
// instantiate Boost's archives and the field walks of the whole struct, more than half of a module's compile time.
// A representation missing here still works (it is instantiated where it is mentioned), only its users compile
// slower; the RepresentationInstances tests of RobotTests name the modules' representations that are missing.

/// Each representation of Src/Representations, once.
#define NAO_FOR_EACH_LISTED_REPRESENTATION(X)                                                                \
  X(BatteryData)                                                                                             \
  X(FrameInfo)                                                                                               \
  X(ModuleTimes)                                                                                             \
  X(FallDownState)                                                                                           \
  X(JointLimits)                                                                                             \
  X(JointThermalState)                                                                                       \
  X(JointTorques)                                                                                            \
  X(LimbStiffness)                                                                                           \
  X(RobotModel)                                                                                              \
  X(ThermalBudget)                                                                                           \
  X(CollisionFreeJointRequest)                                                                               \
  X(EnergySaving)                                                                                            \
  X(EnergySavingRequest)                                                                                     \
  X(FallProtection)                                                                                          \
  X(FallSafeJointRequest)                                                                                    \
  X(ForecastPosture)                                                                                         \
  X(JointRequest)                                                                                            \
  X(MotionJointRequest)                                                                                      \
  X(SafeMotionJointRequest)                                                                                  \
  X(SelfCollision)                                                                                           \
  X(SitDown)                                                                                                 \
  X(SmartStiffness)                                                                                          \
  X(StiffnessJointRequest)                                                                                   \
  X(FilteredCurrent)                                                                                         \
  X(FsrSensorData)                                                                                           \
  X(InertialData)                                                                                            \
  X(InertialSensorData)                                                                                      \
  X(JointSensorData)                                                                                         \
  X(SensorHealth)                                                                                            \
  X(TouchData)                                                                                               \
  X(UnreadableReadings)

#include <span>
#include <string_view>

namespace nao
{
/// The names of the listed representations, for the test that the list is complete.
std::span<const std::string_view> listedRepresentations();

struct RepresentationInfo;
template<class T>
RepresentationInfo makeRepresentationInfo();

#define NAO_DECLARE_REPRESENTATION_INSTANCE(Name)                                                            \
  struct Name;                                                                                               \
  extern template RepresentationInfo makeRepresentationInfo<Name>();
NAO_FOR_EACH_LISTED_REPRESENTATION(NAO_DECLARE_REPRESENTATION_INSTANCE)
#undef NAO_DECLARE_REPRESENTATION_INSTANCE
} // namespace nao
