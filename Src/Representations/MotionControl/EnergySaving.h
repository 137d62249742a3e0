#pragma once
// What the heat adjustment (EnergySavingProvider) is doing, for logs and plots. The offsets are what it adds
// to the joint request it receives (StiffnessJointRequest) to give the final JointRequest.
#include "Representations/Infrastructure/Joints.h"
#include "Tools/Streams/Field.h"
#include <cstdint>

namespace nao
{
enum class EnergySavingState : std::uint8_t
{
  off,       ///< not requested, or no ground contact: offsets are 0
  waiting,   ///< the request or the contact just changed: wait for the motion to settle
  working,   ///< one adjustment round every adjustWaitTime
  resetState ///< offsets fade linearly to 0, then the adjustment restarts
};
inline constexpr std::array<std::string_view, 4> energySavingStateNames = {"off", "waiting", "working",
                                                                           "resetState"};
inline std::span<const std::string_view> enumNames(EnergySavingState)
{
  return energySavingStateNames;
}

/// Why the last reset began.
enum class EnergySavingResetReason : std::uint8_t
{
  none,            ///< no reset yet
  offsetsTooLarge, ///< offsets large while the centre of mass left its window or the feet lost contact
  contactChanged,  ///< picked up or put down
  notRequested,    ///< the motion source stopped asking
  modeChanged      ///< posture or accuratePositions changed: the offsets belong to the old one
};
inline constexpr std::array<std::string_view, 5> energySavingResetReasonNames = {
    "none", "offsetsTooLarge", "contactChanged", "notRequested", "modeChanged"};
inline std::span<const std::string_view> enumNames(EnergySavingResetReason)
{
  return energySavingResetReasonNames;
}

struct EnergySaving
{
  EnergySavingState state = EnergySavingState::off;
  JointArray<float> offsets;     ///< rad, total added to the incoming request (base offsets included)
  JointArray<float> baseOffsets; ///< rad, the part of offsets taken from measured - requested at the start
  JointArray<std::int32_t>
      counters;                     ///< rounds over the threshold left before the joint's next emergency step
  float timeInState = 0.f;          ///< s since the state began
  std::uint32_t rounds = 0;         ///< adjustment rounds since the last (re)start
  std::uint32_t emergencySteps = 0; ///< emergency steps since the last (re)start
  bool groundContact = false;       ///< debounced: both feet together carry more than the threshold
  EnergySavingResetReason lastResetReason = EnergySavingResetReason::none;
  /// The joint's offset search is under way (waiting or working, adjusted, above its threshold, not settled; or
  /// in a hand-over, pushing for the same joint of the other leg or helped by it):
  /// its rounds compare currents drawn at the stiffness it has now, so a stage before this one (smart
  /// stiffness) leaves its stiffness as it is. false: the offset is held (settled, at or below the threshold,
  /// or not adjusted), and a lower stiffness changes no comparison.
  JointArray<bool> searching{};

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& BOOST_SERIALIZATION_NVP(state) & streams::field("offsets", offsets).unit(streams::Unit::radians) &
        streams::field("baseOffsets", baseOffsets).unit(streams::Unit::radians) &
        BOOST_SERIALIZATION_NVP(counters) &
        streams::field("timeInState", timeInState).unit(streams::Unit::seconds) &
        BOOST_SERIALIZATION_NVP(rounds) & BOOST_SERIALIZATION_NVP(emergencySteps) &
        BOOST_SERIALIZATION_NVP(groundContact) & BOOST_SERIALIZATION_NVP(lastResetReason) &
        BOOST_SERIALIZATION_NVP(searching);
  }
};
} // namespace nao
