#pragma once
// What the motion source wants from the heat adjustment (EnergySavingProvider), as B-Human's engines pass
// their flags to applyHeatAdjustment(): whether to adjust at all, which limbs, which posture, and which mode.
// The default asks for nothing, so a scenario that sets this representation `off` leaves the joint request
// untouched.
#include "Tools/Streams/Enum.h"
#include <array>
#include <boost/serialization/nvp.hpp>
#include <cstdint>
#include <span>
#include <string_view>

namespace nao
{
/// The posture the motion source holds. It selects the emergency-step sign table and whether base offsets are
/// taken.
NAO_ENUM(EnergySavingPosture, std::uint8_t,
         none,     ///< any other static posture: no sign table, no base offsets
         stand,    ///< normal stand (knees bent): base offsets at the start, stand sign table
         highStand ///< knees stretched: no base offsets, high-stand sign table
);

struct EnergySavingRequest
{
  bool adjust = false;         ///< the motion source wants its (static) request adjusted at all
  bool adjustLeftLeg = false;  ///< the left leg holds still and may be adjusted
  bool adjustRightLeg = false; ///< the right leg holds still and may be adjusted
  bool adjustLeftArm = false;  ///< false while an arm motion runs on the left arm
  bool adjustRightArm = false; ///< false while an arm motion runs on the right arm
  EnergySavingPosture posture = EnergySavingPosture::none;
  /// Adjust the legs so that the measured angles reach the requested ones (calibration).
  bool accuratePositions = false;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& BOOST_SERIALIZATION_NVP(adjust) & BOOST_SERIALIZATION_NVP(adjustLeftLeg) &
        BOOST_SERIALIZATION_NVP(adjustRightLeg) & BOOST_SERIALIZATION_NVP(adjustLeftArm) &
        BOOST_SERIALIZATION_NVP(adjustRightArm) & BOOST_SERIALIZATION_NVP(posture) &
        BOOST_SERIALIZATION_NVP(accuratePositions);
  }
};
} // namespace nao
