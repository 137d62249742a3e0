#pragma once
// One joint's guard in a heat adjustment: "do no harm". It knows what the joint draws without the stage (its
// reference: the filtered current at zero offset, once the joint has settled in the posture) and steps in when the
// stage leaves
// it worse: over the last `window` rounds, in none of which its current fell below every current since by
// `progress` (a search still finding lower currents is left to it), it was above the reference plus margin in
// `rounds` of them, or its mean square current (the winding's heating, I²R) was above the margin's square. Then back
// to the best offset it saw, then to zero offset. Where zero offset does not bring the reference back either (the
// load of the other joints of a closed chain, or a joint that slipped since), its own offset is not the cause: it
// searches again, and the guard leaves it to its search until the posture changes. A joint whose reading goes back
// and forth within rounds (it oscillates: the board's loop, not friction, sets its current) is held at zero offset
// until the posture changes: an offset cannot help it and a search only moves it (a restless leg joint holds every
// joint so: the body shakes). Every frame, a change of the offset that takes the current far above the reference
// is undone and its way barred (StepBound). A plain value, one per joint in HeatAdjustmentCycle; why:
// EnergySavingProvider/README.md, "The guard".
#include "Modules/MotionControl/Common/StepBound.h"
#include "Representations/MotionControl/EnergySaving.h"
#include "Tools/Streams/Field.h"

#include <array>
#include <limits>
#include <numbers>

namespace nao
{
struct JointGuardParameters
{
  bool enabled = true;
  float marginFraction = 0.1f;
  float marginCurrent = 0.02f;
  int rounds = 4;
  int window = 8;
  // A winding heats over many seconds, and two joints whose currents come and go as their searches move each
  // other's loads do not heat it in two.
  int heatWindow = 20;
  float progress = 0.005f;
  // A reading moved farther from the one at the reference: zero offset no longer restores the reference, and the
  // slipped joint searches again instead of being held.
  float movedTolerance = 0.2f * std::numbers::pi_v<float> / 180.f;
  float postureTolerance = std::numbers::pi_v<float> / 180.f;
  // Four counts of LoLA's reading (0.088° each): a resting joint's reading flips by one count and back; one that
  // travels farther oscillates.
  float restlessTravel = 0.35f * std::numbers::pi_v<float> / 180.f;
  // A joint at rest on a count boundary flips between two neighbouring counts of its 12-bit encoder (0.088°,
  // Docs/NaoFacts.md) as often as it likes.
  float restlessSpan = 0.15f * std::numbers::pi_v<float> / 180.f;
  int restlessRounds = 2;
  // A body still settling after the posture change would give a reference it does not keep. Settled: two rounds in
  // a row agree within half the margin (current) and restlessSpan (reading). The stand's base offsets wait until
  // every leg joint has its reference.
  int settleRounds = 8;
  // The step bound: what "far above the reference" is, reference + max(boundFraction × reference, boundCurrent)
  // (StepBound.h; EnergySavingProvider/README.md, "The guard").
  float boundFraction = 0.5f;
  float boundCurrent = 0.3f;
  // LoLA's reading moves by whole counts (0.088°, Docs/NaoFacts.md): anything under one is "not at all", so one
  // count the change's way is enough. A joint that gave way under its load is not sent back: that would push it up
  // against its gears.
  float gaveWay = 0.05f * std::numbers::pi_v<float> / 180.f;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    using streams::Unit;
    ar& field("enabled", enabled).doc("false: no guard");
    ar& field("marginFraction", marginFraction)
        .unit(Unit::percent)
        .range(0.0, 1000.0)
        .doc("of the reference current (what the joint draws without the stage) ...");
    ar& field("marginCurrent", marginCurrent)
        .unit(Unit::milliamperes)
        .range(0.0, 5000.0)
        .doc("... plus this: a current above is worse than without the stage");
    ar& field("rounds", rounds)
        .range(1, 32)
        .doc("rounds above the margin within the window that count as worse");
    ar& field("window", window)
        .range(1, 32)
        .doc("rounds without a new low before the rules judge; the current rule looks back this far");
    ar& field("heatWindow", heatWindow)
        .range(1, 32)
        .doc("rounds the heating rule (mean square current) looks back");
    ar& field("progress", progress)
        .unit(Unit::milliamperes)
        .range(0.0, 1000.0)
        .doc("a current this far below every one since the reference is a new low");
    ar& field("movedTolerance", movedTolerance)
        .unit(Unit::degrees)
        .range(0.0, 10.0)
        .doc("a reading this far from the one at the reference: the joint has moved (slipped)");
    ar& field("postureTolerance", postureTolerance)
        .unit(Unit::degrees)
        .range(0.0, 90.0)
        .doc("a request this far from the reference's is another posture: zero offset, new reference");
    ar& field("restlessTravel", restlessTravel)
        .unit(Unit::degrees)
        .range(0.0, 90.0)
        .doc("a reading travelling this much farther in a round than its net change oscillates ...");
    ar& field("restlessSpan", restlessSpan)
        .unit(Unit::degrees)
        .range(0.0, 90.0)
        .doc("... if it also spanned more than this within the round");
    ar& field("restlessRounds", restlessRounds)
        .range(1, 32)
        .doc("rounds in a row of such travel that make a joint restless");
    ar& field("settleRounds", settleRounds)
        .range(1, 1000)
        .doc("rounds at zero offset a joint may take to settle before its reference is taken as it is");
    ar& field("boundFraction", boundFraction)
        .unit(Unit::percent)
        .range(0.0, 1000.0)
        .doc(
            "a change of the offsets that takes a joint's current above its reference by more than this ...");
    ar& field("boundCurrent", boundCurrent)
        .unit(Unit::milliamperes)
        .range(0.0, 5000.0)
        .doc(
            "... and than this (the bound: the higher) goes back, and that way is barred in the posture ...");
    ar& field("gaveWay", gaveWay)
        .unit(Unit::degrees)
        .range(0.0, 10.0)
        .doc(
            "... but not once the reading moved this far its way after the current fell: the joint gave way");
  }
};

