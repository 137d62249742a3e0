#pragma once
// What FallProtectionProvider does: pass the request through, hold the protective posture while the robot falls
// and until it lies still, keep a robot that lies passive, then hand back smoothly to the request before it.
#include "Representations/Modeling/FallDownState.h"
#include "Tools/Streams/Enum.h"
#include "Tools/Streams/Field.h"
#include <boost/serialization/nvp.hpp>
#include <cstdint>

namespace nao
{
NAO_ENUM(FallProtectionPhase, std::uint8_t,
         passThrough,  ///< the request before goes out unchanged
         protecting,   ///< falling or lying: head against the fall, arms out, low stiffness
         lyingPassive, ///< lying still: every joint limp (no current, no heat) until upright or a get-up
         handingBack,  ///< blending from the measured posture back to the request before
);

struct FallProtection
{
  FallProtectionPhase phase = FallProtectionPhase::passThrough;
  FallDirection direction = FallDirection::none; ///< the direction the posture was chosen for
  float timeInPhase = 0.f;                       ///< s since `phase` last changed
  std::uint32_t protectedFalls = 0;              ///< falls the posture was taken for since start
  std::uint32_t passiveFalls = 0;                ///< times a lying robot was made passive since start

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& BOOST_SERIALIZATION_NVP(phase) & BOOST_SERIALIZATION_NVP(direction) &
        streams::field("timeInPhase", timeInPhase).unit(streams::Unit::seconds) &
        BOOST_SERIALIZATION_NVP(protectedFalls) & BOOST_SERIALIZATION_NVP(passiveFalls);
  }
};
} // namespace nao
