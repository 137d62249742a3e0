#pragma once
// What the self-collision stage (SelfCollisionProvider) saw and did this frame, for logs and plots: the signed
// distance of every shape pair of Config/Robots/<robot>/selfCollision.toml, which pairs constrained the request,
// what it changed, and how the QP went. Fixed size: copying it in the motion thread never allocates.
#include "Representations/Infrastructure/Joints.h"
#include "Tools/Streams/Enum.h"
#include "Tools/Streams/Field.h"
#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace nao
{
NAO_ENUM(
    SelfCollisionStatus, std::uint8_t,
    off,        ///< no group protected: the request passes unchanged
    free,       ///< no protected pair closer than the activation distance: the request passes unchanged
    optimal,    ///< constrained, the QP found the closest collision-free request
    infeasible, ///< constrained, no step keeps every pair out: the involved chains hold their last request
    failed      ///< the QP gave up (iterations, numbers): the involved chains hold their last request
);

/// One pair's state (pairState).
NAO_ENUM(PairState, std::uint8_t,
         unprotected, ///< neither shape is on a protected chain: distance computed, never constrained
         far,         ///< protected, farther than the activation distance
         constrained, ///< protected and close: a velocity-damper row of the QP
         active       ///< constrained and binding at the solution (positive multiplier)
);

struct SelfCollision
{
  static constexpr std::size_t maxPairs = 128;

  SelfCollisionStatus status = SelfCollisionStatus::off;
  std::uint16_t pairCount = 0;             ///< valid entries of the per-pair arrays (pair order of the model)
  std::array<float, maxPairs> distances{}; ///< m, signed, at the reference posture (last request sent)
  std::array<PairState, maxPairs> pairState{}; ///< per pair
  std::array<std::uint8_t, maxPairs> shapeA{}; ///< shape index (order of the shapes file, sorted by name)
  std::array<std::uint8_t, maxPairs> shapeB{}; ///< shape index
  float minDistance = 0.f;                     ///< m, smallest of distances
  std::int16_t closestPair = -1;               ///< pair of minDistance, -1 without pairs
  std::uint16_t constrainedPairs = 0;          ///< pairs closer than the activation distance
  std::uint16_t activePairs = 0;               ///< of those, binding at the solution
  std::uint16_t iterations = 0;                ///< QP search directions this frame
  JointArray<float> corrections{};             ///< rad, sent minus requested angle
  std::uint32_t modifiedJoints = 0;            ///< bit j set: joint j's angle differs from the request
  std::uint8_t protectedChains = 0;            ///< bits: Head 1, LArm 2, RArm 4, LLeg 8, RLeg 16

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& BOOST_SERIALIZATION_NVP(status) & BOOST_SERIALIZATION_NVP(pairCount) &
        streams::field("distances", distances).unit(streams::Unit::meters) &
        BOOST_SERIALIZATION_NVP(pairState) & BOOST_SERIALIZATION_NVP(shapeA) &
        BOOST_SERIALIZATION_NVP(shapeB) &
        streams::field("minDistance", minDistance).unit(streams::Unit::meters) &
        BOOST_SERIALIZATION_NVP(closestPair) & BOOST_SERIALIZATION_NVP(constrainedPairs) &
        BOOST_SERIALIZATION_NVP(activePairs) & BOOST_SERIALIZATION_NVP(iterations) &
        streams::field("corrections", corrections).unit(streams::Unit::radians) &
        BOOST_SERIALIZATION_NVP(modifiedJoints) & BOOST_SERIALIZATION_NVP(protectedChains);
  }
};
} // namespace nao