class JointGuard
{
public:
  /// A new posture: no reference, the joint held at zero offset until one is taken.
  void reset() { *this = JointGuard{}; }
  /// What the joint draws without the stage (A, |filtered current| at zero offset) at request `request` and reading
  /// `reading` (rad).
  void setReference(float current, float request, float reading);
  /// A round at zero offset while measuring: the reference is taken once the joint has settled (this round agrees
  /// with the last, see JointGuardParameters::settleRounds) or after settleRounds rounds. Returns whether it is.
  bool offerReference(float current, float request, float reading, const JointGuardParameters& p);
  /// A leg joint of the robot is restless: the body shakes, and this joint is held at zero offset as if it were
  /// restless itself until its posture changes.
  void shaken() { state_ = HeatGuardState::restless; }
  /// Every frame while the stage works: the joint's reading (rad), for the restless rule.
  void observe(float reading);
  /// The step bound (StepBound::round), at a round before it changes anything: the joint was last sent `offset` (rad,
  /// base + adjustment), drew `current` (A, |filtered|) over the round and `latest` (A) in the last frame, and reads
  /// `reading` (rad).
  void startStepRound(float offset, float current, float latest, float reading, const JointGuardParameters& p)
  {
    bound_.round(offset, current, latest, reading, reference_ * p.marginFraction + p.marginCurrent);
  }
  /// The step bound every frame while the stage works (StepBound::frame): own, the joint goes back within bound();
  /// loaded, the joints that share its load go back (undoStep).
  StepBound::Verdict checkStep(float offset, float current, float reading, const JointGuardParameters& p);
  /// Another joint's current rose above its bound: this joint's change since the round began goes back
  /// (StepBound::undo). Returns whether there was one.
  bool undoStep(float offset) { return bound_.undo(offset); }
  /// A round: the joint drew `current` (A, |filtered|) at `offset` (rad, base + adjustment) and reads `reading`
  /// (rad). Returns the rule that acted (none: the joint goes on as it is).
  HeatGuardRule round(float current, float offset, float reading, const JointGuardParameters& p);

