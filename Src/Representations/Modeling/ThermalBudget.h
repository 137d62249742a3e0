#pragma once
// How long this robot can keep doing what it does before its first joint reaches temperature status 1 (the firmware
// starts to reduce its stiffness), how long if it stood or sat down, which joint limits it and whether it should rest: the
// per-robot answer a coach and the motion side read, reduced from JointThermalState by ThermalBudgetProvider
// (Src/Modules/Modeling/Common/ThermalBudgetComputation.h, README.md of ThermalBudgetProvider). Minutes, not seconds:
// the one representation made for people deciding who plays the second half.
#include "Representations/Infrastructure/Joints.h"
#include "Tools/Streams/Field.h"
#include <boost/serialization/nvp.hpp>
#include <cstdint>
#include <limits>

namespace nao
{
struct ThermalBudget
{
  /// min, until the first joint reaches status 1 at the present load: the minimum over the joints with an estimate;
  /// 0: one is there; +∞: none gets there at this load (or no joint has an estimate)
  float minutesLeft = std::numeric_limits<float>::infinity();
  Joint limitingJoint = Joint::HeadYaw; ///< the joint of minutesLeft (meaningless while minutesLeft is +∞)
  bool limited = false; ///< some joint reaches status 1 at the present load (minutesLeft finite)
  /// the limiting joint's forecast is not yet trusted (JointThermalState::learning, or its time was not usable this
  /// frame and the last usable one is held)
  bool learning = true;
  /// min, the same if the robot sat down now (JointThermalState::posture named sit: the minimum of its reachTimes of
  /// status 1); when no sitting posture is forecast, minutesLeft: sitting limp draws less current than any load, so
  /// the present load's minutes are a lower bound, never a promise
  float minutesIfSitting = std::numeric_limits<float>::infinity();
  bool sittingForecast = false; ///< minutesIfSitting comes from the sitting posture's forecast
  /// min, the same if the robot stood still on both feet from now: minutesLeft while it stands; otherwise from the
  /// loads it drew the last time it stood (ThermalBudgetProvider remembers them), solved on each joint's fitted
  /// nodes; before it was first seen standing, minutesLeft (standingForecast false: the present load's, no promise)
  float minutesIfStanding = std::numeric_limits<float>::infinity();
  bool standingForecast = false; ///< minutesIfStanding comes from a stand (now, or the last one seen)
  bool standing = false; ///< the robot stands still on both feet now (for at least the provider's standHold)
  Joint hottestJoint = Joint::HeadYaw; ///< the joint with the highest estimated temperature
  float hottestTemperature = 0.f;      ///< °C, its estimate (0 while no joint has one)
  bool estimated = false;              ///< some joint has an estimate (JointThermalState::valid)
  /// a trusted joint reaches status 1 within the provider's restBelow: never from a forecast still learning, from a
  /// joint without estimate or from an unusable time (one faulty reading), even when one of them says less
  bool shouldRest = false;
  /// joints with an estimate whose time to status 1 was NaN or negative this frame (their last usable one held)
  std::uint32_t unusableTimes = 0;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::Unit;
    ar& streams::field("minutesLeft", minutesLeft).doc("min, until the first joint reaches status 1") &
        BOOST_SERIALIZATION_NVP(limitingJoint) & BOOST_SERIALIZATION_NVP(limited) &
        BOOST_SERIALIZATION_NVP(learning) &
        streams::field("minutesIfSitting", minutesIfSitting).doc("min, the same if the robot sat down now") &
        BOOST_SERIALIZATION_NVP(sittingForecast) &
        streams::field("minutesIfStanding", minutesIfStanding)
            .doc("min, the same if the robot stood from now") &
        BOOST_SERIALIZATION_NVP(standingForecast) & BOOST_SERIALIZATION_NVP(standing) &
        BOOST_SERIALIZATION_NVP(hottestJoint) &
        streams::field("hottestTemperature", hottestTemperature).unit(Unit::degreesCelsius) &
        BOOST_SERIALIZATION_NVP(estimated) & BOOST_SERIALIZATION_NVP(shouldRest) &
        BOOST_SERIALIZATION_NVP(unusableTimes);
  }
};
} // namespace nao
