#pragma once
// One joint's search for the angle offset at which its motor draws least current: a plain value, one per joint in
// LeastCurrentRounds. A round gives it what the joint reads now and gets the joint's next adjustment back. The rules
// and why: README.md of this folder, "The rules", its search.
#include <limits>

namespace nao
{
struct EnergySavingParameters;

/// What a round knows of one joint (a finite current above the joint's threshold: the caller checks).
struct SearchRound
{
  float current = 0.f;    ///< A, |filtered current|
  float threshold = 0.f;  ///< A, the joint's current threshold now
  float measured = 0.f;   ///< rad, LoLA's reading
  float requested = 0.f;  ///< rad, the incoming request
  float base = 0.f;       ///< rad, the applied base offset
  float adjustment = 0.f; ///< rad, the joint's round offset now
  float maxStep = 0.f;    ///< rad, the limb's maxGearStep
  float pull = 1.f;       ///< ±1, the way the posture's load pulls (where request and reading agree)
  /// The stiffness the joint gets changed since the last round: its current window mixes two stiffnesses.
  bool stiffnessChanged = false;
  /// rad, the adjustments the guard's step bound leaves open: a way barred is not tried again
  float lowest = -std::numeric_limits<float>::infinity();
  float highest = std::numeric_limits<float>::infinity();
};

class OffsetSearch
{
public:
  OffsetSearch() { restart(0.f); }

  /// A new search from the offset the joint has (the sag bound stays: see forgetSag).
  void restart(float minGearStep);
  /// The sag bound belongs to a posture: a new posture, or a joint adjusted again, forgets it.
  void forgetSag() { sagBound_ = std::numeric_limits<float>::quiet_NaN(); }

  /// One round; returns the joint's new adjustment (rad).
  float round(const SearchRound& in, const EnergySavingParameters& p);

  /// The search spent stalledRoundsToSettle rounds at its finest step and holds its best offset.
  bool settled() const { return settledCurrent_ >= 0.f; }
  int stalledRounds() const { return stalledRounds_; }
  float sagBound() const { return sagBound_; } ///< rad (NaN: none yet)

private:
  /// `adjustment`, held back from following the sag past the sag bound (none yet: unchanged); `current` is
  /// the adjustment before the step.
  float withinSagBound(float adjustment, float current) const;

  float direction_ = 0.f;       ///< ±1 the way of the last step; 0: none yet
  float step_ = 0.f;            ///< rad
  float lastCurrent_ = -1.f;    ///< A, the filtered current before the last step (< 0: none)
  float settledCurrent_ = -1.f; ///< A, the highest current of a settled search's last rounds (< 0: searching)
  float stallPeak_ = 0.f;       ///< A, the highest current since the search reached its finest step
  float bestCurrent_ = std::numeric_limits<float>::infinity(); ///< A, the least current this search saw ...
  float bestAdjustment_ = 0.f; ///< rad, ... and the adjustment it was drawn at
  int stalledRounds_ = 0;      ///< rounds at the finest step
  int settledHighRounds_ = 0;  ///< settled rounds in a row a threshold above bestCurrent_
  /// rad, the sag when it passed maxSag: the adjustment goes no further that way (NaN: none)
  float sagBound_ = std::numeric_limits<float>::quiet_NaN();
};
} // namespace nao
