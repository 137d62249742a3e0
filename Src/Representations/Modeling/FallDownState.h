#pragma once
// Whether the robot stands, staggers, falls (and which way), lies (and on which side) or is held in the air
// (FallDownStateDetector). FallProtectionProvider takes over the motion when a fall is certain.
#include "Tools/Streams/Enum.h"
#include "Tools/Streams/Field.h"
#include <boost/serialization/nvp.hpp>
#include <cstdint>

namespace nao
{
NAO_ENUM(FallState, std::uint8_t,
         upright,    ///< standing or walking, balanced
         staggering, ///< off balance, may still recover: nothing is taken over yet
         falling,    ///< a fall is certain; `direction` says where to
         fallen,     ///< lying still on the ground; `side` says on what
         lifted,     ///< the feet carry no weight (picked up, held in the air)
);

/// Where the torso falls, in the torso frame (front: towards x).
NAO_ENUM(FallDirection, std::uint8_t, none, front, back, left, right);

/// What, besides the gyroscope's tilt and rate, says the robot falls (FallDownStateDetector's README).
NAO_ENUM(FallWitness, std::uint8_t,
         none,          ///< nothing: no fall is called
         soleEdge,      ///< a loaded sole rocks on one edge (its load on one pair of FSRs)
         feetUnloaded,  ///< the feet carry much less than the robot's weight
         accelerometer, ///< the torso accelerates: the accelerometer's norm is off g, or it leans by itself
         noWitness,     ///< no witness sensor is trusted: the inertial estimate alone decides
);

/// What the robot lies on.
NAO_ENUM(FallenSide, std::uint8_t, none, front, back, left, right);

struct FallDownState
{
  FallState state = FallState::upright;
  FallDirection direction = FallDirection::none; ///< while falling (and kept while fallen)
  FallenSide side = FallenSide::none;            ///< while fallen
  float timeInState = 0.f;                       ///< s since `state` last changed
  float tilt = 0.f;                        ///< rad, the torso's angle from upright (0 upright, π/2 lying)
  std::uint32_t falls = 0;                 ///< falls detected since start
  FallWitness witness = FallWitness::none; ///< what confirmed the last fall (kept until the next)

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& BOOST_SERIALIZATION_NVP(state) & BOOST_SERIALIZATION_NVP(direction) & BOOST_SERIALIZATION_NVP(side) &
        streams::field("timeInState", timeInState).unit(streams::Unit::seconds) &
        streams::field("tilt", tilt).unit(streams::Unit::radians) & BOOST_SERIALIZATION_NVP(falls) &
        BOOST_SERIALIZATION_NVP(witness);
  }
};
} // namespace nao