  static constexpr int maxWindow = 32;

  HeatGuardState state() const { return state_; }
  /// The stage leaves the joint alone: measuring, or held at its best offset or zero.
  bool holds() const { return state_ != HeatGuardState::watching; }
  /// Zero offset did not bring the reference back: the joint searches again, and the guard leaves it to it until
  /// the posture changes.
  bool released() const { return released_; }
  /// rad, the offset (base + adjustment) the joint is held at while holds(), within the ways the bound leaves open.
  float heldOffset() const { return bound_.clamp(state_ == HeatGuardState::heldAtBest ? bestOffset_ : 0.f); }
  const StepBound& bound() const { return bound_; }
  float reference() const { return reference_; }      ///< A (NaN: none yet)
  float referenceRequest() const { return request_; } ///< rad (NaN: none yet)
  float limit(const JointGuardParameters& p) const
  {
    return reference_ * (1.f + p.marginFraction) + p.marginCurrent;
  }
  /// A: far above the reference (StepBound).
  float stepLimit(const JointGuardParameters& p) const
  {
    return StepBound::limit(reference_, p.boundFraction, p.boundCurrent);
  }

private:
  void searchAgain(float current, float offset);
  /// Ends the round's window of readings; true when the reading went back and forth in it (restless).
  bool endReadingWindow(const JointGuardParameters& p);
  /// After a round without a new low: the rule that finds the joint worse than without the stage, or none.
  HeatGuardRule judge(float offset, const JointGuardParameters& p);
  /// What a rule that fired does: hold at the best offset or at zero, or search again (not its own offset).
  HeatGuardRule act(HeatGuardRule rule, float current, float offset, float reading,
                    const JointGuardParameters& p);

  HeatGuardState state_ = HeatGuardState::measuring; ///< never `off`: the cycle shows that
  float reference_ = std::numeric_limits<float>::quiet_NaN();
  float request_ = std::numeric_limits<float>::quiet_NaN();
  float reading_ = std::numeric_limits<float>::quiet_NaN(); ///< rad, the reading at the reference
  bool released_ = false;
  float travel_ = 0.f; ///< rad, the reading's path since the last round
  float windowStart_ = std::numeric_limits<float>::quiet_NaN();    ///< rad, the reading at the last round ...
  float lastReading_ = std::numeric_limits<float>::quiet_NaN();    ///< rad, ... and at the last frame
  float lowestReading_ = std::numeric_limits<float>::infinity();   ///< rad, the round's least reading ...
  float highestReading_ = -std::numeric_limits<float>::infinity(); ///< rad, ... and its greatest
  int restlessRounds_ = 0; ///< rounds in a row the reading went back and forth
  int offers_ = 0;         ///< rounds offered for the reference so far ...
  float offeredCurrent_ = std::numeric_limits<float>::quiet_NaN(); ///< A, ... the last one's current ...
  float offeredReading_ = std::numeric_limits<float>::quiet_NaN(); ///< rad, ... and reading
  std::array<float, maxWindow> currents_{};                        ///< A, the last rounds' currents (a ring)
  int next_ = 0;                                                   ///< where the next one goes
  int heldRounds_ = 0;                                    ///< rounds held at the offset it is held at
  int sinceLow_ = 0;                                      ///< rounds since the current last reached a new low
  float lowest_ = std::numeric_limits<float>::infinity(); ///< A, the least current since the reference
  float bestCurrent_ =
      std::numeric_limits<float>::infinity(); ///< A, the least current, the reference's too ...
  float bestOffset_ = 0.f;                    ///< rad, ... and the offset it was drawn at
  StepBound bound_;
};
} // namespace nao
