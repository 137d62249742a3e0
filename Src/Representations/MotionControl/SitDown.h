#pragma once
// What SitDownProvider does: pass the motion source's request through, sit the robot down (chest button or low
// battery), hold it sitting without stiffness, or stand it up again. `lowBattery` is the warning of a battery
// below the threshold: the debug channel shows it and the log records it with this representation.
#include "Tools/Streams/Enum.h"
#include "Tools/Streams/Field.h"
#include <boost/serialization/nvp.hpp>
#include <cstdint>

namespace nao
{
NAO_ENUM(SitDownPhase, std::uint8_t,
         passThrough, ///< the motion source's request goes out unchanged
         sittingDown, ///< moving smoothly from where the joints were into the sitting posture
         sitting,     ///< sitting; the stiffness goes to 0 and stays there
         standingUp,  ///< moving smoothly from the measured posture to the motion source's request
);

NAO_ENUM(SitDownReason, std::uint8_t,
         none,        ///< nothing asked for a sit-down
         chestButton, ///< a press of the chest button (at its release)
         lowBattery,  ///< the battery's charge stayed below the threshold
);

struct SitDown
{
  SitDownPhase phase = SitDownPhase::passThrough;
  SitDownReason reason = SitDownReason::none; ///< why the robot sits (kept while sitting and standing up)
  float timeInPhase = 0.f;                    ///< s since `phase` last changed
  bool lowBattery = false; ///< warning: charge below the threshold for lowBatteryTime and not charging
  /// warning: sat down for a low battery, the charge now reads above the re-arm level (charging, or the gauge was
  /// wrong); a press stands the robot up
  bool lowBatteryReadsFull = false;
  std::uint32_t presses = 0; ///< debounced chest button presses since start

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& BOOST_SERIALIZATION_NVP(phase) & BOOST_SERIALIZATION_NVP(reason) &
        streams::field("timeInPhase", timeInPhase).unit(streams::Unit::seconds) &
        BOOST_SERIALIZATION_NVP(lowBattery) & BOOST_SERIALIZATION_NVP(lowBatteryReadsFull) &
        BOOST_SERIALIZATION_NVP(presses);
  }
};
} // namespace nao
